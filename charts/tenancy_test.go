package charts

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"helm.sh/helm/v3/pkg/chartutil"
)

// tenancyFlags are the operator flags the tenancy values and installID become.
var tenancyFlags = []string{"--operator-identity-namespaces=", "--assume-role-policy=", "--allow-endpoint-override=",
	"--allow-loopback-endpoints=", "--in-cluster-endpoints=", "--sts-endpoint=", "--role-session-tags=", "--adoption-namespaces=",
	"--takeover-namespaces=", "--foreign-write-namespaces=", "--iam-permissions-boundary=", "--iam-trusted-accounts=",
	"--iam-denied-policies=", "--iam-role-prefix=", "--iam-role-path=", "--passable-roles=", "--install-id="}

// TestTenancyArgs checks the operator flags that the tenancy values and installID become, with
// the defaults and with a values file that sets every one, in a family chart and through the
// umbrella.
func TestTenancyArgs(t *testing.T) {
	const custom = `
tenancy:
  operatorIdentityNamespaces: [infra-system, platform]
  assumeRolePolicy:
    - namespace: team-a
      roleARNPattern: arn:aws:iam::123456789012:role/team-a-*
    - namespace: "*"
      roleARNPattern: arn:aws:iam::123456789012:role/shared-readonly
  allowEndpointOverride: true
  allowLoopbackEndpoints: true
  inClusterEndpoints:
    - namespace: dev
      hostPattern: localstack
  stsEndpoint: https://sts.eu-west-1.amazonaws.com
  roleSessionTags: false
  adoptionNamespaces: [infra-system]
  takeoverNamespaces: [infra-system]
  foreignWriteNamespaces: [platform]
guardrails:
  iam:
    permissionsBoundary: [{namespace: "*", policyARN: "arn:aws:iam::{account}:policy/boundary"}]
    trustedAccounts: [{namespace: platform, accountID: "210987654321"}]
    deniedPolicies: ["arn:aws*:iam::aws:policy/AdministratorAccess"]
    rolePrefix: [{namespace: "*", prefix: "{namespace}-"}]
    rolePath: [{namespace: "*", pathPrefix: "/teams/"}]
  passableRoles: [{namespace: team-a, roleARNPattern: "arn:aws:iam::123456789012:role/team-a-*"}]
installID: prod-eu-1
`
	customArgs := []string{
		"--operator-identity-namespaces=infra-system,platform",
		"--assume-role-policy=team-a=arn:aws:iam::123456789012:role/team-a-*",
		"--assume-role-policy=*=arn:aws:iam::123456789012:role/shared-readonly",
		"--allow-endpoint-override=true",
		"--allow-loopback-endpoints=true",
		"--in-cluster-endpoints=dev=localstack",
		"--sts-endpoint=https://sts.eu-west-1.amazonaws.com",
		"--role-session-tags=false",
		"--adoption-namespaces=infra-system",
		"--takeover-namespaces=infra-system",
		"--foreign-write-namespaces=platform",
		"--iam-permissions-boundary=*=arn:aws:iam::{account}:policy/boundary",
		"--iam-trusted-accounts=platform=210987654321",
		"--iam-denied-policies=arn:aws*:iam::aws:policy/AdministratorAccess",
		"--iam-role-prefix=*={namespace}-",
		"--iam-role-path=*=/teams/",
		"--passable-roles=team-a=arn:aws:iam::123456789012:role/team-a-*",
		"--install-id=prod-eu-1",
	}
	defaults := []string{"--operator-identity-namespaces=*", "--allow-endpoint-override=false", "--adoption-namespaces=*"}
	type args struct {
		chart, family, values string
	}
	cases := map[string]struct {
		reason string
		args   args
		want   []string
	}{
		"Defaults": {
			reason: "Every namespace may use the operator's identity, any role may be assumed, endpoints are not honoured; no STS endpoint or install id is passed.",
			args:   args{chart: "data", family: "data"},
			want:   defaults,
		},
		"EveryValue": {
			reason: "Each value becomes its flag, one --assume-role-policy per entry.",
			args:   args{chart: "data", family: "data", values: custom},
			want:   customArgs,
		},
		"NoNamespaceMayUseTheOperatorIdentity": {
			reason: "An empty list passes an empty flag: no namespace may use the operator's identity.",
			args:   args{chart: "networking", family: "networking", values: "tenancy: {operatorIdentityNamespaces: []}"},
			want:   []string{"--operator-identity-namespaces=", "--allow-endpoint-override=false", "--adoption-namespaces=*"},
		},
		"ThroughTheUmbrella": {
			reason: "In the umbrella a family's values go under its name.",
			args:   args{chart: Umbrella, family: "data", values: "data:" + strings.ReplaceAll(custom, "\n", "\n  ")},
			want:   customArgs,
		},
		"UmbrellaGlobalForEveryFamily": {
			reason: "The umbrella's global tenancy and guardrails override each family's own, key by key, an empty list too.",
			args: args{chart: Umbrella, family: "caching", values: `
global:
  tenancy: {operatorIdentityNamespaces: [], adoptionNamespaces: []}
  guardrails: {iam: {deniedPolicies: []}, passableRoles: [{namespace: team-a, roleARNPattern: "arn:aws:iam::*:role/team-a-*"}]}
caching:
  tenancy: {operatorIdentityNamespaces: ["*"], allowEndpointOverride: true}
`},
			want: []string{"--operator-identity-namespaces=", "--allow-endpoint-override=true", "--adoption-namespaces=",
				"--iam-denied-policies=", "--passable-roles=team-a=arn:aws:iam::*:role/team-a-*"},
		},
		"EmptyDeniedPolicies": {
			reason: "An empty deniedPolicies list denies none; unset, the operator's default list applies (no flag).",
			args:   args{chart: "security", family: "security", values: "guardrails: {iam: {deniedPolicies: []}}"},
			want:   append(slices.Clone(defaults), "--iam-denied-policies="),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			vals, err := chartutil.ReadValues([]byte(tc.args.values))
			if err != nil {
				t.Fatalf("values: %v", err)
			}
			m := mustRender(t, tc.args.chart, vals)
			var got []string
			for _, a := range container(t, m.get(t, "Deployment/test-"+tc.args.family)).Args {
				if slices.ContainsFunc(tenancyFlags, func(f string) bool { return strings.HasPrefix(a, f) }) {
					got = append(got, a)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\ntenancy args (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
