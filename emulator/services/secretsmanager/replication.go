package secretsmanager

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// regionName is the form of an AWS region name, such as us-east-1 or us-gov-west-1.
var regionName = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-\d{1,2}$`)

// checkReplicaRegions returns the error for a list of replica regions Secrets Manager refuses:
// one that is not a region, the call's own region, or one named twice.
func checkReplicaRegions(call *core.Call, list []types.ReplicaRegionType) error {
	seen := map[string]bool{}
	for _, r := range list {
		region := aws.ToString(r.Region)
		if !regionName.MatchString(region) || region == call.Region {
			return invalidParameter("Invalid replica region.")
		}
		if seen[region] {
			return invalidParameter("Duplicate replica region %s.", region)
		}
		seen[region] = true
	}
	return nil
}

// replicaRegions returns the regions a secret is replicated to.
func (s *state) replicaRegions() []string {
	var out []string
	for _, r := range s.replicas {
		out = append(out, r.region)
	}
	return out
}

// replicate replicates a primary secret to the regions of list it is not replicated to yet. A
// region that holds another secret of the same name gets a replica only when force is set and
// that secret is a primary without replicas of its own; otherwise the replication fails there,
// as its status says. The caller holds b.mu.
func (b *Backend) replicate(call *core.Call, s *secret, list []types.ReplicaRegionType, force bool) {
	suffix := strings.TrimPrefix(s.primaryARN, arnPrefix(core.Scope{Account: call.Account, Region: s.primaryRegion})+s.name)
	for _, r := range list {
		region := aws.ToString(r.Region)
		if slices.Contains(s.replicaRegions(), region) {
			continue
		}
		rep := &replica{region: region, kmsKeyID: defaultKey, status: types.StatusTypeInSync, message: "Replication succeeded"}
		if r.KmsKeyId != nil {
			rep.kmsKeyID = *r.KmsKeyId
		}
		s.replicas = append(s.replicas, rep)
		scope := core.Scope{Account: call.Account, Region: region}
		b.purge(scope, call.Now)
		target := b.secrets.For(scope)
		if other, ok := target[s.name]; ok {
			if !force || other.isReplica() || len(other.replicas) > 0 {
				rep.status = types.StatusTypeFailed
				rep.message = fmt.Sprintf("Replication failed: Secret name %s already exists in region %s.", s.name, region)
				continue
			}
			b.tags.Delete(other.primaryARN)
		}
		target[s.name] = &secret{state: s.state, arn: arnPrefix(scope) + s.name + suffix, region: region}
	}
}

// replicateSecretToRegions replicates a primary secret to more regions.
func (b *Backend) replicateSecretToRegions(call *core.Call, in *secretsmanager.ReplicateSecretToRegionsInput) (*secretsmanager.ReplicateSecretToRegionsOutput, error) {
	if len(in.AddReplicaRegions) == 0 {
		return nil, validation("Value null at 'addReplicaRegions' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
	if err := checkReplicaRegions(call, in.AddReplicaRegions); err != nil {
		return nil, err
	}
	return withSecret(b, call, b.primary, in.SecretId, func(s *secret) (*secretsmanager.ReplicateSecretToRegionsOutput, error) {
		b.replicate(call, s, in.AddReplicaRegions, in.ForceOverwriteReplicaSecret)
		s.changed = call.Now
		return &secretsmanager.ReplicateSecretToRegionsOutput{ARN: aws.String(s.arn), ReplicationStatus: s.replicationStatus()}, nil
	})
}

// removeRegionsFromReplication deletes a secret's replicas in the regions the request names.
func (b *Backend) removeRegionsFromReplication(call *core.Call, in *secretsmanager.RemoveRegionsFromReplicationInput) (*secretsmanager.RemoveRegionsFromReplicationOutput, error) {
	if len(in.RemoveReplicaRegions) == 0 {
		return nil, validation("Value null at 'removeReplicaRegions' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
	return withSecret(b, call, b.primary, in.SecretId, func(s *secret) (*secretsmanager.RemoveRegionsFromReplicationOutput, error) {
		for _, region := range in.RemoveReplicaRegions {
			if !slices.Contains(s.replicaRegions(), region) {
				return nil, invalidParameter("The secret %s isn't replicated to region %s.", s.name, region)
			}
		}
		for _, region := range in.RemoveReplicaRegions {
			s.replicas = slices.DeleteFunc(s.replicas, func(r *replica) bool { return r.region == region })
			target := b.secrets.For(core.Scope{Account: call.Account, Region: region})
			if rep, ok := target[s.name]; ok && rep.state == s.state {
				delete(target, s.name)
			}
		}
		s.changed = call.Now
		return &secretsmanager.RemoveRegionsFromReplicationOutput{ARN: aws.String(s.arn), ReplicationStatus: s.replicationStatus()}, nil
	})
}
