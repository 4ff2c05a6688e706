package engine

import (
	"maps"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// desiredTags returns the tags the AWS resource of o should carry: the provider's default
// tags, then o's spec.tags (which win), then the ownership tags (which nothing overrides).
// Empty ownership values (a kind not yet known) are left out. The engine hands them to
// drivers in managed.Request.
func desiredTags(o v1alpha1.Managed, defaults map[string]string) map[string]string {
	tags := make(map[string]string, len(defaults)+len(o.GetManagedSpec().Tags)+4)
	maps.Copy(tags, defaults)
	maps.Copy(tags, o.GetManagedSpec().Tags)
	for k, v := range managed.OwnerTags(o) {
		if v != "" {
			tags[k] = v
		}
	}
	return tags
}

// removeAnnotation removes one annotation of o, if it is there.
func removeAnnotation(o v1alpha1.Managed, key string) {
	a := o.GetAnnotations()
	if _, ok := a[key]; !ok {
		return
	}
	delete(a, key)
	o.SetAnnotations(a)
}
