package guardrails

import "github.com/runner-codes/infra-operator/shared/api/condition"

// CheckPolicy returns a *Refusal when the document of the customer managed policy name (an
// IAMPolicy) breaks the inline policy rules, nil otherwise: a managed policy made through the
// operator is attached to roles like an inline policy is embedded in one, so it may not allow
// "*", "iam:*", NotAction, lifting a permissions boundary, or an escalation action on every
// resource either. It reads nothing but its arguments.
func (g *IAM) CheckPolicy(t Tenant, name, document string) error {
	refusal := g.checkInline(t, Role{InlinePolicies: map[string]string{name: document}})
	if refusal == nil {
		return nil
	}
	if refusal.Reason == condition.ReasonInlinePolicyDenied {
		refusal.Reason = condition.ReasonPolicyDocumentDenied
		refusal.Message = "managed policy " + refusal.Message[len("inline policy "):]
	}
	return refusal
}
