// Package iamrole manages IAM roles for the IAMRole kind: the role with its trust policy,
// description, session duration, permissions boundary and tags, its managed and inline
// policies as sets, and on request an instance profile of the role's name. Policies are
// compared as policies (package policy), never as text. Every spec is checked against the
// cluster administrator's IAM guardrails (package guardrails) before any AWS call, and carries
// the permissions boundary they impose. IAM is eventually consistent: a new role is Ready only
// once Tunables.Propagation has passed since its creation.
package iamrole

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Tunables are the IAMRole kind's timings; a zero field takes its default. Tests shorten them.
type Tunables struct {
	// Propagation is how long after its creation a role is reported Ready (default 10s): IAM
	// propagates a new role to the services that assume it (Lambda, EC2) within seconds, and
	// refuses it until then.
	Propagation time.Duration
}

// WithDefaults returns t with its zero fields set to their defaults.
func (t Tunables) WithDefaults() Tunables {
	if t.Propagation <= 0 {
		t.Propagation = 10 * time.Second
	}
	return t
}

// Kind declares the IAMRole kind to the engine, with the timings t.
func Kind(t Tunables) managed.Kind[*v1alpha1.IAMRole, State] {
	t = t.WithDefaults()
	return managed.Kind[*v1alpha1.IAMRole, State]{
		// A new role is Ready once IAM has propagated it: the first look after the create is
		// then, which also attaches its policies (a role is created empty).
		ReadyIn: t.Propagation,
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.IAMRole) managed.Driver[*v1alpha1.IAMRole, State] {
			return &driver{api: provider.Client(s, "iam", func(c aws.Config) *iam.Client { return iam.NewFromConfig(c) }), propagation: t.Propagation}
		},
		// The policies policyRefs name are attached like those of managedPolicyARNs: their
		// ARNs join that list in memory, before the guard checks it and Observe compares it.
		References: []managed.Ref[*v1alpha1.IAMRole]{
			managed.List(targets.IAMPolicy, "spec.policyRefs", "", func(r *v1alpha1.IAMRole) ([]shared.Reference, *shared.Selector, *[]string) {
				return r.Spec.PolicyRefs, nil, &r.Spec.ManagedPolicyARNs
			}),
		},
		Validate: validate,
		Guard:    guard,
	}
}

// validate refuses policy documents that are not JSON objects before any AWS call.
func validate(r *v1alpha1.IAMRole) error {
	if _, err := policy.Canonical(r.Spec.AssumeRolePolicyDocument); err != nil {
		return fmt.Errorf("spec.assumeRolePolicyDocument is not a JSON policy document: %w", err)
	}
	for i, p := range r.Spec.InlinePolicies {
		if _, err := policy.Canonical(p.PolicyDocument); err != nil {
			return fmt.Errorf("spec.inlinePolicies[%d] (%s) is not a JSON policy document: %w", i, p.PolicyName, err)
		}
	}
	return nil
}

// driver manages one provider's roles; a role is Ready propagation after its creation.
type driver struct {
	api         *iam.Client
	propagation time.Duration
}
