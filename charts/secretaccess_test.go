package charts

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestSecretAccess checks where a family chart lets the operator read Secrets (and write the
// outputs Secrets and ConfigMaps): cluster-wide when it watches every namespace, otherwise only
// in each watched namespace, through a Role and a RoleBinding there, and nowhere through the
// chart when rbac.create is off.
func TestSecretAccess(t *testing.T) {
	type want struct {
		// clusterWide is whether the ClusterRole grants Secret reads; nil when there is none.
		clusterWide *bool
		// namespaces are those where a Role and RoleBinding grant the ServiceAccount Secret reads.
		namespaces []string
	}
	yes, no := true, false
	cases := map[string]struct {
		reason string
		vals   map[string]any
		want   want
	}{
		"EveryNamespace": {
			reason: "An operator of every namespace reads Secrets through its ClusterRole.",
			want:   want{clusterWide: &yes},
		},
		"WatchedNamespaces": {
			reason: "An operator of some namespaces reads Secrets only there.",
			vals:   map[string]any{"watchNamespaces": []any{"team-a", "team-b"}},
			want:   want{clusterWide: &no, namespaces: []string{"team-a", "team-b"}},
		},
		"NoRBAC": {
			reason: "Without rbac.create the chart grants nothing.",
			vals:   map[string]any{"watchNamespaces": []any{"team-a"}, "rbac": map[string]any{"create": false}},
		},
	}
	for _, family := range Families() {
		for name, tc := range cases {
			t.Run(family+"/"+name, func(t *testing.T) {
				m := mustRender(t, family, tc.vals)
				var got want
				if u, ok := m["ClusterRole/"+namespace+"-test-"+family]; ok {
					var role rbacv1.ClusterRole
					if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &role); err != nil {
						t.Fatalf("decode the ClusterRole: %v", err)
					}
					reads := readsSecrets(role.Rules)
					got.clusterWide = &reads
					if writes := grants(role.Rules, "", "configmaps", "create"); writes != reads {
						t.Errorf("the ClusterRole grants ConfigMap writes: %v, Secret reads: %v; want both or neither", writes, reads)
					}
				}
				for _, ns := range []string{"team-a", "team-b"} {
					if secretRoleIn(t, m, family, ns) {
						got.namespaces = append(got.namespaces, ns)
					}
				}
				if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
					t.Errorf("%s\nSecret access (-want +got):\n%s", tc.reason, diff)
				}
			})
		}
	}
}

// readsSecrets reports whether rules let the operator get, list and watch core Secrets.
func readsSecrets(rules []rbacv1.PolicyRule) bool {
	return grants(rules, "", "secrets", "get") && grants(rules, "", "secrets", "list") && grants(rules, "", "secrets", "watch")
}

// secretRoleIn reports whether m holds, in namespace ns, a Role that grants exactly the Secret
// and ConfigMap verbs (Secret reads, and the writes of outputs Secrets and ConfigMaps) and a
// RoleBinding that gives it to the release's ServiceAccount.
func secretRoleIn(t *testing.T, m manifest, family, ns string) bool {
	t.Helper()
	name := namespace + "-test-" + family + "-secrets"
	ru, rok := m["Role/"+ns+"/"+name]
	bu, bok := m["RoleBinding/"+ns+"/"+name]
	if !rok || !bok {
		if rok != bok {
			t.Errorf("in %s: Role rendered %v, RoleBinding rendered %v; want both or neither", ns, rok, bok)
		}
		return false
	}
	var role rbacv1.Role
	var binding rbacv1.RoleBinding
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(ru.Object, &role); err != nil {
		t.Fatalf("decode the Role: %v", err)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(bu.Object, &binding); err != nil {
		t.Fatalf("decode the RoleBinding: %v", err)
	}
	wantRules := []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"create", "get", "patch", "update"}},
		{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"create", "get", "list", "patch", "update", "watch"}},
	}
	if diff := cmp.Diff(wantRules, role.Rules); diff != "" {
		t.Errorf("the Secret Role in %s (-want +got):\n%s", ns, diff)
	}
	wantSubject := rbacv1.Subject{Kind: "ServiceAccount", Name: "test-" + family, Namespace: namespace}
	if binding.RoleRef != (rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: name}) ||
		!slices.Equal(binding.Subjects, []rbacv1.Subject{wantSubject}) {
		t.Errorf("the Secret RoleBinding in %s binds %+v to %+v, want Role %s to %+v", ns, binding.RoleRef, binding.Subjects, name, wantSubject)
	}
	return true
}
