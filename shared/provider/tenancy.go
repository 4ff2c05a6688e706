package provider

import (
	"fmt"
	"strings"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Tenancy is what the cluster administrator lets namespaced AWSProviders borrow from the
// operator (operator flags, chart values). ClusterAWSProviders are the administrator's own and
// are not restricted by it.
type Tenancy struct {
	// OperatorIdentityNamespaces are the namespaces whose AWSProviders may use the operator's
	// own identity (IRSA, EKS Pod Identity, the default chain) instead of static keys; "*"
	// allows every namespace.
	OperatorIdentityNamespaces []string
	// AssumeRoles restrict which role ARNs a namespace's AWSProviders may assume. Empty allows
	// any role; otherwise a role must match a rule of the provider's namespace.
	AssumeRoles []RoleRule
	// AllowEndpointOverride honours AWSProviders' spec.endpoint.
	AllowEndpointOverride bool
	// STSEndpoint is where the operator's own identity is exchanged for roles (web identity
	// tokens, the default chain's credentials); empty means AWS's STS for the region.
	STSEndpoint string
}

// RoleRule lets the AWSProviders of namespaces matching Namespace assume roles matching
// RoleARNPattern; both are patterns in which "*" matches any run of characters.
type RoleRule struct {
	Namespace      string
	RoleARNPattern string
}

// ParseRoleRule parses "NAMESPACE=ARN_PATTERN", the form of the --assume-role-policy flag.
func ParseRoleRule(s string) (RoleRule, error) {
	ns, pattern, ok := strings.Cut(s, "=")
	if !ok || ns == "" || pattern == "" {
		return RoleRule{}, fmt.Errorf("assume-role rule %q is not NAMESPACE=ROLE_ARN_PATTERN", s)
	}
	return RoleRule{Namespace: ns, RoleARNPattern: pattern}, nil
}

// matches reports whether the rule lets namespace ns assume role.
func (r RoleRule) matches(ns, role string) bool {
	return wildcardMatch(r.Namespace, ns) && wildcardMatch(r.RoleARNPattern, role)
}

// wildcardMatch reports whether s matches pattern, in which "*" matches any run of characters
// (slashes and colons included, as in ARNs) and every other character matches itself.
func wildcardMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}

// check returns why the tenancy settings refuse p, or nil. A nil Tenancy refuses nothing.
func (t *Tenancy) check(p v1alpha1.ProviderObject) error {
	if t == nil || p.AdministratorOwned() {
		return nil
	}
	spec, ns := p.ProviderSpec(), p.GetNamespace()
	static := spec.AccessKeyIDRef != nil
	if spec.Endpoint != "" && !t.AllowEndpointOverride {
		return &Error{Reason: condition.ReasonEndpointNotAllowed, Message: "spec.endpoint is set, and this operator does not honour " +
			"AWSProviders' endpoints (operator flag --allow-endpoint-override, chart value tenancy.allowEndpointOverride)"}
	}
	if spec.Endpoint != "" && !static {
		return &Error{Reason: condition.ReasonEndpointNeedsStaticKeys, Message: "spec.endpoint is set on a provider without static keys; " +
			"the operator's own identity is never sent to an endpoint chosen in a namespace: give accessKeyIDRef and secretAccessKeyRef"}
	}
	if !static && !containsOrStar(t.OperatorIdentityNamespaces, ns) {
		return &Error{Reason: condition.ReasonOperatorIdentityNotAllowed, Message: fmt.Sprintf("namespace %q may not use the operator's own identity "+
			"(operator flag --operator-identity-namespaces, chart value tenancy.operatorIdentityNamespaces); give static keys "+
			"with accessKeyIDRef and secretAccessKeyRef, or use a ClusterAWSProvider the administrator allows", ns)}
	}
	if spec.RoleARN != "" && len(t.AssumeRoles) > 0 && !t.mayAssume(ns, spec.RoleARN) {
		return &Error{Reason: condition.ReasonRoleNotAllowed, Message: fmt.Sprintf("namespace %q may not assume role %s "+
			"(operator flag --assume-role-policy, chart value tenancy.assumeRolePolicy)", ns, spec.RoleARN)}
	}
	return nil
}

// mayAssume reports whether a rule lets namespace ns assume role.
func (t *Tenancy) mayAssume(ns, role string) bool {
	for _, r := range t.AssumeRoles {
		if r.matches(ns, role) {
			return true
		}
	}
	return false
}

func containsOrStar(list []string, s string) bool {
	for _, v := range list {
		if v == "*" || v == s {
			return true
		}
	}
	return false
}
