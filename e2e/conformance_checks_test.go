package e2e

import (
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// TestConformanceChecksFire checks that every check of TestConformance finds a kind or a family
// that lacks its place, so that a passing TestConformance proves something: each kind check
// runs on the NATGateway kind (which has references), and each family check on a family with a
// CRD of no declared kind, against an empty repository.
func TestConformanceChecksFire(t *testing.T) {
	var nat declaredKind
	for _, k := range loadConformance(t).kinds {
		if k.Name == "NATGateway" {
			nat = k
		}
	}
	if nat.Name == "" {
		t.Fatal("the networking family declares no NATGateway")
	}
	nat.Family = operator.Family{Name: nat.Family.Name}
	empty := &conformance{root: t.TempDir(), crdKinds: map[string]map[string]bool{}, plural: map[string]string{},
		examples: map[string]exampleIndex{}, benchmarked: map[string]map[string]bool{}, health: map[string]string{},
		roles: map[string]rbacv1.ClusterRole{}, served: map[string]emulator.ServedService{}, calls: newSDKCalls(repoRoot)}
	for _, check := range kindChecks {
		if findings := check.run(empty, nat); len(findings) == 0 {
			t.Errorf("the %s check finds nothing missing for a kind that has no place anywhere", check.name)
		}
	}
	empty.crdKinds["nosuch"] = map[string]bool{"Orphan": true}
	for _, check := range familyChecks {
		if findings := check.run(empty, "nosuch"); len(findings) == 0 {
			t.Errorf("the %s check finds nothing missing for a family that is wired nowhere", check.name)
		}
	}
}
