package ekscluster

import (
	"context"
	"fmt"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// guard refuses, before any AWS call, a role the namespace may not pass to EKS: the cluster's
// role, the node groups' node roles and the add-ons' service account roles are passable only
// when the namespace's own IAMRole objects made them or the administrator allows them.
func guard(ctx context.Context, c *v1alpha1.EKSCluster, g managed.Guardrails) error {
	roles := []managed.PassedRole{{Field: "spec.roleARN", ARN: c.Spec.RoleARN}}
	for i, ng := range c.Spec.NodeGroups {
		roles = append(roles, managed.PassedRole{Field: fmt.Sprintf("spec.nodeGroups[%d].nodeRoleARN", i), ARN: ng.NodeRoleARN})
	}
	for i, a := range c.Spec.Addons {
		roles = append(roles, managed.PassedRole{Field: fmt.Sprintf("spec.addons[%d].serviceAccountRoleARN", i), ARN: a.ServiceAccountRoleARN})
	}
	return g.CheckPassedRoles(ctx, roles...)
}
