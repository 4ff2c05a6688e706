package kms

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// regionPattern matches the names of AWS Regions, such as us-east-1 and us-gov-west-1.
var regionPattern = regexp.MustCompile(`^([a-z]+-){2,3}\d+$`)

// replicateKey makes a replica of a multi-Region primary key in another Region of the account:
// a key with the same key ID, key spec, key usage, key material and automatic rotation, and its
// own description, key policy, tags, aliases and key state (ReplicateKey; Multi-Region keys in
// AWS KMS, Synchronizing shared properties).
func (b *Backend) replicateKey(call *core.Call, in *kms.ReplicateKeyInput) (*kms.ReplicateKeyOutput, error) {
	to := aws.ToString(in.ReplicaRegion)
	switch {
	case to == "":
		return nil, missing("replicaRegion")
	case !regionPattern.MatchString(to):
		return nil, validation(`1 validation error detected: Value '%s' at 'replicaRegion' failed to satisfy constraint: Member must satisfy regular expression pattern: ^([a-z]+-){2,3}\d+$`, to)
	}
	if err := checkDescription(aws.ToString(in.Description)); err != nil {
		return nil, err
	}
	if in.Policy != nil {
		if err := checkPolicy(*in.Policy); err != nil {
			return nil, err
		}
	}
	tags, err := core.RequestTags(tagRules, in.Tags, tagPair)
	if err != nil {
		return nil, err
	}
	return withManaged(b, call, in.KeyId, "ReplicateKey", func(k *key) (*kms.ReplicateKeyOutput, error) {
		switch {
		case !k.multiRegion():
			return nil, unsupported("%s is not a multi-Region key; only multi-Region primary keys can be replicated.", k.arn)
		case k.replica():
			return nil, unsupported("%s is a multi-Region replica key; only its primary key in %s can be replicated.", k.arn, k.primary)
		}
		scope := core.Scope{Account: k.scope.Account, Region: to}
		dst := b.regions.For(scope)
		if _, ok := dst.keys[k.id]; ok {
			return nil, core.Errorf("AlreadyExistsException", "The multi-Region key %s already exists in %s.", k.id, to)
		}
		policy := defaultPolicy(scope)
		if in.Policy != nil {
			policy = *in.Policy
		}
		if err := dst.tags.Replace(k.id, tags); err != nil {
			return nil, err
		}
		replica := &key{
			id: k.id, arn: keyARN(scope, k.id), scope: scope, description: aws.ToString(in.Description),
			spec: k.spec, usage: k.usage, manager: managerCustomer, policy: policy, created: call.Now,
			state: stateEnabled, primary: k.primary, material: k.material,
		}
		dst.keys[k.id] = replica
		return &kms.ReplicateKeyOutput{ReplicaKeyMetadata: b.describe(replica), ReplicaPolicy: aws.String(policy), ReplicaTags: tagList(dst, k.id)}, nil
	})
}
