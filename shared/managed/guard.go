package managed

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/targets"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/guardrails"
)

// Guardrails is what a Kind's Guard checks an object with: the administrator's IAM rules, who
// the object acts for, and a reader of the objects of its namespace (normally the manager's
// cache).
type Guardrails struct {
	// IAM are the administrator's IAM rules; never nil.
	IAM *guardrails.IAM
	// Tenant is the object's namespace and its provider's account and partition.
	Tenant guardrails.Tenant
	// Kube reads the IAMRole objects of the namespace.
	Kube client.Reader
}

// OwnRoles returns the ARNs of the roles and instance profiles that the IAMRole objects of the
// tenant's namespace made and, with profiles, of the instance profiles its IAMInstanceProfile
// objects made (each checked, when it was made, against the rule for the role it passes): an
// object that only observes its resource (managementPolicy ObserveOnly) makes nothing and
// gives none. A cluster without the security family's kinds has none.
func (g Guardrails) OwnRoles(ctx context.Context, profiles bool) ([]string, error) {
	type source struct {
		kind   targets.Target
		fields []string
	}
	sources := []source{{targets.IAMRole, []string{"arn", "instanceProfileARN"}}}
	if profiles {
		sources = append(sources, source{targets.IAMInstanceProfile, []string{"arn"}})
	}
	var own []string
	for _, src := range sources {
		made, err := g.made(ctx, src.kind, src.fields)
		if err != nil {
			return nil, err
		}
		own = append(own, made...)
	}
	return own, nil
}

// made returns the ARNs, in the status fields named, of the objects of kind t in the tenant's
// namespace that do not only observe.
func (g Guardrails) made(ctx context.Context, t targets.Target, fields []string) ([]string, error) {
	list := &unstructured.UnstructuredList{}
	gvk := t.GroupVersionKind()
	gvk.Kind += "List"
	list.SetGroupVersionKind(gvk)
	if err := g.Kube.List(ctx, list, client.InNamespace(g.Tenant.Namespace)); err != nil {
		if meta.IsNoMatchError(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("list the %ss of namespace %s: %w", t.Kind, g.Tenant.Namespace, err)
	}
	var own []string
	for _, r := range list.Items {
		if policy, _, _ := unstructured.NestedString(r.Object, "spec", "managementPolicy"); policy == string(v1alpha1.ManagementPolicyObserveOnly) {
			continue
		}
		for _, field := range fields {
			if arn, _, _ := unstructured.NestedString(r.Object, "status", field); arn != "" {
				own = append(own, arn)
			}
		}
	}
	return own, nil
}

// PassedRole is one field of a spec that passes a role, or an instance profile, to a service.
type PassedRole struct {
	// Field is the field's path, for example spec.roleARN.
	Field string
	// ARN is the role's ARN; for an instance profile, the profile's name or ARN; with
	// RoleName, the role's name or ARN.
	ARN string
	// InstanceProfile says that ARN names an instance profile.
	InstanceProfile bool
	// RoleName says that ARN may be a role's name (an IAMInstanceProfile's role), which the
	// check takes as the namespace's own role of that name, else the account's at path /.
	RoleName bool
}

// CheckPassedRoles refuses, with a *guardrails.Refusal, the first role the namespace may not
// pass: only roles its own IAMRole objects made and roles the administrator's rules allow are
// passable. Empty fields pass nothing. The namespace's IAMRoles (and, for an instance profile,
// its IAMInstanceProfiles) are listed only for a role the rules alone do not allow, so that the open default and the administrator's patterns cost no
// read of the API server.
func (g Guardrails) CheckPassedRoles(ctx context.Context, roles ...PassedRole) error {
	var own []string
	listed := false
	profiles := slices.ContainsFunc(roles, func(r PassedRole) bool { return r.InstanceProfile })
	for _, r := range roles {
		if r.ARN == "" {
			continue
		}
		err := g.checkPassedRole(r, own)
		if err != nil && !listed {
			if own, err = g.OwnRoles(ctx, profiles); err != nil {
				return err
			}
			listed = true
			err = g.checkPassedRole(r, own)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkPassedRole checks one passed role, own being the roles the namespace's IAMRoles made
// (as far as they were listed).
func (g Guardrails) checkPassedRole(r PassedRole, own []string) error {
	arn := r.ARN
	switch {
	case r.InstanceProfile:
		arn = guardrails.InstanceProfileARN(g.Tenant, arn, own)
	case r.RoleName:
		arn = guardrails.RoleARN(g.Tenant, arn, own)
	}
	return g.IAM.CheckPassedRole(g.Tenant, r.Field, arn, own)
}
