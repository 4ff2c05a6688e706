package managed

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// MaxTags is AWS's limit on tags per resource.
const MaxTags = 50

// OwnerTags returns the ownership tags that identify o as the owner of an AWS resource.
func OwnerTags(o v1alpha1.Managed) map[string]string {
	return map[string]string{
		v1alpha1.TagOwnerUID:       string(o.GetUID()),
		v1alpha1.TagOwnerNamespace: o.GetNamespace(),
		v1alpha1.TagOwnerName:      o.GetName(),
		v1alpha1.TagOwnerKind:      o.GetObjectKind().GroupVersionKind().Kind,
	}
}

// IsOwnershipTag reports whether key is one of the operator's ownership tags.
func IsOwnershipTag(key string) bool {
	return strings.HasPrefix(key, v1alpha1.Group+"/")
}

// ExternalName returns the AWS identifier recorded on o, or "".
func ExternalName(o v1alpha1.Managed) string {
	return o.GetAnnotations()[v1alpha1.AnnotationExternalName]
}

// SetExternalName records the AWS identifier on o. The engine persists it immediately.
func SetExternalName(o v1alpha1.Managed, id string) {
	SetAnnotation(o, v1alpha1.AnnotationExternalName, id)
}

// SetAnnotation sets one annotation of o.
func SetAnnotation(o v1alpha1.Managed, key, value string) {
	a := o.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[key] = value
	o.SetAnnotations(a)
}

// OwnedBy reports whether an AWS resource's tags name o as its owner.
func OwnedBy(o v1alpha1.Managed, tags map[string]string) bool {
	return tags[v1alpha1.TagOwnerUID] == string(o.GetUID())
}

// TagChanges returns the tags to add or overwrite and the keys to remove to turn observed into
// desired. Tags AWS reserves ("aws:...") are never removed.
func TagChanges(desired, observed map[string]string) (set map[string]string, remove []string) {
	set = map[string]string{}
	for k, v := range desired {
		if ov, ok := observed[k]; !ok || ov != v {
			set[k] = v
		}
	}
	for k := range observed {
		if _, ok := desired[k]; !ok && !strings.HasPrefix(k, "aws:") {
			remove = append(remove, k)
		}
	}
	sort.Strings(remove)
	return set, remove
}

// OwnershipTagKeys returns the keys of the ownership tags, which the Orphan deletion policy
// removes.
func OwnershipTagKeys() []string {
	return []string{v1alpha1.TagOwnerUID, v1alpha1.TagOwnerNamespace, v1alpha1.TagOwnerName, v1alpha1.TagOwnerKind, v1alpha1.TagInstallID}
}

// WithoutOwnershipTags returns a copy of tags without the ownership tags, for APIs that replace
// a resource's whole tag set (S3 buckets, for example).
func WithoutOwnershipTags(tags map[string]string) map[string]string {
	out := maps.Clone(tags)
	for _, k := range OwnershipTagKeys() {
		delete(out, k)
	}
	return out
}

// TagList turns tags into a service's tag list, sorted by key for stable requests; tag builds
// one element, for example func(k, v string) types.Tag { return types.Tag{Key: &k, Value: &v} }.
func TagList[T any](tags map[string]string, tag func(key, value string) T) []T {
	out := make([]T, 0, len(tags))
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		out = append(out, tag(k, tags[k]))
	}
	return out
}

// TagMap turns a service's tag list into a map; kv returns one element's key and value.
func TagMap[T any](list []T, kv func(T) (key, value string)) map[string]string {
	out := make(map[string]string, len(list))
	for _, t := range list {
		k, v := kv(t)
		out[k] = v
	}
	return out
}
