package ec2instance

import (
	"context"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// guard refuses, before any AWS call, an instance profile the namespace may not give an
// instance: only the profiles its own IAMRole objects made (spec.instanceProfile) and those the
// administrator allows. A profile given by name is the provider's account's.
func guard(ctx context.Context, i *v1alpha1.EC2Instance, g managed.Guardrails) error {
	return g.CheckPassedRoles(ctx, managed.PassedRole{Field: "spec.iamInstanceProfile", ARN: i.Spec.IAMInstanceProfile, InstanceProfile: true})
}
