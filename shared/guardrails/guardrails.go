// Package guardrails holds the cluster administrator's IAM rules (operator flags, chart values)
// and the pure functions that check a namespace's objects against them before any AWS call: the
// roles an IAMRole object creates (permissions boundary, trust principals, managed and inline
// policies, name and path) and the roles other kinds pass to a service (a Lambda function's
// execution role, an EKS cluster's role, an EC2 instance profile).
//
// The model is AWS's delegated role creation with permissions boundaries: a team may create
// roles, but only roles that carry the boundary the administrator chose, under a name prefix,
// trusting only principals the administrator allows, and without the actions that would let
// the role lift its own boundary. A refusal is a *Refusal, which names the rule, the operator
// flag and the chart value that changes it.
package guardrails

import (
	"fmt"
	"strings"
)

// DefaultDeniedPolicies are the AWS managed policies no IAMRole may attach unless the
// administrator changes --iam-denied-policies. Each is equivalent to an administrator of the
// account or of its IAM, so that a role holding it reaches beyond any namespace:
//
//   - AdministratorAccess: every action on every resource.
//   - AdministratorAccess-Amplify: creates and passes roles (iam:CreateRole, iam:PassRole) and
//     runs CloudFormation with them, which makes any permission.
//   - IAMFullAccess: iam:*, which makes any role, the role itself included, an administrator.
//   - PowerUserAccess: every action of every service but IAM and Organizations: every Secret,
//     key, bucket and database of every team in the account.
//   - AWSOrganizationsFullAccess: creates accounts (whose OrganizationAccountAccessRole is an
//     administrator) and changes the organization's service control policies.
//   - job-function/SystemAdministrator: iam:PassRole on every role and the instance profile
//     calls, which run code with any role of the account.
//
// Every partition is covered (arn:aws, arn:aws-cn, arn:aws-us-gov). Customer managed policies
// cannot be judged before an AWS call; a permissions boundary (--iam-permissions-boundary) is
// what bounds them.
var DefaultDeniedPolicies = []string{
	"arn:aws*:iam::aws:policy/AdministratorAccess",
	"arn:aws*:iam::aws:policy/AdministratorAccess-Amplify",
	"arn:aws*:iam::aws:policy/IAMFullAccess",
	"arn:aws*:iam::aws:policy/PowerUserAccess",
	"arn:aws*:iam::aws:policy/AWSOrganizationsFullAccess",
	"arn:aws*:iam::aws:policy/job-function/SystemAdministrator",
}

// Flags and chart values named in refusals, so that a refused user knows whom to ask and the
// administrator knows what to change.
const (
	flagBoundary  = "--iam-permissions-boundary (chart value guardrails.iam.permissionsBoundary)"
	flagTrusted   = "--iam-trusted-accounts (chart value guardrails.iam.trustedAccounts)"
	flagDenied    = "--iam-denied-policies (chart value guardrails.iam.deniedPolicies)"
	flagPrefix    = "--iam-role-prefix (chart value guardrails.iam.rolePrefix)"
	flagPath      = "--iam-role-path (chart value guardrails.iam.rolePath)"
	flagPassable  = "--passable-roles (chart value guardrails.passableRoles)"
	namespaceHole = "{namespace}"
	accountHole   = "{account}"
)

// IAM is the administrator's IAM rules. The zero value allows every trust principal of the
// provider's own account and AWS's services, denies no managed policy, requires no boundary,
// name or path, and lets any role of the provider's own account be passed; the inline policy
// rules always hold.
type IAM struct {
	// Boundaries are NAMESPACE=POLICY_ARN rules: every role an IAMRole object of a matching
	// namespace creates carries that permissions boundary ({account} stands for the provider's
	// account, {namespace} for the namespace).
	Boundaries []Rule
	// TrustedAccounts are NAMESPACE=ACCOUNT_ID rules: the trust policies of a matching
	// namespace's roles may name principals of that account ("*": any principal, "*" itself
	// included). The provider's own account and AWS's services are always trusted.
	TrustedAccounts []Rule
	// DeniedPolicies are managed policy ARN patterns ("*" matches any run of characters) that
	// no role may attach.
	DeniedPolicies []string
	// RolePrefixes are NAMESPACE=PREFIX rules: the roles of a matching namespace have names
	// that start with PREFIX ({namespace} stands for the namespace).
	RolePrefixes []Rule
	// RolePaths are NAMESPACE=PATH_PREFIX rules: the roles of a matching namespace have paths
	// that start with PATH_PREFIX ({namespace} stands for the namespace).
	RolePaths []Rule
	// PassableRoles are NAMESPACE=ARN_PATTERN rules: the roles (and instance profiles) a
	// matching namespace may pass to a service besides those its own IAMRole objects made.
	// When there is none at all, any role of the provider's own account may be passed.
	PassableRoles []Rule
}

// Rule applies Value to the namespaces that Namespace matches ("*" matches any run of
// characters, so "*" alone is every namespace).
type Rule struct {
	Namespace string
	Value     string
}

// ParseRule parses "NAMESPACE=VALUE", the form of the per-namespace flags; flag names the flag
// in the error.
func ParseRule(flag, s string) (Rule, error) {
	ns, v, ok := strings.Cut(s, "=")
	if !ok || ns == "" || v == "" {
		return Rule{}, fmt.Errorf("%s rule %q is not NAMESPACE=VALUE", flag, s)
	}
	return Rule{Namespace: ns, Value: v}, nil
}

// ParseRules parses every rule of a repeatable flag.
func ParseRules(flag string, list []string) ([]Rule, error) {
	var rules []Rule
	for _, s := range list {
		r, err := ParseRule(flag, s)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// Tenant is who an object acts for: its namespace and the AWS account and partition of its
// provider.
type Tenant struct {
	Namespace string
	AccountID string
	Partition string
}

// Refusal is a guardrail's refusal of an object: terminal, since only a change of the spec or
// of the administrator's rules lifts it.
type Refusal struct {
	// Reason is the CamelCase condition reason (shared/api/condition).
	Reason string
	// Message names the rule and the flag and chart value that set it.
	Message string
}

// Error returns the message.
func (r *Refusal) Error() string { return r.Message }

// refuse returns a Refusal with a formatted message.
func refuse(reason, format string, args ...any) *Refusal {
	return &Refusal{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// pick returns the value of the rule that applies to namespace ns: a rule naming ns exactly
// wins over patterns, and among patterns the first given wins. ok is false when none applies.
func pick(rules []Rule, ns string) (string, bool) {
	for _, r := range rules {
		if r.Namespace == ns {
			return r.Value, true
		}
	}
	for _, r := range rules {
		if Match(r.Namespace, ns) {
			return r.Value, true
		}
	}
	return "", false
}

// all returns the values of every rule that applies to namespace ns.
func all(rules []Rule, ns string) []string {
	var out []string
	for _, r := range rules {
		if Match(r.Namespace, ns) {
			out = append(out, r.Value)
		}
	}
	return out
}

// fill replaces the placeholders of a rule's value.
func fill(v string, t Tenant) string {
	return strings.NewReplacer(namespaceHole, t.Namespace, accountHole, t.AccountID).Replace(v)
}

// Match reports whether s matches pattern, in which "*" matches any run of characters (slashes
// and colons included, as in ARNs) and every other character matches itself.
func Match(pattern, s string) bool {
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

// ARNAccount returns the account of an ARN (arn:PARTITION:SERVICE:REGION:ACCOUNT:...), or ""
// when s is not an ARN.
func ARNAccount(s string) string {
	parts := strings.SplitN(s, ":", 6)
	if len(parts) < 6 || parts[0] != "arn" {
		return ""
	}
	return parts[4]
}
