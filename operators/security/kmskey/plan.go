package kmskey

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// defaultRotationDays is the rotation period KMS gives when EnableKeyRotation names none.
const defaultRotationDays = 365

// plan plans the changes of the key, in the order KMS accepts them: enabling it first (KMS
// changes rotation only on an enabled key), then its description, key policy, rotation, tags
// and aliases, and disabling it last. A rotation change on a key that is and stays disabled
// cannot be made, and is reported as a conflict.
func (d *driver) plan(ctx context.Context, obs *managed.Observation[State], k *v1alpha1.KMSKey, tags map[string]string) error {
	st, plan := obs.State, &obs.Changes
	id, key := aws.ToString(st.Key.KeyId), st.Key
	if enabled(k) && key.KeyState == types.KeyStateDisabled {
		plan.AddValue("enabled", false, true, func(ctx context.Context) error {
			_, err := d.api.EnableKey(ctx, &kms.EnableKeyInput{KeyId: aws.String(id)})
			return managed.Wrap(err, "enable key %s", id)
		})
	}
	if aws.ToString(key.Description) != k.Spec.Description {
		plan.AddValue("description", aws.ToString(key.Description), k.Spec.Description, func(ctx context.Context) error {
			_, err := d.api.UpdateKeyDescription(ctx, &kms.UpdateKeyDescriptionInput{KeyId: aws.String(id), Description: aws.String(k.Spec.Description)})
			return managed.Wrap(err, "update the description of key %s", id)
		})
	}
	if k.Spec.KeyPolicy != "" && !policy.Equivalent(st.Policy, k.Spec.KeyPolicy) {
		plan.Add("keyPolicy", func(ctx context.Context) error {
			_, err := d.api.PutKeyPolicy(ctx, &kms.PutKeyPolicyInput{KeyId: aws.String(id), PolicyName: aws.String("default"), Policy: aws.String(k.Spec.KeyPolicy)})
			return managed.Wrap(err, "put the key policy of key %s", id)
		})
	}
	obs.Conflict = d.planRotation(plan, k, st)
	plan.AddTags(tags, obs.Tags, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagResource(ctx, &kms.TagResourceInput{KeyId: aws.String(id), Tags: tagList(set)})
		return managed.Wrap(err, "tag key %s", id)
	}, func(ctx context.Context, keys []string) error {
		_, err := d.api.UntagResource(ctx, &kms.UntagResourceInput{KeyId: aws.String(id), TagKeys: keys})
		return managed.Wrap(err, "untag key %s", id)
	}))
	if err := d.planAliases(ctx, obs, k); err != nil {
		return err
	}
	if !enabled(k) && key.KeyState == types.KeyStateEnabled {
		plan.AddValue("enabled", true, false, func(ctx context.Context) error {
			_, err := d.api.DisableKey(ctx, &kms.DisableKeyInput{KeyId: aws.String(id)})
			return managed.Wrap(err, "disable key %s", id)
		})
	}
	return nil
}

// planRotation plans turning automatic rotation on (with the spec's period) or off, for a
// symmetric encryption key whose rotation differs from the spec. It returns a terminal error,
// and plans nothing, when the key is disabled and the spec keeps it so: KMS refuses to change
// the rotation of a disabled key.
func (d *driver) planRotation(plan *managed.Plan, k *v1alpha1.KMSKey, st *State) error {
	got := st.Rotation
	if got == nil {
		return nil
	}
	id, want, period := aws.ToString(st.Key.KeyId), k.Spec.EnableKeyRotation, k.Spec.RotationPeriodInDays
	if period == 0 {
		period = defaultRotationDays
	}
	if want == got.KeyRotationEnabled && (!want || aws.ToInt32(got.RotationPeriodInDays) == period) {
		return nil
	}
	if !enabled(k) && st.Key.KeyState == types.KeyStateDisabled {
		return managed.Terminal(condition.ReasonInvalidSpec, "the automatic rotation of key %s differs from the spec, and KMS changes the rotation of "+
			"an enabled key only; set spec.enabled to true to change it (or give enableKeyRotation and rotationPeriodInDays the key's settings)", id)
	}
	field, current, desired := "rotationPeriodInDays", any(aws.ToInt32(got.RotationPeriodInDays)), any(period)
	if want != got.KeyRotationEnabled {
		field, current, desired = "enableKeyRotation", got.KeyRotationEnabled, want
	}
	plan.AddValue(field, current, desired, func(ctx context.Context) error {
		if !want {
			_, err := d.api.DisableKeyRotation(ctx, &kms.DisableKeyRotationInput{KeyId: aws.String(id)})
			return managed.Wrap(err, "turn off the rotation of key %s", id)
		}
		_, err := d.api.EnableKeyRotation(ctx, &kms.EnableKeyRotationInput{KeyId: aws.String(id), RotationPeriodInDays: aws.Int32(period)})
		return managed.Wrap(err, "turn on the rotation of key %s", id)
	})
	return nil
}
