package e2e

import (
	"slices"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/cli/plan"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestPlanRBACListsEveryKind checks that the Role of the CI example of infractl plan
// (examples/gitops/ci/rbac.yaml) lets it dry-run every managed kind the operators serve, so
// that a new kind is not refused to the plan job.
func TestPlanRBACListsEveryKind(t *testing.T) {
	defs, err := CRDs()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, d := range defs {
		if plan.Managed(d.Spec.Names.Kind) {
			want = append(want, d.Spec.Names.Plural)
		}
	}
	var got []string
	for _, o := range kubetest.SeedObjects(t, "../examples/gitops/ci/rbac.yaml") {
		if o.GetKind() != "Role" {
			continue
		}
		role := &rbacv1.Role{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, role); err != nil {
			t.Fatal(err)
		}
		for _, rule := range role.Rules {
			if slices.Contains(rule.Verbs, "patch") && slices.Contains(rule.Verbs, "create") {
				got = append(got, rule.Resources...)
			}
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("the plan Role dry-runs %v; the managed kinds are %v", got, want)
	}
}
