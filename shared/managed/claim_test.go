package managed

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
)

// TestClaim checks that a resource is claimed only while no external name is
// recorded, and that a recorded one is left to the engine's ownership check.
func TestClaimOnlyWhileUnrecorded(t *testing.T) {
	other := map[string]string{v1alpha1.TagOwnerUID: "uid-2"}
	w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{UID: "uid-1", Namespace: "ns", Name: "w"}}
	if _, ok := AsTerminal(Claim(w, "widget", "id-1", other)); !ok {
		t.Errorf("Claim of a resource another object owns, nothing recorded: want a terminal error")
	}
	if err := Claim(w, "widget", "id-1", map[string]string{v1alpha1.TagOwnerUID: "uid-1"}); err != nil || ExternalName(w) != "id-1" {
		t.Errorf("Claim of an owned resource: recorded %q (err %v), want id-1", ExternalName(w), err)
	}
	if err := Claim(w, "widget", "id-1", other); err != nil {
		t.Errorf("Claim with an external name recorded: %v, want nil", err)
	}
}
