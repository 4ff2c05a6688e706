package secretsmanager

import (
	"encoding/json"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxPolicy is the longest resource policy Secrets Manager accepts (PutResourcePolicy,
// ResourcePolicy: 1 to 20480 characters).
const maxPolicy = 20480

// getResourcePolicy returns a secret's resource policy, without ResourcePolicy when it has
// none, as AWS answers.
func (b *Backend) getResourcePolicy(call *core.Call, in *secretsmanager.GetResourcePolicyInput) (*secretsmanager.GetResourcePolicyOutput, error) {
	return withSecret(b, call, b.find, in.SecretId, func(s *secret) (*secretsmanager.GetResourcePolicyOutput, error) {
		out := &secretsmanager.GetResourcePolicyOutput{ARN: aws.String(s.arn), Name: aws.String(s.name)}
		if s.policy != "" {
			out.ResourcePolicy = aws.String(s.policy)
		}
		return out, nil
	})
}

// putResourcePolicy attaches a resource policy to a secret: a JSON document with a Statement.
// With BlockPublicPolicy (false by default: "By default, public policies aren't blocked"), a
// policy that allows everyone is refused with PublicPolicyException.
func (b *Backend) putResourcePolicy(call *core.Call, in *secretsmanager.PutResourcePolicyInput) (*secretsmanager.PutResourcePolicyOutput, error) {
	policy := aws.ToString(in.ResourcePolicy)
	if n := len(policy); n < 1 || n > maxPolicy {
		return nil, validation("Value at 'resourcePolicy' failed to satisfy constraint: Member must have length between 1 and %d", maxPolicy)
	}
	var doc struct {
		Statement json.RawMessage
	}
	if err := json.Unmarshal([]byte(policy), &doc); err != nil || len(doc.Statement) == 0 {
		return nil, core.Errorf("MalformedPolicyDocumentException", "This resource policy contains a syntax error.")
	}
	if aws.ToBool(in.BlockPublicPolicy) && core.PublicPolicy(policy) {
		return nil, core.Errorf("PublicPolicyException", "The BlockPublicPolicy parameter is set to true, and the resource policy did not prevent broad access to the secret.")
	}
	return withSecret(b, call, b.primary, in.SecretId, func(s *secret) (*secretsmanager.PutResourcePolicyOutput, error) {
		s.policy = policy
		return &secretsmanager.PutResourcePolicyOutput{ARN: aws.String(s.arn), Name: aws.String(s.name)}, nil
	})
}

// deleteResourcePolicy removes a secret's resource policy; removing none succeeds.
func (b *Backend) deleteResourcePolicy(call *core.Call, in *secretsmanager.DeleteResourcePolicyInput) (*secretsmanager.DeleteResourcePolicyOutput, error) {
	return withSecret(b, call, b.primary, in.SecretId, func(s *secret) (*secretsmanager.DeleteResourcePolicyOutput, error) {
		s.policy = ""
		return &secretsmanager.DeleteResourcePolicyOutput{ARN: aws.String(s.arn), Name: aws.String(s.name)}, nil
	})
}
