// Package iampolicy manages customer managed IAM policies for the IAMPolicy kind: the policy
// with its path, description and tags, and its document as versions: a changed document is a
// new version made the default, after deleting the oldest non-default version when the policy
// has IAM's five. Documents are compared as policies (package policy), never as text, and are
// checked against the administrator's inline policy rules (package guardrails) before any AWS
// call. A policy is found by its ARN, built from the provider's account, the path and the name,
// and claimed through managed.Claim.
package iampolicy

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/security/iamarn"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the IAMPolicy kind to the engine.
func Kind() managed.Kind[*v1alpha1.IAMPolicy, State] {
	return managed.Kind[*v1alpha1.IAMPolicy, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.IAMPolicy) managed.Driver[*v1alpha1.IAMPolicy, State] {
			return &driver{api: provider.Client(s, "iam", func(c aws.Config) *iam.Client { return iam.NewFromConfig(c) }), session: s}
		},
		Validate: validate,
		Guard:    guard,
	}
}

// validate refuses a document that is not a JSON policy before any AWS call.
func validate(p *v1alpha1.IAMPolicy) error {
	if _, err := policy.Canonical(p.Spec.PolicyDocument); err != nil {
		return fmt.Errorf("spec.policyDocument is not a JSON policy document: %w", err)
	}
	return nil
}

// guard checks the document against the administrator's rules for policies made through the
// operator (the inline policy rules), on every pass, before Observe plans a new version.
func guard(_ context.Context, p *v1alpha1.IAMPolicy, g managed.Guardrails) error {
	return g.IAM.CheckPolicy(g.Tenant, p.Spec.PolicyName, p.Spec.PolicyDocument)
}

// driver manages one provider's customer managed policies.
type driver struct {
	api     *iam.Client
	session *provider.Session
}

// arn returns the ARN of the object's policy: the one recorded, else the one its account,
// path and name give.
func (d *driver) arn(ctx context.Context, p *v1alpha1.IAMPolicy) (string, error) {
	if id := managed.ExternalName(p); id != "" {
		return id, nil
	}
	path := p.Spec.Path
	if path == "" {
		path = "/"
	}
	return iamarn.For(ctx, d.session, "policy"+path+p.Spec.PolicyName)
}
