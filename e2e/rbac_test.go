package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// TestFamiliesMayReadWhatTheyReference checks that the ClusterRole of every family (generated
// from its RBAC markers, which the charts carry) lets it get, list and watch every kind its
// kinds' references name, including the kinds of other families: the engine watches the
// targets of references, and without the permission a family installed on its own could not
// resolve a reference across families.
func TestFamiliesMayReadWhatTheyReference(t *testing.T) {
	fams := Families()
	defs, err := CRDs()
	if err != nil {
		t.Fatal(err)
	}
	plural := map[string]string{}
	for _, d := range defs {
		plural[d.Spec.Names.Kind] = d.Spec.Names.Plural
	}
	checked := 0
	for _, f := range fams {
		b, err := os.ReadFile(filepath.Join("..", "operators", f.Name, "config", "rbac", "role.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var role rbacv1.ClusterRole
		if err := yaml.Unmarshal(b, &role); err != nil {
			t.Fatalf("%s's role: %v", f.Name, err)
		}
		for _, k := range f.Kinds {
			for _, target := range k.Targets() {
				checked++
				if !mayRead(role, plural[target.Kind]) {
					t.Errorf("the %s family's role may not get, list and watch %s (%s), which its references name: add an RBAC marker to operators/%s/rbac.go",
						f.Name, plural[target.Kind], target.Kind, f.Name)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no family declares a reference: the check proves nothing")
	}
}

// mayRead reports whether role grants get, list and watch on resource of the API group.
func mayRead(role rbacv1.ClusterRole, resource string) bool {
	verbs := map[string]bool{}
	for _, r := range role.Rules {
		if slices.Contains(r.APIGroups, shared.Group) && slices.Contains(r.Resources, resource) {
			for _, v := range r.Verbs {
				verbs[v] = true
			}
		}
	}
	return verbs["get"] && verbs["list"] && verbs["watch"]
}
