package guardrails

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// Role is what an IAMRole object asks IAM to make.
type Role struct {
	// Name and Path are the role's name and path ("" is "/").
	Name, Path string
	// TrustPolicy is the assume-role policy document.
	TrustPolicy string
	// PermissionsBoundary is the boundary's policy ARN, "" for none.
	PermissionsBoundary string
	// ManagedPolicies are the ARNs of the managed policies to attach.
	ManagedPolicies []string
	// InlinePolicies are the inline policy documents by name.
	InlinePolicies map[string]string
}

// Boundary returns the permissions boundary every role of t's namespace carries, "" when no
// rule applies.
func (g *IAM) Boundary(t Tenant) string {
	v, ok := pick(g.Boundaries, t.Namespace)
	if !ok {
		return ""
	}
	return fill(v, t)
}

// CheckRole returns a *Refusal when r breaks a rule for t's namespace, nil otherwise. The
// caller puts Boundary(t) into a spec that names no boundary before the check (the object may
// leave it out, not replace it). It reads nothing but its arguments.
func (g *IAM) CheckRole(t Tenant, r Role) error {
	for _, check := range []func(Tenant, Role) *Refusal{g.checkName, g.checkBoundary, g.checkTrust, g.checkManaged, g.checkInline} {
		if refusal := check(t, r); refusal != nil {
			return refusal
		}
	}
	return nil
}

// checkName checks the role's name prefix and path prefix.
func (g *IAM) checkName(t Tenant, r Role) *Refusal {
	if v, ok := pick(g.RolePrefixes, t.Namespace); ok {
		if prefix := fill(v, t); !strings.HasPrefix(r.Name, prefix) {
			return refuse(condition.ReasonRoleNameNotAllowed, "role name %q does not start with %q, the prefix of the roles of namespace %q "+
				"(operator flag %s)", r.Name, prefix, t.Namespace, flagPrefix)
		}
	}
	if v, ok := pick(g.RolePaths, t.Namespace); ok {
		path := r.Path
		if path == "" {
			path = "/"
		}
		if prefix := fill(v, t); !strings.HasPrefix(path, prefix) {
			return refuse(condition.ReasonRoleNameNotAllowed, "role path %q does not start with %q, the path of the roles of namespace %q "+
				"(operator flag %s)", path, prefix, t.Namespace, flagPath)
		}
	}
	return nil
}

// checkBoundary refuses a boundary other than the one the namespace's roles carry.
func (g *IAM) checkBoundary(t Tenant, r Role) *Refusal {
	want := g.Boundary(t)
	if want == "" || r.PermissionsBoundary == want {
		return nil
	}
	return refuse(condition.ReasonPermissionsBoundaryRequired, "spec.permissionsBoundary is %s, but every role of namespace %q carries "+
		"the permissions boundary %s: leave the field empty or name that policy (operator flag %s)", r.PermissionsBoundary, t.Namespace, want, flagBoundary)
}

// checkManaged refuses denied managed policies.
func (g *IAM) checkManaged(t Tenant, r Role) *Refusal {
	for _, arn := range r.ManagedPolicies {
		for _, pattern := range g.DeniedPolicies {
			if pattern != "" && Match(pattern, arn) {
				return refuse(condition.ReasonManagedPolicyDenied, "managed policy %s may not be attached to a role made through the operator: "+
					"it matches the denied policy %s (operator flag %s)", arn, pattern, flagDenied)
			}
		}
	}
	return nil
}

// checkTrust refuses trust policies that let a principal outside the allowed ones assume the
// role. Only Allow statements grant; conditions do not narrow the check, since a condition
// the operator cannot evaluate may be met.
func (g *IAM) checkTrust(t Tenant, r Role) *Refusal {
	doc, err := policy.Parse(r.TrustPolicy)
	if err != nil {
		return refuse(condition.ReasonInvalidSpec, "spec.assumeRolePolicyDocument is not a JSON policy document: %v", err)
	}
	trusted := all(g.TrustedAccounts, t.Namespace)
	for _, st := range doc.Statements {
		if !allows(st) {
			continue
		}
		if _, ok := st["NotPrincipal"]; ok {
			if !slices.Contains(trusted, "*") {
				return refuse(condition.ReasonTrustPrincipalNotAllowed, "the trust policy allows everyone but its NotPrincipal to assume the role; "+
					"namespace %q may trust only AWS services and account %s (operator flag %s)", t.Namespace, t.AccountID, flagTrusted)
			}
			continue
		}
		for _, p := range principals(st["Principal"]) {
			if !trustAllowed(t, trusted, p) {
				return refuse(condition.ReasonTrustPrincipalNotAllowed, "the trust policy lets %s %q assume the role; namespace %q may trust only "+
					"AWS services and principals of account %s%s (operator flag %s)", p.kind, p.value, t.Namespace, t.AccountID, extra(trusted), flagTrusted)
			}
		}
	}
	return nil
}

// extra lists the accounts the administrator trusts besides the provider's own.
func extra(trusted []string) string {
	if len(trusted) == 0 {
		return ""
	}
	return " and " + strings.Join(trusted, ", ")
}

// principal is one principal of a statement: its kind (AWS, Service, Federated,
// CanonicalUser, or "*" for the bare wildcard) and value.
type principal struct {
	kind, value string
}

// principals lists a statement's Principal member: "*" or a map of kinds to a value or a list.
func principals(v any) []principal {
	switch p := v.(type) {
	case string:
		return []principal{{kind: "principal", value: p}}
	case map[string]any:
		var out []principal
		for kind, values := range p {
			for _, value := range strings1(values) {
				out = append(out, principal{kind: kind, value: value})
			}
		}
		slices.SortFunc(out, func(a, b principal) int { return strings.Compare(a.kind+a.value, b.kind+b.value) })
		return out
	}
	return nil
}

// trustAllowed reports whether the namespace may trust p.
func trustAllowed(t Tenant, trusted []string, p principal) bool {
	if slices.Contains(trusted, "*") {
		return true
	}
	switch p.kind {
	case "Service":
		return serviceHost(p.value)
	case "AWS":
		account := p.value
		if strings.HasPrefix(p.value, "arn:") {
			account = ARNAccount(p.value)
		}
		return accountAllowed(t, trusted, account)
	case "Federated":
		// An OIDC or SAML provider of an allowed account, or Amazon Cognito; a web identity
		// provider outside AWS (accounts.google.com) lets its users in from anywhere.
		if strings.HasPrefix(p.value, "arn:") {
			return accountAllowed(t, trusted, ARNAccount(p.value))
		}
		return serviceHost(p.value)
	}
	return false
}

// accountAllowed reports whether principals of account may be trusted: the provider's own
// account, or one the administrator trusts. An unknown provider account matches nothing.
func accountAllowed(t Tenant, trusted []string, account string) bool {
	if !IsAccountID(account) {
		return false
	}
	return (t.AccountID != "" && account == t.AccountID) || slices.Contains(trusted, account)
}

// serviceHost reports whether s names an AWS service principal.
func serviceHost(s string) bool {
	for _, suffix := range []string{".amazonaws.com", ".amazonaws.com.cn"} {
		if name, ok := strings.CutSuffix(s, suffix); ok && name != "" && !strings.Contains(name, "*") {
			return true
		}
	}
	return false
}

// IsAccountID reports whether s is a 12-digit account id.
func IsAccountID(s string) bool {
	if len(s) != 12 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// allows reports whether a statement is an Allow statement.
func allows(st map[string]any) bool {
	effect, _ := st["Effect"].(string)
	return strings.EqualFold(effect, "Allow")
}

// strings1 returns a string or a list of strings as a list; other values give nothing.
func strings1(v any) []string {
	switch s := v.(type) {
	case string:
		return []string{s}
	case []any:
		var out []string
		for _, item := range s {
			if str, ok := item.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

// boundaryActions lift or replace a permissions boundary: no role made through the operator
// may be allowed them, on any resource.
var boundaryActions = []string{
	"iam:DeleteRolePermissionsBoundary", "iam:PutRolePermissionsBoundary",
	"iam:DeleteUserPermissionsBoundary", "iam:PutUserPermissionsBoundary",
}

// escalationActions make or change identities and what they may do, or hand a role to a
// service: allowed on every resource ("*"), each makes an administrator.
var escalationActions = []string{
	"iam:PassRole", "iam:CreateRole", "iam:UpdateAssumeRolePolicy",
	"iam:AttachRolePolicy", "iam:PutRolePolicy", "iam:AttachUserPolicy", "iam:PutUserPolicy",
	"iam:AttachGroupPolicy", "iam:PutGroupPolicy", "iam:CreatePolicyVersion", "iam:SetDefaultPolicyVersion",
	"iam:CreateUser", "iam:CreateAccessKey", "iam:CreateLoginProfile", "iam:UpdateLoginProfile", "iam:AddUserToGroup",
}

// checkInline refuses inline policies that allow "*" or "iam:*", allow by NotAction, allow
// lifting a permissions boundary, or allow an escalation action on every resource.
func (g *IAM) checkInline(t Tenant, r Role) *Refusal {
	names := make([]string, 0, len(r.InlinePolicies))
	for name := range r.InlinePolicies {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		doc, err := policy.Parse(r.InlinePolicies[name])
		if err != nil {
			return refuse(condition.ReasonInvalidSpec, "inline policy %s is not a JSON policy document: %v", name, err)
		}
		for _, st := range doc.Statements {
			if !allows(st) {
				continue
			}
			if why := escalates(st); why != "" {
				return refuse(condition.ReasonInlinePolicyDenied, "inline policy %s %s; no role made through the operator may be allowed that "+
					"(the inline policy rules are fixed: ask the administrator for a managed policy, or a role to pass, with operator flag %s)", name, why, flagPassable)
			}
		}
	}
	return nil
}

// escalates says how an Allow statement reaches beyond the role's own rights, "" if it does not.
func escalates(st map[string]any) string {
	if _, ok := st["NotAction"]; ok {
		return "allows by NotAction (every action but those listed)"
	}
	everywhere := false
	if _, ok := st["NotResource"]; ok {
		everywhere = true
	}
	for _, res := range strings1(st["Resource"]) {
		if res == "*" {
			everywhere = true
		}
	}
	for _, action := range strings1(st["Action"]) {
		a := strings.ToLower(action)
		if a == "*" || a == "iam:*" {
			return fmt.Sprintf("allows %q", action)
		}
		for _, b := range boundaryActions {
			if actionMatch(a, b) {
				return fmt.Sprintf("allows %q, which covers %s (lifting a permissions boundary)", action, b)
			}
		}
		if !everywhere {
			continue
		}
		for _, e := range escalationActions {
			if actionMatch(a, e) {
				return fmt.Sprintf("allows %q, which covers %s, on every resource", action, e)
			}
		}
	}
	return ""
}

// actionMatch reports whether the action pattern of a statement (IAM's wildcards "*" and "?",
// case-insensitive) covers action.
func actionMatch(pattern, action string) bool {
	ok, err := path.Match(strings.ToLower(pattern), strings.ToLower(action))
	return ok && err == nil
}
