package lambdafunction

import (
	"context"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// guard refuses, before any AWS call, an execution role the namespace may not pass to Lambda:
// only roles its own IAMRole objects made (spec.roleRef resolves to one) and those the
// administrator allows.
func guard(ctx context.Context, f *v1alpha1.LambdaFunction, g managed.Guardrails) error {
	field := "spec.roleARN"
	if f.Spec.RoleRef != nil {
		field = "spec.roleRef"
	}
	return g.CheckPassedRoles(ctx, managed.PassedRole{Field: field, ARN: f.Spec.RoleARN})
}
