package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// familyRole returns the ClusterRole of the family name in the repository at root, generated
// from its RBAC markers (the charts carry it).
func familyRole(root, name string) (rbacv1.ClusterRole, error) {
	var role rbacv1.ClusterRole
	b, err := os.ReadFile(filepath.Join(root, "operators", name, "config", "rbac", "role.yaml"))
	if err != nil {
		return role, fmt.Errorf("read the %s family's role: %w", name, err)
	}
	if err := yaml.Unmarshal(b, &role); err != nil {
		return role, fmt.Errorf("parse the %s family's role: %w", name, err)
	}
	return role, nil
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
