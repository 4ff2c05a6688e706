package managed

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/smithy-go"

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

// TestPredecessor checks that only an earlier object of the same kind, namespace, name and
// install counts as a predecessor.
func TestPredecessor(t *testing.T) {
	desired := map[string]string{v1alpha1.TagOwnerUID: "uid-2", v1alpha1.TagOwnerKind: "Widget", v1alpha1.TagOwnerNamespace: "ns",
		v1alpha1.TagOwnerName: "w", v1alpha1.TagInstallID: "install-1", "team": "a"}
	with := func(k, v string) map[string]string {
		tags := map[string]string{}
		for key, val := range desired {
			tags[key] = val
		}
		tags[k] = v
		return tags
	}
	for name, tc := range map[string]struct {
		tags map[string]string
		want bool
	}{
		"Recreated":      {with(v1alpha1.TagOwnerUID, "uid-1"), true},
		"Itself":         {desired, false},
		"Untagged":       {map[string]string{}, false},
		"OtherName":      {with(v1alpha1.TagOwnerName, "x"), false},
		"OtherNamespace": {with(v1alpha1.TagOwnerNamespace, "x"), false},
		"OtherKind":      {with(v1alpha1.TagOwnerKind, "Gadget"), false},
		"OtherInstall":   {with(v1alpha1.TagInstallID, "install-2"), false},
	} {
		tags := tc.tags
		if name == "OtherName" || name == "OtherNamespace" || name == "OtherKind" || name == "OtherInstall" {
			tags[v1alpha1.TagOwnerUID] = "uid-1"
		}
		if got := Predecessor(desired, tags); got != tc.want {
			t.Errorf("%s: Predecessor = %v, want %v", name, got, tc.want)
		}
	}
}

// TestReadClaimed checks the start of a named kind's Observe: a resource AWS does not find is
// not found, with no error; another error is wrapped; a found resource is claimed only when
// its tags name the object.
func TestReadClaimed(t *testing.T) {
	get := func(err error) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return "res", err }
	}
	tags := func(owner string) func(context.Context) (map[string]string, error) {
		return func(context.Context) (map[string]string, error) {
			return map[string]string{v1alpha1.TagOwnerUID: owner}, nil
		}
	}
	w := func() *testkind.Widget {
		return &testkind.Widget{ObjectMeta: metav1.ObjectMeta{UID: "uid-1", Namespace: "ns", Name: "w"}}
	}
	if _, _, found, err := ReadClaimed(context.Background(), w(), "widget", "id-1", get(&smithy.GenericAPIError{Code: "NoSuchEntity"}), tags("uid-1")); found || err != nil {
		t.Errorf("a resource AWS does not find: found %v, err %v; want neither", found, err)
	}
	if _, _, _, err := ReadClaimed(context.Background(), w(), "widget", "id-1", get(errors.New("boom")), tags("uid-1")); err == nil || !strings.Contains(err.Error(), "get widget id-1") {
		t.Errorf("a failed read: %v, want it wrapped with what was read", err)
	}
	if _, _, _, err := ReadClaimed(context.Background(), w(), "widget", "id-1", get(nil), tags("uid-2")); err == nil {
		t.Error("a resource another object owns was claimed")
	}
	o := w()
	if res, _, found, err := ReadClaimed(context.Background(), o, "widget", "id-1", get(nil), tags("uid-1")); !found || err != nil || res != "res" || ExternalName(o) != "id-1" {
		t.Errorf("the object's own resource: %q found %v err %v, recorded %q", res, found, err, ExternalName(o))
	}
}
