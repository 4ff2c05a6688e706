package operator

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestSlimForCacheDropsWhatIsNeverRead checks that the cache keeps neither managed fields nor
// kubectl's last-applied copy, and keeps every other annotation.
func TestSlimForCacheDropsWhatIsNeverRead(t *testing.T) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name:          "x",
		Annotations:   map[string]string{lastApplied: `{"big":"copy"}`, "keep": "me"},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}},
	}}
	out, err := slimForCache(cm)
	if err != nil {
		t.Fatal(err)
	}
	got := out.(*corev1.ConfigMap)
	if got.ManagedFields != nil {
		t.Errorf("managed fields kept: %v", got.ManagedFields)
	}
	if _, ok := got.Annotations[lastApplied]; ok || got.Annotations["keep"] != "me" {
		t.Errorf("annotations = %v, want only keep=me", got.Annotations)
	}
	if _, err := slimForCache("not an object"); err != nil {
		t.Errorf("a value that is not an object fails: %v", err)
	}
}
