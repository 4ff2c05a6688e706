package kmskey

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what KMS said about a key.
type State struct {
	// Key is DescribeKey's answer.
	Key *types.KeyMetadata
	// Policy is the key policy, read only when the spec has one.
	Policy string
	// Rotation is GetKeyRotationStatus's answer, read for symmetric encryption keys only.
	Rotation *kms.GetKeyRotationStatusOutput
	// Aliases are the names of the aliases that point at the key, sorted.
	Aliases []string
}

// Observe reads the key (DescribeKey, ListResourceTags, ListAliases, GetKeyPolicy when the
// spec has a key policy and GetKeyRotationStatus for a symmetric encryption key), fills the
// status and plans the changes that bring it in line with the spec. Before the key id is
// recorded, a key is looked for only when a create call was started and not confirmed. A key
// scheduled for deletion is gone for an object being deleted; for any other object it was
// deleted outside the operator, and the plan cancels the deletion.
func (d *driver) Observe(ctx context.Context, k *v1alpha1.KMSKey, req managed.Request) (managed.Observation[State], error) {
	id := managed.ExternalName(k)
	if id == "" {
		var err error
		if id, err = d.recover(ctx, k); err != nil || id == "" {
			return managed.Observation[State]{}, err
		}
	}
	out, err := d.api.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String(id)})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("describe key %s: %w", id, err)
	}
	key := out.KeyMetadata
	fillKeyStatus(k, key)
	if req.Deleting && (scheduled(key.KeyState) || key.KeyManager == types.KeyManagerTypeAws) {
		// Scheduled for deletion, or an AWS managed key this object never changed: nothing
		// left to delete.
		return managed.Observation[State]{}, nil
	}
	if key.KeyManager == types.KeyManagerTypeAws {
		return managed.Observation[State]{Exists: true, State: &State{Key: key}, Conflict: managed.Terminal(condition.ReasonOwnedByAnother,
			"key %s is an AWS managed key, which only its AWS service manages; point the annotation %s at a customer managed key, or remove it",
			id, shared.AnnotationExternalName)}, nil
	}
	tags, err := d.tags(ctx, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	obs := managed.Observation[State]{Exists: true, State: &State{Key: key}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	if scheduled(key.KeyState) {
		obs.Message = fmt.Sprintf("key %s is %s: its deletion was scheduled outside the operator", id, key.KeyState)
		obs.Changes.AddValue("keyState", key.KeyState, restoredState(k), func(ctx context.Context) error { return d.restore(ctx, k, id) })
		return obs, nil
	}
	if err := d.read(ctx, k, obs.State); err != nil {
		return managed.Observation[State]{}, err
	}
	k.Status.Aliases = obs.State.Aliases
	k.Status.RotationEnabled = obs.State.Rotation != nil && obs.State.Rotation.KeyRotationEnabled
	if obs.Conflict = createdAsSpecified(k, key); obs.Conflict != nil {
		return obs, nil
	}
	if err := d.plan(ctx, &obs, k, req.Tags); err != nil {
		return managed.Observation[State]{}, err
	}
	switch key.KeyState {
	case types.KeyStateEnabled, types.KeyStateDisabled:
		obs.Ready = true
	case types.KeyStateCreating, types.KeyStateUpdating:
		// KMS is still making or changing the key: changes wait until it is done.
		obs.Busy, obs.Message = true, fmt.Sprintf("key %s is %s", id, key.KeyState)
	default:
		obs.Message = fmt.Sprintf("key %s is %s", id, key.KeyState)
	}
	return obs, nil
}

// read reads what the comparison needs besides the key's metadata and tags: its aliases, its
// key policy when the spec has one, and its rotation when it is a symmetric encryption key.
func (d *driver) read(ctx context.Context, k *v1alpha1.KMSKey, st *State) error {
	id := aws.ToString(st.Key.KeyId)
	var err error
	if st.Aliases, err = d.aliases(ctx, id); err != nil {
		return err
	}
	if k.Spec.KeyPolicy != "" {
		out, err := d.api.GetKeyPolicy(ctx, &kms.GetKeyPolicyInput{KeyId: aws.String(id), PolicyName: aws.String("default")})
		if err != nil {
			return fmt.Errorf("get the key policy of key %s: %w", id, err)
		}
		st.Policy = aws.ToString(out.Policy)
	}
	if rotatable(st.Key) {
		if st.Rotation, err = d.api.GetKeyRotationStatus(ctx, &kms.GetKeyRotationStatusInput{KeyId: aws.String(id)}); err != nil {
			return fmt.Errorf("get the rotation status of key %s: %w", id, err)
		}
	}
	return nil
}

// createdAsSpecified returns a terminal error when the key differs from the spec in what a
// key cannot change (an adopted key of another spec, usage or Region setting), else nil.
func createdAsSpecified(k *v1alpha1.KMSKey, key *types.KeyMetadata) error {
	id := aws.ToString(key.KeyId)
	switch {
	case string(key.KeySpec) != k.Spec.KeySpec:
		return managed.Terminal(condition.ReasonInvalidSpec, "key %s has the key spec %s, not the spec's %s; a key's spec cannot change", id, key.KeySpec, k.Spec.KeySpec)
	case string(key.KeyUsage) != k.Spec.KeyUsage:
		return managed.Terminal(condition.ReasonInvalidSpec, "key %s has the key usage %s, not the spec's %s; a key's usage cannot change", id, key.KeyUsage, k.Spec.KeyUsage)
	case aws.ToBool(key.MultiRegion) != k.Spec.MultiRegion:
		return managed.Terminal(condition.ReasonInvalidSpec, "key %s has multiRegion %t, not the spec's %t; it cannot change", id, aws.ToBool(key.MultiRegion), k.Spec.MultiRegion)
	}
	return nil
}

// scheduled reports whether a key in state s is scheduled for deletion (waiting for its
// replicas to go, for a multi-Region primary key).
func scheduled(s types.KeyState) bool {
	return s == types.KeyStatePendingDeletion || s == types.KeyStatePendingReplicaDeletion
}

// rotatable reports whether KMS rotates a key automatically: symmetric encryption keys only.
func rotatable(key *types.KeyMetadata) bool {
	return key.KeySpec == types.KeySpecSymmetricDefault && key.KeyUsage == types.KeyUsageTypeEncryptDecrypt
}

// fillKeyStatus copies what DescribeKey said about the key into the status.
func fillKeyStatus(k *v1alpha1.KMSKey, key *types.KeyMetadata) {
	s := &k.Status
	s.KeyID, s.ARN, s.KeyState, s.KeyManager = aws.ToString(key.KeyId), aws.ToString(key.Arn), string(key.KeyState), string(key.KeyManager)
	s.Enabled, s.MultiRegion = key.Enabled, aws.ToBool(key.MultiRegion)
	s.DeletionDate = nil
	if key.DeletionDate != nil {
		t := metav1.NewTime(*key.DeletionDate)
		s.DeletionDate = &t
	}
}

// tags returns the tags of key id.
func (d *driver) tags(ctx context.Context, id string) (map[string]string, error) {
	tags := map[string]string{}
	pages := kms.NewListResourceTagsPaginator(d.api, &kms.ListResourceTagsInput{KeyId: aws.String(id)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list the tags of key %s: %w", id, err)
		}
		for _, t := range page.Tags {
			tags[aws.ToString(t.TagKey)] = aws.ToString(t.TagValue)
		}
	}
	return tags, nil
}

// aliases returns the names of the aliases that point at key id, sorted.
func (d *driver) aliases(ctx context.Context, id string) ([]string, error) {
	var names []string
	pages := kms.NewListAliasesPaginator(d.api, &kms.ListAliasesInput{KeyId: aws.String(id)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list the aliases of key %s: %w", id, err)
		}
		for _, a := range page.Aliases {
			names = append(names, aws.ToString(a.AliasName))
		}
	}
	slices.Sort(names)
	return names, nil
}

// tagList returns tags as KMS takes them.
func tagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{TagKey: aws.String(k), TagValue: aws.String(v)} })
}
