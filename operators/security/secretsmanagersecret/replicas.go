package secretsmanagersecret

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planReplicas plans the replicas as a set by region: a replica the spec no longer names, or
// whose KMS key differs, is removed (and replicated again with its key).
func (d *driver) planReplicas(plan *managed.Plan, s *v1alpha1.SecretsManagerSecret, out *secretsmanager.DescribeSecretOutput) {
	arn, name := out.ARN, s.Spec.SecretName
	have := map[string]string{}
	for _, r := range out.ReplicationStatus {
		have[aws.ToString(r.Region)] = aws.ToString(r.KmsKeyId)
	}
	var remove []string
	var add []types.ReplicaRegionType
	kept := map[string]bool{}
	for _, r := range s.Spec.ReplicaRegions {
		key, ok := have[r.Region]
		if ok && sameKey(r.KMSKeyID, key) {
			kept[r.Region] = true
			continue
		}
		if ok {
			remove = append(remove, r.Region)
		}
		add = append(add, replica(r))
	}
	for region := range have {
		if !kept[region] && !slices.Contains(remove, region) {
			remove = append(remove, region)
		}
	}
	if len(remove) > 0 {
		plan.Add("replicaRegions", func(ctx context.Context) error {
			_, err := d.api.RemoveRegionsFromReplication(ctx, &secretsmanager.RemoveRegionsFromReplicationInput{SecretId: arn, RemoveReplicaRegions: remove})
			return managed.Wrap(err, "remove replicas %v of secret %s", remove, name)
		})
	}
	if len(add) > 0 {
		plan.Add("replicaRegions", func(ctx context.Context) error {
			_, err := d.api.ReplicateSecretToRegions(ctx, &secretsmanager.ReplicateSecretToRegionsInput{SecretId: arn, AddReplicaRegions: add})
			return managed.Wrap(err, "replicate secret %s", name)
		})
	}
}

// replicas returns the spec's replicas as Secrets Manager takes them.
func replicas(s *v1alpha1.SecretsManagerSecret) []types.ReplicaRegionType {
	var out []types.ReplicaRegionType
	for _, r := range s.Spec.ReplicaRegions {
		out = append(out, replica(r))
	}
	return out
}

// replica returns one replica of the spec as Secrets Manager takes it.
func replica(r v1alpha1.ReplicaRegion) types.ReplicaRegionType {
	out := types.ReplicaRegionType{Region: aws.String(r.Region)}
	if r.KMSKeyID != "" {
		out.KmsKeyId = aws.String(r.KMSKeyID)
	}
	return out
}
