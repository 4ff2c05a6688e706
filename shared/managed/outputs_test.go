package managed

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
)

// TestCollectOutputs checks what the output tags of a kind make of its fields: values under
// their key, a Secret reference as its name and key with the reference kept for Secrets only,
// and nothing for empty values; OutputKeys lists every declared key whatever the values.
func TestCollectOutputs(t *testing.T) {
	w := &testkind.Widget{}
	if got := CollectOutputs(w); len(got.Values)+len(got.Secrets) != 0 {
		t.Errorf("an empty widget has outputs %+v", got)
	}
	w.Status.WidgetID = "w-1"
	w.Status.ParentID = "w-0"
	w.Spec.TokenSecretRef = &v1alpha1.SecretKeySelector{Name: "tok", Key: "value"}
	got := CollectOutputs(w)
	want := Outputs{
		Values:  map[string]string{"widgetID": "w-1", "parent": "w-0", "tokenSecretName": "tok", "tokenSecretKey": "value"},
		Secrets: map[string]v1alpha1.SecretKeySelector{"token": {Name: "tok", Key: "value"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"parent", "token", "tokenSecretKey", "tokenSecretName", "widgetID"}, OutputKeys(w)); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
}
