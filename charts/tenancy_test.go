package charts

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"helm.sh/helm/v3/pkg/chartutil"
)

// tenancyFlags are the operator flags the tenancy values and installID become.
var tenancyFlags = []string{"--operator-identity-namespaces=", "--assume-role-policy=", "--allow-endpoint-override=", "--sts-endpoint=", "--install-id="}

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
  stsEndpoint: https://sts.eu-west-1.amazonaws.com
installID: prod-eu-1
`
	customArgs := []string{
		"--operator-identity-namespaces=infra-system,platform",
		"--assume-role-policy=team-a=arn:aws:iam::123456789012:role/team-a-*",
		"--assume-role-policy=*=arn:aws:iam::123456789012:role/shared-readonly",
		"--allow-endpoint-override=true",
		"--sts-endpoint=https://sts.eu-west-1.amazonaws.com",
		"--install-id=prod-eu-1",
	}
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
			want:   []string{"--operator-identity-namespaces=*", "--allow-endpoint-override=false"},
		},
		"EveryValue": {
			reason: "Each value becomes its flag, one --assume-role-policy per entry.",
			args:   args{chart: "data", family: "data", values: custom},
			want:   customArgs,
		},
		"NoNamespaceMayUseTheOperatorIdentity": {
			reason: "An empty list passes an empty flag: no namespace may use the operator's identity.",
			args:   args{chart: "networking", family: "networking", values: "tenancy: {operatorIdentityNamespaces: []}"},
			want:   []string{"--operator-identity-namespaces=", "--allow-endpoint-override=false"},
		},
		"ThroughTheUmbrella": {
			reason: "In the umbrella a family's values go under its name.",
			args:   args{chart: Umbrella, family: "data", values: "data:" + strings.ReplaceAll(custom, "\n", "\n  ")},
			want:   customArgs,
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
