package doctor

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestOpenSettings checks which operator arguments, as the chart writes them, leave a tenancy
// setting open to every namespace, role or host.
func TestOpenSettings(t *testing.T) {
	closed := []string{"--operator-identity-namespaces=platform", "--assume-role-policy=team-a=arn:aws:iam::1:role/a-*",
		"--adoption-namespaces=", "--passable-roles=team-a=arn:aws:iam::1:role/a-*"}
	cases := map[string]struct {
		reason string
		args   []string
		want   []string
	}{
		"Defaults": {
			reason: "The operator's defaults, which the chart's defaults keep, leave four settings open.",
			want: []string{"tenancy.operatorIdentityNamespaces", "tenancy.assumeRolePolicy", "tenancy.adoptionNamespaces",
				"guardrails.passableRoles"},
		},
		"Closed": {
			reason: "Naming the namespaces and roles closes every setting.",
			args:   closed,
		},
		"Wildcards": {
			reason: `A "*" value in a NAMESPACE=VALUE rule, or in a namespace list, opens the setting; unknown flags are ignored.`,
			args: append(closed, "--assume-role-policy=team-b=*", "--takeover-namespaces=*", "--foreign-write-namespaces=a,*",
				"--in-cluster-endpoints=dev=*", "--iam-trusted-accounts=team-a=*", "--flag-of-a-newer-operator=1"),
			want: []string{"tenancy.assumeRolePolicy", "tenancy.takeoverNamespaces", "tenancy.foreignWriteNamespaces",
				"tenancy.inClusterEndpoints", "guardrails.iam.trustedAccounts"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "infra-operator-data"}}
			dep.Spec.Template.Spec.Containers = []corev1.Container{{Name: "operator", Args: tc.args}}
			d := deployment{family: "data", obj: dep}
			d.opts, d.optsErr = operatorOptions(dep)
			if d.optsErr != nil {
				t.Fatal(d.optsErr)
			}
			var got []string
			for _, s := range openSettings(d) {
				got = append(got, s.value)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
