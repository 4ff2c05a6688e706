// Package iaminstanceprofile manages IAM instance profiles for the IAMInstanceProfile kind: the
// instance profile with its path and tags, and the role it holds (roleName, or roleRef to an
// IAMRole resolved to the role's name). The role is passed to EC2 by whoever starts an instance
// with the profile, so it is checked with the administrator's pass-role rule (package
// guardrails, CheckPassedRole) before any AWS call. An instance profile is found by its name
// and claimed through managed.Claim. IAM is eventually consistent: EC2 refuses a new instance
// profile ("Invalid IAM Instance Profile name") until IAM has propagated it, so a new profile is
// Ready only once the propagation time has passed since its creation.
package iaminstanceprofile

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the IAMInstanceProfile kind to the engine: a new profile is Ready propagation
// after its creation (the IAMRole kind's propagation time, the same IAM delay).
func Kind(propagation time.Duration) managed.Kind[*v1alpha1.IAMInstanceProfile, State] {
	return managed.Kind[*v1alpha1.IAMInstanceProfile, State]{
		ReadyIn: propagation,
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.IAMInstanceProfile) managed.Driver[*v1alpha1.IAMInstanceProfile, State] {
			return &driver{api: provider.Client(s, "iam", func(c aws.Config) *iam.Client { return iam.NewFromConfig(c) }), propagation: propagation}
		},
		References: []managed.Ref[*v1alpha1.IAMInstanceProfile]{
			managed.One(targets.IAMRoleName, "spec.roleRef", func(p *v1alpha1.IAMInstanceProfile) (*shared.Reference, *string) {
				return p.Spec.RoleRef, &p.Spec.RoleName
			}),
		},
		Guard: guard,
	}
}

// guard refuses, before any AWS call, a role the namespace may not pass to EC2: an instance
// profile hands its role to every instance started with it, so the pass-role rule applies
// (only roles the namespace's IAMRole objects made, which roleRef names, and those the
// administrator's --passable-roles patterns allow; with no pattern, roles of the provider's
// account).
func guard(ctx context.Context, p *v1alpha1.IAMInstanceProfile, g managed.Guardrails) error {
	field := "spec.roleName"
	if p.Spec.RoleRef != nil {
		field = "spec.roleRef"
	}
	return g.CheckPassedRoles(ctx, managed.PassedRole{Field: field, ARN: p.Spec.RoleName, RoleName: true})
}

// driver manages one provider's instance profiles; a profile is Ready propagation after its
// creation.
type driver struct {
	api         *iam.Client
	propagation time.Duration
}
