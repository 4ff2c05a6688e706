package guardrails_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/guardrails"
)

const (
	account = "111111111111"
	outside = "999999999999"
)

// tenant is the namespace team-a, whose provider is of account.
var tenant = guardrails.Tenant{Namespace: "team-a", AccountID: account, Partition: "aws"}

// reason returns the refusal's reason, "" for no error, and "error" for an error that is not a
// refusal.
func reason(err error) string {
	if err == nil {
		return ""
	}
	if r, ok := err.(*guardrails.Refusal); ok {
		return r.Reason
	}
	return "error: " + err.Error()
}

// trust returns a trust policy letting principal assume the role.
func trust(principal string) string {
	return `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":` + principal + `,"Action":"sts:AssumeRole"}]}`
}

// allow returns a policy with one Allow statement of action on resource.
func allow(action, resource string) string {
	return `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":` + action + `,"Resource":` + resource + `}]}`
}

// lambdaRole is a role every rule allows by default.
func lambdaRole() guardrails.Role {
	return guardrails.Role{Name: "team-a-fn", Path: "/", TrustPolicy: trust(`{"Service":"lambda.amazonaws.com"}`),
		ManagedPolicies: []string{"arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"},
		InlinePolicies:  map[string]string{"logs": allow(`"logs:*"`, `"*"`)}}
}

func defaults() *guardrails.IAM {
	return &guardrails.IAM{DeniedPolicies: guardrails.DefaultDeniedPolicies}
}

func TestCheckRole(t *testing.T) {
	type args struct {
		g    *guardrails.IAM
		role func(r *guardrails.Role)
	}
	cases := map[string]struct {
		reason string
		args   args
		want   string
	}{
		"ServicePrincipal": {
			reason: "A role that AWS's services assume, with harmless policies, is allowed by default.",
			args:   args{g: defaults(), role: func(*guardrails.Role) {}},
		},
		"ChinaServicePrincipal": {
			reason: "Service principals of the China partition are AWS's services too.",
			args:   args{g: defaults(), role: func(r *guardrails.Role) { r.TrustPolicy = trust(`{"Service":["ec2.amazonaws.com.cn"]}`) }},
		},
		"OwnAccountRole": {
			reason: "A principal of the provider's own account may be trusted.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.TrustPolicy = trust(`{"AWS":"arn:aws:iam::` + account + `:role/ci"}`)
			}},
		},
		"OwnAccountID": {
			reason: "The provider's account given by its id may be trusted.",
			args:   args{g: defaults(), role: func(r *guardrails.Role) { r.TrustPolicy = trust(`{"AWS":"` + account + `"}`) }},
		},
		"OwnOIDCProvider": {
			reason: "An OIDC provider of the provider's account (IRSA) may be trusted.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.TrustPolicy = trust(`{"Federated":"arn:aws:iam::` + account + `:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/ABC"}`)
			}},
		},
		"OutsideAccount": {
			reason: "A principal of another account is refused, conditions notwithstanding.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.TrustPolicy = `{"Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::` + outside + `:root"},"Action":"sts:AssumeRole",` +
					`"Condition":{"StringEquals":{"sts:ExternalId":"x"}}}]}`
			}},
			want: condition.ReasonTrustPrincipalNotAllowed,
		},
		"OutsideAccountTrusted": {
			reason: "An account the administrator trusts for the namespace may be trusted.",
			args: args{g: &guardrails.IAM{TrustedAccounts: []guardrails.Rule{{Namespace: "team-*", Value: outside}}}, role: func(r *guardrails.Role) {
				r.TrustPolicy = trust(`{"AWS":"arn:aws:iam::` + outside + `:root"}`)
			}},
		},
		"OutsideAccountTrustedElsewhere": {
			reason: "An account trusted for another namespace is not trusted for this one.",
			args: args{g: &guardrails.IAM{TrustedAccounts: []guardrails.Rule{{Namespace: "team-b", Value: outside}}}, role: func(r *guardrails.Role) {
				r.TrustPolicy = trust(`{"AWS":"arn:aws:iam::` + outside + `:root"}`)
			}},
			want: condition.ReasonTrustPrincipalNotAllowed,
		},
		"Everyone": {
			reason: `The bare "*" principal is refused.`,
			args:   args{g: defaults(), role: func(r *guardrails.Role) { r.TrustPolicy = trust(`"*"`) }},
			want:   condition.ReasonTrustPrincipalNotAllowed,
		},
		"AnyAWS": {
			reason: `AWS "*" (any account) is refused.`,
			args:   args{g: defaults(), role: func(r *guardrails.Role) { r.TrustPolicy = trust(`{"AWS":["arn:aws:iam::` + account + `:root","*"]}`) }},
			want:   condition.ReasonTrustPrincipalNotAllowed,
		},
		"AnyTrusted": {
			reason: `A "*" account rule allows any principal.`,
			args: args{g: &guardrails.IAM{TrustedAccounts: []guardrails.Rule{{Namespace: "*", Value: "*"}}}, role: func(r *guardrails.Role) {
				r.TrustPolicy = trust(`"*"`)
			}},
		},
		"NotPrincipal": {
			reason: "Allow with NotPrincipal lets in everyone else.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.TrustPolicy = `{"Statement":[{"Effect":"Allow","NotPrincipal":{"AWS":"arn:aws:iam::` + account + `:root"},"Action":"sts:AssumeRole"}]}`
			}},
			want: condition.ReasonTrustPrincipalNotAllowed,
		},
		"DenyStatementIgnored": {
			reason: "A Deny statement grants nothing, whatever its principal.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.TrustPolicy = `{"Statement":[{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"},` +
					`{"Effect":"Deny","Principal":"*","Action":"sts:AssumeRole"}]}`
			}},
		},
		"WebIdentityOutsideAWS": {
			reason: "A web identity provider outside AWS lets its users in from anywhere.",
			args:   args{g: defaults(), role: func(r *guardrails.Role) { r.TrustPolicy = trust(`{"Federated":"accounts.google.com"}`) }},
			want:   condition.ReasonTrustPrincipalNotAllowed,
		},
		"FakeServiceWildcard": {
			reason: "A service principal pattern is not a service.",
			args:   args{g: defaults(), role: func(r *guardrails.Role) { r.TrustPolicy = trust(`{"Service":"*.amazonaws.com"}`) }},
			want:   condition.ReasonTrustPrincipalNotAllowed,
		},
		"UnknownAccount": {
			reason: "With the provider's account unknown, no account principal is trusted.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.TrustPolicy = trust(`{"AWS":"arn:aws:iam:::root"}`)
			}},
			want: condition.ReasonTrustPrincipalNotAllowed,
		},
		"AdministratorAccess": {
			reason: "AdministratorAccess is denied by default.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.ManagedPolicies = append(r.ManagedPolicies, "arn:aws:iam::aws:policy/AdministratorAccess")
			}},
			want: condition.ReasonManagedPolicyDenied,
		},
		"IAMFullAccessGovCloud": {
			reason: "The default list covers every partition.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.ManagedPolicies = []string{"arn:aws-us-gov:iam::aws:policy/IAMFullAccess"}
			}},
			want: condition.ReasonManagedPolicyDenied,
		},
		"SystemAdministrator": {
			reason: "The job function SystemAdministrator passes any role, and is denied by default.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.ManagedPolicies = []string{"arn:aws:iam::aws:policy/job-function/SystemAdministrator"}
			}},
			want: condition.ReasonManagedPolicyDenied,
		},
		"SimilarName": {
			reason: "A policy whose name only starts like a denied one is allowed.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.ManagedPolicies = []string{"arn:aws:iam::aws:policy/AdministratorAccess-AWSElasticBeanstalk"}
			}},
		},
		"NoDeniedPolicies": {
			reason: "With no denied policy, AdministratorAccess may be attached.",
			args: args{g: &guardrails.IAM{}, role: func(r *guardrails.Role) {
				r.ManagedPolicies = []string{"arn:aws:iam::aws:policy/AdministratorAccess"}
			}},
		},
		"CustomDenied": {
			reason: "An administrator's pattern denies customer managed policies too.",
			args: args{g: &guardrails.IAM{DeniedPolicies: []string{"arn:aws:iam::*:policy/admin-*"}}, role: func(r *guardrails.Role) {
				r.ManagedPolicies = []string{"arn:aws:iam::" + account + ":policy/admin-all"}
			}},
			want: condition.ReasonManagedPolicyDenied,
		},
		"InlineStar": {
			reason: `An inline "*" is refused, on any resource.`,
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.InlinePolicies["all"] = allow(`"*"`, `"arn:aws:s3:::bucket"`)
			}},
			want: condition.ReasonInlinePolicyDenied,
		},
		"InlineIAMStar": {
			reason: `An inline "iam:*" is refused, whatever its case.`,
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.InlinePolicies["iam"] = allow(`["s3:GetObject","IAM:*"]`, `"*"`)
			}},
			want: condition.ReasonInlinePolicyDenied,
		},
		"InlinePassRoleEverywhere": {
			reason: "iam:PassRole on every resource is refused.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.InlinePolicies["pass"] = allow(`"iam:PassRole"`, `"*"`)
			}},
			want: condition.ReasonInlinePolicyDenied,
		},
		"InlinePutWildcard": {
			reason: `"iam:Put*" covers iam:PutRolePolicy, and is refused on every resource.`,
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.InlinePolicies["put"] = allow(`"iam:Put*"`, `["*"]`)
			}},
			want: condition.ReasonInlinePolicyDenied,
		},
		"InlineQuestionMark": {
			reason: `IAM's "?" wildcard is understood.`,
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.InlinePolicies["pass"] = allow(`"iam:PassRol?"`, `"*"`)
			}},
			want: condition.ReasonInlinePolicyDenied,
		},
		"InlinePassRoleOneRole": {
			reason: "iam:PassRole on one named role is allowed.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.InlinePolicies["pass"] = allow(`"iam:PassRole"`, `"arn:aws:iam::`+account+`:role/team-a-fn"`)
			}},
		},
		"InlineNotResource": {
			reason: "NotResource is every resource but some.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.InlinePolicies["pass"] = `{"Statement":[{"Effect":"Allow","Action":"iam:CreateRole","NotResource":"arn:aws:iam::` + account + `:role/x"}]}`
			}},
			want: condition.ReasonInlinePolicyDenied,
		},
		"InlineNotAction": {
			reason: "An Allow by NotAction is refused.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.InlinePolicies["most"] = `{"Statement":{"Effect":"Allow","NotAction":"iam:*","Resource":"*"}}`
			}},
			want: condition.ReasonInlinePolicyDenied,
		},
		"InlineBoundaryRemoval": {
			reason: "Lifting a permissions boundary is refused, even on the role itself.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.InlinePolicies["lift"] = allow(`"iam:DeleteRolePermissionsBoundary"`, `"arn:aws:iam::`+account+`:role/team-a-fn"`)
			}},
			want: condition.ReasonInlinePolicyDenied,
		},
		"InlineBoundaryWildcard": {
			reason: "A wildcard that covers a boundary action is refused.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.InlinePolicies["lift"] = allow(`"iam:*PermissionsBoundary"`, `"arn:aws:iam::`+account+`:role/team-a-fn"`)
			}},
			want: condition.ReasonInlinePolicyDenied,
		},
		"InlineDenyIgnored": {
			reason: "A Deny statement is never an escalation.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.InlinePolicies["deny"] = `{"Statement":{"Effect":"Deny","Action":"*","Resource":"*"}}`
			}},
		},
		"InlineNotJSON": {
			reason: "An inline policy that is not JSON is refused as an invalid spec.",
			args:   args{g: defaults(), role: func(r *guardrails.Role) { r.InlinePolicies["bad"] = "{" }},
			want:   condition.ReasonInvalidSpec,
		},
		"Prefix": {
			reason: "A name with the namespace's prefix is allowed.",
			args:   args{g: &guardrails.IAM{RolePrefixes: []guardrails.Rule{{Namespace: "*", Value: "{namespace}-"}}}, role: func(*guardrails.Role) {}},
		},
		"OutsidePrefix": {
			reason: "A name without the namespace's prefix is refused.",
			args: args{g: &guardrails.IAM{RolePrefixes: []guardrails.Rule{{Namespace: "*", Value: "{namespace}-"}}}, role: func(r *guardrails.Role) {
				r.Name = "team-b-admin"
			}},
			want: condition.ReasonRoleNameNotAllowed,
		},
		"ExactNamespaceWins": {
			reason: "A rule naming the namespace wins over the wildcard rule.",
			args: args{g: &guardrails.IAM{RolePrefixes: []guardrails.Rule{{Namespace: "*", Value: "{namespace}-"}, {Namespace: "team-a", Value: "a-"}}},
				role: func(*guardrails.Role) {}},
			want: condition.ReasonRoleNameNotAllowed,
		},
		"Path": {
			reason: "A path under the namespace's path is allowed.",
			args: args{g: &guardrails.IAM{RolePaths: []guardrails.Rule{{Namespace: "*", Value: "/{namespace}/"}}}, role: func(r *guardrails.Role) {
				r.Path = "/team-a/lambda/"
			}},
		},
		"OutsidePath": {
			reason: "The default path is outside a path rule.",
			args: args{g: &guardrails.IAM{RolePaths: []guardrails.Rule{{Namespace: "*", Value: "/{namespace}/"}}}, role: func(r *guardrails.Role) {
				r.Path = ""
			}},
			want: condition.ReasonRoleNameNotAllowed,
		},
		"Boundary": {
			reason: "A role naming the namespace's boundary is allowed.",
			args: args{g: &guardrails.IAM{Boundaries: []guardrails.Rule{{Namespace: "*", Value: "arn:aws:iam::{account}:policy/tenant"}}}, role: func(r *guardrails.Role) {
				r.PermissionsBoundary = "arn:aws:iam::" + account + ":policy/tenant"
			}},
		},
		"OtherBoundary": {
			reason: "A role naming another boundary is refused.",
			args: args{g: &guardrails.IAM{Boundaries: []guardrails.Rule{{Namespace: "*", Value: "arn:aws:iam::{account}:policy/tenant"}}}, role: func(r *guardrails.Role) {
				r.PermissionsBoundary = "arn:aws:iam::aws:policy/AdministratorAccess"
			}},
			want: condition.ReasonPermissionsBoundaryRequired,
		},
		"NoBoundaryRule": {
			reason: "Without a boundary rule, any boundary may be named.",
			args: args{g: defaults(), role: func(r *guardrails.Role) {
				r.PermissionsBoundary = "arn:aws:iam::" + account + ":policy/anything"
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := lambdaRole()
			tc.args.role(&r)
			got := reason(tc.args.g.CheckRole(tenant, r))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestBoundary(t *testing.T) {
	cases := map[string]struct {
		reason string
		args   []guardrails.Rule
		want   string
	}{
		"None": {
			reason: "Without a rule there is no boundary.",
		},
		"Global": {
			reason: "A global rule applies, with its placeholders filled in.",
			args:   []guardrails.Rule{{Namespace: "*", Value: "arn:aws:iam::{account}:policy/{namespace}-boundary"}},
			want:   "arn:aws:iam::" + account + ":policy/team-a-boundary",
		},
		"Specific": {
			reason: "A rule naming the namespace wins over a pattern given before it.",
			args: []guardrails.Rule{{Namespace: "team-*", Value: "arn:aws:iam::1:policy/teams"},
				{Namespace: "team-a", Value: "arn:aws:iam::1:policy/a"}},
			want: "arn:aws:iam::1:policy/a",
		},
		"Elsewhere": {
			reason: "A rule of another namespace does not apply.",
			args:   []guardrails.Rule{{Namespace: "team-b", Value: "arn:aws:iam::1:policy/b"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := (&guardrails.IAM{Boundaries: tc.args}).Boundary(tenant)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestCheckPassedRole(t *testing.T) {
	own := []string{"arn:aws:iam::" + account + ":role/team-a-fn", "arn:aws:iam::" + account + ":instance-profile/web/team-a-web"}
	locked := &guardrails.IAM{PassableRoles: []guardrails.Rule{{Namespace: "team-a", Value: "arn:aws:iam::{account}:role/shared-*"}}}
	type args struct {
		g   *guardrails.IAM
		arn string
	}
	cases := map[string]struct {
		reason string
		args   args
		want   string
	}{
		"Empty": {
			reason: "An empty field passes nothing.",
			args:   args{g: locked},
		},
		"OpenOwnAccount": {
			reason: "With no rule, any role of the provider's account may be passed.",
			args:   args{g: &guardrails.IAM{}, arn: "arn:aws:iam::" + account + ":role/anything"},
		},
		"OpenOtherAccount": {
			reason: "With no rule, a role of another account may not be passed.",
			args:   args{g: &guardrails.IAM{}, arn: "arn:aws:iam::" + outside + ":role/anything"},
			want:   condition.ReasonRoleNotPassable,
		},
		"LockedOwn": {
			reason: "A role the namespace's IAMRoles made may always be passed.",
			args:   args{g: locked, arn: own[0]},
		},
		"LockedPattern": {
			reason: "A role an administrator's pattern allows may be passed.",
			args:   args{g: locked, arn: "arn:aws:iam::" + account + ":role/shared-logs"},
		},
		"LockedOther": {
			reason: "Under a rule, another role of the account may not be passed.",
			args:   args{g: locked, arn: "arn:aws:iam::" + account + ":role/admin"},
			want:   condition.ReasonRoleNotPassable,
		},
		"LockedOtherNamespace": {
			reason: "Rules of other namespaces lock a namespace without rules of its own.",
			args: args{g: &guardrails.IAM{PassableRoles: []guardrails.Rule{{Namespace: "team-b", Value: "*"}}},
				arn: "arn:aws:iam::" + account + ":role/anything"},
			want: condition.ReasonRoleNotPassable,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := reason(tc.args.g.CheckPassedRole(tenant, "spec.roleARN", tc.args.arn, own))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestNamedARNs checks how a role name and an instance profile name become ARNs: an ARN is
// kept, the name of one the namespace made is that one whatever its path, any other name is the
// provider's account's at path /.
func TestNamedARNs(t *testing.T) {
	own := []string{"arn:aws:iam::" + account + ":role/apps/web", "arn:aws:iam::" + account + ":instance-profile/apps/web",
		"arn:aws:iam::" + account + ":instance-profile/db"}
	cases := map[string]struct {
		reason  string
		resolve func(guardrails.Tenant, string, []string) string
		args    string
		want    string
	}{
		"RoleARN": {
			reason:  "A role's ARN is kept.",
			resolve: guardrails.RoleARN,
			args:    "arn:aws:iam::" + outside + ":role/x",
			want:    "arn:aws:iam::" + outside + ":role/x",
		},
		"OwnRole": {
			reason:  "The name of a role the namespace made is that role, whatever its path.",
			resolve: guardrails.RoleARN,
			args:    "web",
			want:    own[0],
		},
		"ProfileIsNoRole": {
			reason:  "An instance profile of the name is not a role: the account's role at path /.",
			resolve: guardrails.RoleARN,
			args:    "db",
			want:    "arn:aws:iam::" + account + ":role/db",
		},
		"ProfileARN": {
			reason:  "A profile's ARN is kept.",
			resolve: guardrails.InstanceProfileARN,
			args:    "arn:aws:iam::" + outside + ":instance-profile/x",
			want:    "arn:aws:iam::" + outside + ":instance-profile/x",
		},
		"OwnProfile": {
			reason:  "The name of a profile the namespace made is that profile, whatever its path.",
			resolve: guardrails.InstanceProfileARN,
			args:    "web",
			want:    own[1],
		},
		"OtherProfile": {
			reason:  "Any other name is the provider's account's profile at path /.",
			resolve: guardrails.InstanceProfileARN,
			args:    "ec2-web-server-role",
			want:    "arn:aws:iam::" + account + ":instance-profile/ec2-web-server-role",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.resolve(tenant, tc.args, own)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestParseRule(t *testing.T) {
	type want struct {
		Rule guardrails.Rule
		Err  bool
	}
	cases := map[string]struct {
		reason string
		args   string
		want   want
	}{
		"Rule": {
			reason: "NAMESPACE=VALUE is split at the first =.",
			args:   "*=arn:aws:iam::1:policy/a=b",
			want:   want{Rule: guardrails.Rule{Namespace: "*", Value: "arn:aws:iam::1:policy/a=b"}},
		},
		"NoNamespace": {
			reason: "A rule needs a namespace.",
			args:   "=x",
			want:   want{Err: true},
		},
		"NoValue": {
			reason: "A rule needs a value.",
			args:   "team-a",
			want:   want{Err: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r, err := guardrails.ParseRule("--x", tc.args)
			if diff := cmp.Diff(tc.want, want{Rule: r, Err: err != nil}); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
