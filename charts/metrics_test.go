package charts

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestSecureMetrics checks what the metrics values render: by default an HTTPS endpoint, a
// ServiceMonitor that scrapes it with its ServiceAccount token, and a metrics-reader
// ClusterRole bound to the listed readers; with secure false, plain HTTP and no reader role.
func TestSecureMetrics(t *testing.T) {
	type want struct {
		flag, scheme string
		role         bool
		readers      []any
	}
	cases := map[string]struct {
		reason string
		values map[string]any
		want   want
	}{
		"SecureWithReaders": {
			reason: "The default is HTTPS; each reader is a subject of the metrics-reader binding.",
			values: map[string]any{"metrics": map[string]any{"serviceMonitor": map[string]any{"enabled": true},
				"readers": []any{map[string]any{"name": "prometheus", "namespace": "monitoring"}}}},
			want: want{flag: "--metrics-secure=true", scheme: "https", role: true,
				readers: []any{map[string]any{"kind": "ServiceAccount", "name": "prometheus", "namespace": "monitoring"}}},
		},
		"Plain": {
			reason: "secure false serves plain HTTP, scraped without a token, and needs no reader role.",
			values: map[string]any{"metrics": map[string]any{"secure": false, "serviceMonitor": map[string]any{"enabled": true}}},
			want:   want{flag: "--metrics-secure=false"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := mustRender(t, "data", tc.values)
			args := container(t, m.get(t, "Deployment/test-data")).Args
			if !slices.Contains(args, tc.want.flag) {
				t.Errorf("%s\nargs %v lack %s", tc.reason, args, tc.want.flag)
			}
			endpoints, _, _ := unstructured.NestedSlice(m.get(t, "ServiceMonitor/test-data").Object, "spec", "endpoints")
			scheme, _, _ := unstructured.NestedString(endpoints[0].(map[string]any), "scheme")
			if scheme != tc.want.scheme {
				t.Errorf("%s\nServiceMonitor scheme %q, want %q", tc.reason, scheme, tc.want.scheme)
			}
			_, role := m["ClusterRole/"+namespace+"-test-data-metrics-reader"]
			if role != tc.want.role {
				t.Errorf("%s\nmetrics-reader ClusterRole rendered: %v, want %v", tc.reason, role, tc.want.role)
			}
			var readers []any
			if b, ok := m["ClusterRoleBinding/"+namespace+"-test-data-metrics-reader"]; ok {
				readers, _, _ = unstructured.NestedSlice(b.Object, "subjects")
			}
			if diff := cmp.Diff(tc.want.readers, readers); diff != "" {
				t.Errorf("%s\nreaders (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
