package operator

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/shared/guardrails"
)

func TestGuardrailsFlags(t *testing.T) {
	type want struct {
		IAM *guardrails.IAM
		Err bool
	}
	cases := map[string]struct {
		reason string
		args   []string
		want   want
	}{
		"Defaults": {
			reason: "With no flag, the default managed policies are denied and nothing else is set.",
			want:   want{IAM: &guardrails.IAM{DeniedPolicies: guardrails.DefaultDeniedPolicies}},
		},
		"LockedDown": {
			reason: "Every rule flag is parsed into its rules.",
			args: []string{"--iam-permissions-boundary=*=arn:aws:iam::{account}:policy/tenant", "--iam-trusted-accounts=team-a=222222222222",
				"--iam-role-prefix=*={namespace}-", "--iam-role-path=*=/{namespace}/", "--passable-roles=team-a=arn:aws:iam::*:role/shared-*",
				"--iam-denied-policies=arn:aws*:iam::aws:policy/AdministratorAccess", "--iam-denied-policies=arn:aws:iam::*:policy/admin-*"},
			want: want{IAM: &guardrails.IAM{
				Boundaries:      []guardrails.Rule{{Namespace: "*", Value: "arn:aws:iam::{account}:policy/tenant"}},
				TrustedAccounts: []guardrails.Rule{{Namespace: "team-a", Value: "222222222222"}},
				DeniedPolicies:  []string{"arn:aws*:iam::aws:policy/AdministratorAccess", "arn:aws:iam::*:policy/admin-*"},
				RolePrefixes:    []guardrails.Rule{{Namespace: "*", Value: "{namespace}-"}},
				RolePaths:       []guardrails.Rule{{Namespace: "*", Value: "/{namespace}/"}},
				PassableRoles:   []guardrails.Rule{{Namespace: "team-a", Value: "arn:aws:iam::*:role/shared-*"}},
			}},
		},
		"DenyNone": {
			reason: `An empty --iam-denied-policies denies no managed policy.`,
			args:   []string{"--iam-denied-policies="},
			want:   want{IAM: &guardrails.IAM{}},
		},
		"BadBoundary": {
			reason: "A boundary that is not a policy ARN is refused at start.",
			args:   []string{"--iam-permissions-boundary=*=tenant"},
			want:   want{Err: true},
		},
		"BadAccount": {
			reason: "A trusted account that is not an account id is refused at start.",
			args:   []string{"--iam-trusted-accounts=*=arn:aws:iam::222222222222:root"},
			want:   want{Err: true},
		},
		"BadRule": {
			reason: "A rule without a namespace is refused at start.",
			args:   []string{"--passable-roles=arn:aws:iam::1:role/x"},
			want:   want{Err: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := parseFlags(t, tc.args)
			g, err := o.Guardrails()
			if diff := cmp.Diff(tc.want, want{IAM: g, Err: err != nil}); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if verr := o.Validate(); (verr != nil) != tc.want.Err {
				t.Errorf("%s: Validate() = %v", tc.reason, verr)
			}
		})
	}
}
