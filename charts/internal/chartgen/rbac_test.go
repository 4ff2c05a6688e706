package chartgen

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSplitRules checks that the Lease rule and the rules on Secrets and ConfigMaps leave the
// cluster rules, also when controller-gen merged them into a rule with other resources or
// groups, and that a role without the Lease or Secret rule is refused.
func TestSplitRules(t *testing.T) {
	const head = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: r\nrules:\n"
	const leaseRule = "- apiGroups: [coordination.k8s.io]\n  resources: [leases]\n  verbs: [get, update]\n"
	const lease = "- apiGroups:\n  - coordination.k8s.io\n  resources:\n  - leases\n  verbs:\n  - get\n  - update\n"
	const secrets = "- apiGroups:\n  - \"\"\n  resources:\n  - secrets\n  verbs:\n  - get\n  - list\n"
	type want struct {
		rules roleRules
		err   bool
	}
	cases := map[string]struct {
		reason string
		role   string
		want   want
	}{
		"SeparateRules": {
			reason: "Secrets and the Lease leave the cluster rules; the rest stays.",
			role: head + "- apiGroups: [\"\"]\n  resources: [secrets]\n  verbs: [get, list]\n" +
				"- apiGroups: [\"\"]\n  resources: [events]\n  verbs: [create]\n" + leaseRule,
			want: want{rules: roleRules{
				Cluster: "- apiGroups:\n  - \"\"\n  resources:\n  - events\n  verbs:\n  - create\n",
				Secrets: secrets,
				Lease:   lease,
			}},
		},
		"MergedRule": {
			reason: "Secrets and ConfigMaps merged with other resources and groups are split off; the rest keeps its grants.",
			role:   head + "- apiGroups: [\"\", apps]\n  resources: [configmaps, events, secrets]\n  verbs: [get, list]\n" + leaseRule,
			want: want{rules: roleRules{
				Cluster: "- apiGroups:\n  - \"\"\n  - apps\n  resources:\n  - events\n  verbs:\n  - get\n  - list\n" +
					"- apiGroups:\n  - apps\n  resources:\n  - configmaps\n  - secrets\n  verbs:\n  - get\n  - list\n",
				Secrets: "- apiGroups:\n  - \"\"\n  resources:\n  - configmaps\n  - secrets\n  verbs:\n  - get\n  - list\n",
				Lease:   lease,
			}},
		},
		"SecretsOfAnotherGroup": {
			reason: "A resource called secrets outside the core group is no Secret.",
			role: head + "- apiGroups: [\"\"]\n  resources: [secrets]\n  verbs: [get, list]\n" +
				"- apiGroups: [example.com]\n  resources: [secrets]\n  verbs: [get]\n" + leaseRule,
			want: want{rules: roleRules{
				Cluster: "- apiGroups:\n  - example.com\n  resources:\n  - secrets\n  verbs:\n  - get\n",
				Secrets: secrets,
				Lease:   lease,
			}},
		},
		"NoLease": {
			reason: "The shared provider's markers grant the Lease; a role without it is stale.",
			role:   head + "- apiGroups: [\"\"]\n  resources: [secrets]\n  verbs: [get]\n",
			want:   want{err: true},
		},
		"NoSecrets": {
			reason: "The shared provider's markers grant Secret reads; a role without them is stale.",
			role:   head + leaseRule,
			want:   want{err: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rules, err := splitRules([]byte(tc.role))
			got := want{rules: rules, err: err != nil}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nsplitRules (-want +got):\n%s\nerror: %v", tc.reason, diff, err)
			}
		})
	}
}
