package secretsmanagersecret

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// defaultRecoveryWindow is how many days a deleted secret can be restored when the spec says
// nothing, Secrets Manager's default.
const defaultRecoveryWindow = 30

// Delete removes the secret's replicas (Secrets Manager refuses to delete a replicated secret),
// then schedules its deletion after the spec's recovery window, or deletes it at once when the
// window is 0.
func (d *driver) Delete(ctx context.Context, s *v1alpha1.SecretsManagerSecret, obs managed.Observation[State]) error {
	out := obs.State.Secret
	name := aws.ToString(out.Name)
	var regions []string
	for _, r := range out.ReplicationStatus {
		regions = append(regions, aws.ToString(r.Region))
	}
	if len(regions) > 0 {
		_, err := d.api.RemoveRegionsFromReplication(ctx, &secretsmanager.RemoveRegionsFromReplicationInput{SecretId: out.ARN, RemoveReplicaRegions: regions})
		if err != nil {
			return managed.Wrap(err, "remove the replicas of secret %s", name)
		}
	}
	in := &secretsmanager.DeleteSecretInput{SecretId: out.ARN}
	switch w := s.Spec.RecoveryWindowInDays; {
	case w == nil:
		in.RecoveryWindowInDays = aws.Int64(defaultRecoveryWindow)
	case *w == 0:
		in.ForceDeleteWithoutRecovery = aws.Bool(true)
	default:
		in.RecoveryWindowInDays = aws.Int64(int64(*w))
	}
	_, err := d.api.DeleteSecret(ctx, in)
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete secret %s", name)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags from the secret, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.SecretsManagerSecret, obs managed.Observation[State]) error {
	out := obs.State.Secret
	_, err := d.api.UntagResource(ctx, &secretsmanager.UntagResourceInput{SecretId: out.ARN, TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove the ownership tags of secret %s", aws.ToString(out.Name))
}
