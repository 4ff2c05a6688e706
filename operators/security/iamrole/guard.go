package iamrole

import (
	"context"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/guardrails"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// guard checks the role against the administrator's IAM guardrails before any AWS call, on
// every pass, so that a change of the spec is checked before Observe plans it: its name and
// path, its permissions boundary, its trust principals, its managed and inline policies. A
// spec that names no boundary gets, in memory, the one the namespace's roles carry: the role
// is created with it, and a boundary removed outside the operator is put back.
func guard(_ context.Context, r *v1alpha1.IAMRole, g managed.Guardrails) error {
	if r.Spec.PermissionsBoundary == "" {
		r.Spec.PermissionsBoundary = g.IAM.Boundary(g.Tenant)
	}
	inline := make(map[string]string, len(r.Spec.InlinePolicies))
	for _, p := range r.Spec.InlinePolicies {
		inline[p.PolicyName] = p.PolicyDocument
	}
	return g.IAM.CheckRole(g.Tenant, guardrails.Role{Name: r.Spec.RoleName, Path: r.Spec.Path, TrustPolicy: r.Spec.AssumeRolePolicyDocument,
		PermissionsBoundary: r.Spec.PermissionsBoundary, ManagedPolicies: r.Spec.ManagedPolicyARNs, InlinePolicies: inline})
}
