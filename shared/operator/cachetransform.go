package operator

import (
	"k8s.io/apimachinery/pkg/api/meta"
)

// lastApplied is the annotation kubectl apply keeps: a copy of the whole object as last
// applied, which the operator never reads.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// slimForCache drops from every object the informers keep what the controllers never read:
// managed fields (often larger than the object itself) and kubectl's last-applied copy. With
// thousands of objects this is most of the cache's memory. Patches are unaffected: they are
// computed between two copies of the cached object, and the API server keeps both fields.
func slimForCache(obj any) (any, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		// Not an object (a tombstone, for example): keep it as it is.
		return obj, nil
	}
	m.SetManagedFields(nil)
	if a := m.GetAnnotations(); a[lastApplied] != "" {
		delete(a, lastApplied)
		m.SetAnnotations(a)
	}
	return obj, nil
}
