package kmskey

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the aliases that point at the key (freeing their names at once), marks the
// key as scheduled for deletion by the operator (deletionTag: an object of the same namespace
// and name created during the waiting period takes it back), and schedules its deletion after
// the spec's waiting period. KMS deletes the key when the period ends; until then it is
// PendingDeletion, which Observe reports as gone.
func (d *driver) Delete(ctx context.Context, k *v1alpha1.KMSKey, obs managed.Observation[State]) error {
	id := aws.ToString(obs.State.Key.KeyId)
	aliases, err := d.aliases(ctx, id)
	if err != nil {
		return err
	}
	if err := d.deleteAliases(ctx, aliases); err != nil {
		return err
	}
	mark := []types.Tag{{TagKey: aws.String(deletionTag), TagValue: aws.String("true")}}
	if _, err := d.api.TagResource(ctx, &kms.TagResourceInput{KeyId: aws.String(id), Tags: mark}); err != nil {
		return managed.Wrap(err, "mark key %s as scheduled for deletion", id)
	}
	_, err = d.api.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: aws.String(id), PendingWindowInDays: aws.Int32(window(k))})
	return managed.Wrap(err, "schedule the deletion of key %s", id)
}

// ReleaseOwnership removes the ownership tags from the key, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.KMSKey, obs managed.Observation[State]) error {
	id := aws.ToString(obs.State.Key.KeyId)
	_, err := d.api.UntagResource(ctx, &kms.UntagResourceInput{KeyId: aws.String(id), TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove the ownership tags of key %s", id)
}
