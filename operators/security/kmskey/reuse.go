package kmskey

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// reusable returns, among the keys ids that the operator scheduled for deletion for an earlier
// object of k's namespace and name, the newest customer managed key of the spec's key spec,
// usage and Region setting, or nil when there is none.
func (d *driver) reusable(ctx context.Context, k *v1alpha1.KMSKey, ids []string) (*types.KeyMetadata, error) {
	var newest *types.KeyMetadata
	for _, id := range ids {
		out, err := d.api.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String(id)})
		if awserr.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("describe key %s: %w", id, err)
		}
		key := out.KeyMetadata
		if key.KeyManager != types.KeyManagerTypeCustomer || createdAsSpecified(k, key) != nil {
			continue
		}
		if newest == nil || aws.ToTime(key.CreationDate).After(aws.ToTime(newest.CreationDate)) {
			newest = key
		}
	}
	return newest, nil
}

// reuse takes key back for k: it cancels the key's deletion (enabling it again when the spec
// wants it enabled), gives it k's ownership tags, records its id, and removes the deletion
// marker. Each step leaves the key findable by the next search until its id is recorded: the
// marker goes last.
func (d *driver) reuse(ctx context.Context, k *v1alpha1.KMSKey, req managed.Request, key *types.KeyMetadata) error {
	id := aws.ToString(key.KeyId)
	if scheduled(key.KeyState) {
		if err := d.restore(ctx, k, id); err != nil {
			return err
		}
	}
	if _, err := d.api.TagResource(ctx, &kms.TagResourceInput{KeyId: aws.String(id), Tags: tagList(req.Tags)}); err != nil {
		return managed.Wrap(err, "tag key %s", id)
	}
	managed.SetExternalName(k, id)
	managed.Warn(ctx, condition.ReasonKeyReused, "key %s was scheduled for deletion when an earlier KMSKey %s/%s was deleted; its deletion is canceled "+
		"and this object manages it, instead of a new key", id, k.Namespace, k.Name)
	_, err := d.api.UntagResource(ctx, &kms.UntagResourceInput{KeyId: aws.String(id), TagKeys: []string{deletionTag}})
	return managed.Wrap(err, "untag key %s", id)
}

// restore cancels the scheduled deletion of key id and, as KMS leaves such a key disabled,
// enables it again when the spec wants it enabled.
func (d *driver) restore(ctx context.Context, k *v1alpha1.KMSKey, id string) error {
	if _, err := d.api.CancelKeyDeletion(ctx, &kms.CancelKeyDeletionInput{KeyId: aws.String(id)}); err != nil {
		return managed.Wrap(err, "cancel the deletion of key %s", id)
	}
	if !enabled(k) {
		return nil
	}
	_, err := d.api.EnableKey(ctx, &kms.EnableKeyInput{KeyId: aws.String(id)})
	return managed.Wrap(err, "enable key %s", id)
}

// restoredState is the state restore leaves the key in, as a plan shows it: enabled when the
// spec wants it enabled, else disabled.
func restoredState(k *v1alpha1.KMSKey) types.KeyState {
	if enabled(k) {
		return types.KeyStateEnabled
	}
	return types.KeyStateDisabled
}
