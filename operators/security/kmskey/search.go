package kmskey

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// scanLimit bounds a search: it reads the tags of the first scanLimit keys of the account and
// Region that ListKeys returns (one page), one ListResourceTags each. KMS can find keys by
// neither tag nor name, so a search costs one call per key; it is made only when a key is
// about to be created, or when a create call was started and its answer lost. A key beyond the
// limit is not found: a lost create then leaves a second key, and a key pending deletion for
// an earlier object is not reused (KMS deletes it when its waiting period ends, as was asked).
const scanLimit = 1000

// deletionTag marks a key the operator scheduled for deletion, so that an object of the same
// namespace, name and kind created before KMS deletes it finds it and takes it back. Its
// prefix is the operator's, which spec tags cannot use, and the tag plan removes it once the
// key is reused.
const deletionTag = shared.Group + "/deletion-scheduled"

// found is what a search found among the keys it read.
type found struct {
	// own are the ids of the keys that carry k's ownership tag (the key of a create call whose
	// answer was lost), sorted.
	own []string
	// earlier are the ids of the keys the operator scheduled for deletion for an earlier object
	// of k's namespace, name and kind, sorted.
	earlier []string
}

// search reads the tags of up to scanLimit keys and returns those that belong to k and, when
// desired (the ownership tags k's resources carry) is given, those that the operator
// scheduled for deletion for an earlier object of k's namespace, name and kind in this
// install. A key whose tags it may not read, or that went meanwhile, is skipped.
func (d *driver) search(ctx context.Context, k *v1alpha1.KMSKey, desired map[string]string) (found, error) {
	page, err := d.api.ListKeys(ctx, &kms.ListKeysInput{Limit: aws.Int32(scanLimit)})
	if err != nil {
		return found{}, fmt.Errorf("list keys: %w", err)
	}
	var f found
	for _, e := range page.Keys {
		id := aws.ToString(e.KeyId)
		tags, err := d.tags(ctx, id)
		switch c := awserr.Classify(err); {
		case c == awserr.ClassNotFound || c == awserr.ClassAccessDenied:
			continue
		case err != nil:
			return found{}, err
		case managed.OwnedBy(k, tags):
			f.own = append(f.own, id)
		case desired != nil && tags[deletionTag] != "" && managed.Predecessor(desired, tags):
			f.earlier = append(f.earlier, id)
		}
	}
	slices.Sort(f.own)
	slices.Sort(f.earlier)
	return f, nil
}

// recover returns the id of k's key when a create call was started for k and its answer lost
// (the create-pending marker is set and no id recorded), found by its ownership tag, and
// records it; "" when no create call is pending or the key is not found. Several keys that
// carry k's ownership tag are named in a DuplicateResources event: k keeps the first.
func (d *driver) recover(ctx context.Context, k *v1alpha1.KMSKey) (string, error) {
	if k.GetAnnotations()[shared.AnnotationCreatePending] == "" {
		return "", nil
	}
	f, err := d.search(ctx, k, nil)
	if err != nil || len(f.own) == 0 {
		return "", err
	}
	d.adopt(ctx, k, f.own)
	return f.own[0], nil
}

// adopt records the first of own, the keys that carry k's ownership tag, as k's key, and names
// the others in a DuplicateResources event.
func (d *driver) adopt(ctx context.Context, k *v1alpha1.KMSKey, own []string) {
	managed.SetExternalName(k, own[0])
	if len(own) > 1 {
		managed.Warn(ctx, condition.ReasonDuplicateResources, "keys %s also carry this object's ownership tag %s (left by a create call whose answer was lost); "+
			"this object manages key %s only: schedule the others' deletion in KMS, or remove their tag to keep them",
			strings.Join(own[1:], ", "), shared.TagOwnerUID, own[0])
	}
}
