package engine

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// BenchmarkReconcileSteadyState measures the library's own cost of one periodic sync of an
// up-to-date, Ready resource: time and allocations per reconcile, and API server writes per
// reconcile (only lastSyncTime changes, so one status patch is expected).
func BenchmarkReconcileSteadyState(b *testing.B) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, v1alpha1.AddToScheme, testkind.AddToScheme} {
		if err := add(scheme); err != nil {
			b.Fatal(err)
		}
	}
	w := widget(withFinalizer, withExternalName("w-9"), applied)
	p := &v1alpha1.AWSProvider{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "aws", UID: "p-uid", Generation: 1},
		Spec: v1alpha1.AWSProviderSpec{Region: "us-east-1", Endpoint: "http://127.0.0.1:1",
			AccessKeyIDRef:     &v1alpha1.SecretKeySelector{Name: "creds", Key: "id"},
			SecretAccessKeyRef: &v1alpha1.SecretKeySelector{Name: "creds", Key: "secret"}},
		Status: v1alpha1.AWSProviderStatus{Ready: true, Conditions: []metav1.Condition{{
			Type: "Ready", Status: metav1.ConditionTrue, Reason: "CredentialsValid", ObservedGeneration: 1, LastTransitionTime: metav1.Now()}}},
	}
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "creds"},
		Data: map[string][]byte{"id": []byte("AKIDTEST"), "secret": []byte("s3cr3t")}}
	writes := 0
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(w, p, s).
		WithStatusSubresource(&testkind.Widget{}, &v1alpha1.AWSProvider{}).
		WithInterceptorFuncs(interceptor.Funcs{
			Patch: func(ctx context.Context, c client.WithWatch, o client.Object, patch client.Patch, opts ...client.PatchOption) error {
				writes++
				return c.Patch(ctx, o, patch, opts...)
			},
			SubResourcePatch: func(ctx context.Context, c client.Client, sub string, o client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
				writes++
				return c.SubResource(sub).Patch(ctx, o, patch, opts...)
			},
		}).Build()
	cl := newCloud()
	inCloud(3, true)(cl, w)
	opts := testOptions
	opts.Now = nil
	r := NewReconciler(widgetKind(cl, nil), c, c, &provider.Resolver{Client: c, APIReader: c}, nil, "", 1, opts)
	req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "team", Name: "w"}}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Reconcile(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if cl.calls["Create"]+cl.calls["Update"] != 0 {
		b.Fatalf("a steady-state sync wrote to AWS: %v", cl.calls)
	}
	b.ReportMetric(float64(writes)/float64(b.N), "apiwrites/op")
	b.ReportMetric(float64(cl.calls["Observe"])/float64(b.N), "observes/op")
}
