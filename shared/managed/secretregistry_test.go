package managed

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// TestSecretsRegistered checks that the values SecretData and SecretValue return are
// registered in the pass's registry, that a key left out or a failed read registers nothing,
// and that a read outside a pass registers nowhere.
func TestSecretsRegistered(t *testing.T) {
	kube := fake.NewClientBuilder().WithObjects(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "tls"},
		Data: map[string][]byte{"tls.crt": []byte("cert-value"), "tls.key": []byte("key-value"), "other": []byte("not-read")}}).Build()
	cases := map[string]struct {
		reason string
		read   func(ctx context.Context) error
		want   []string
	}{
		"Data": {reason: "Every key returned is registered, and only those.", read: func(ctx context.Context) error {
			_, _, err := SecretData(ctx, kube, "ns", "spec.importFrom", "tls", []string{"tls.crt", "tls.key"}, []string{"ca.crt"})
			return err
		}, want: []string{"cert-value", "key-value"}},
		"Value": {reason: "SecretValue registers the one value.", read: func(ctx context.Context) error {
			_, _, err := SecretValue(ctx, kube, "ns", "spec.field", v1alpha1.SecretKeySelector{Name: "tls", Key: "tls.key"})
			return err
		}, want: []string{"key-value"}},
		"Missing": {reason: "A read that waits registers nothing.", read: func(ctx context.Context) error {
			_, _, err := SecretValue(ctx, kube, "ns", "spec.field", v1alpha1.SecretKeySelector{Name: "tls", Key: "absent"})
			if _, ok := AsWaiting(err); ok {
				return nil
			}
			return err
		}, want: []string{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx, secrets := WithSecrets(context.Background())
			if err := tc.read(ctx); err != nil {
				t.Fatal(err)
			}
			got := secrets.Values()
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	if _, _, err := SecretValue(context.Background(), kube, "ns", "spec.field", v1alpha1.SecretKeySelector{Name: "tls", Key: "tls.key"}); err != nil {
		t.Errorf("a read outside a pass: %v", err)
	}
	if got := (*Secrets)(nil).Values(); got != nil {
		t.Errorf("a nil registry holds %q", got)
	}
}
