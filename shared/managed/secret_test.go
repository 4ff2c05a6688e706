package managed

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// TestSecretData checks that required keys must be there and not empty, optional keys are
// left out when absent, a missing Secret or key is a WaitingError naming it without any
// value, and SecretValue reads one key the same way.
func TestSecretData(t *testing.T) {
	ctx := context.Background()
	kube := fake.NewClientBuilder().WithObjects(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "tls"},
		Data: map[string][]byte{"tls.crt": []byte("cert-value"), "tls.key": []byte("key-value"), "empty": nil}}).Build()

	data, version, err := SecretData(ctx, kube, "ns", "spec.importFrom", "tls", []string{"tls.crt", "tls.key"}, []string{"ca.crt", "empty"})
	if err != nil || string(data["tls.crt"]) != "cert-value" || string(data["tls.key"]) != "key-value" || len(data) != 2 || !strings.HasPrefix(version, "tls/") {
		t.Errorf("SecretData = %q, %q, %v", data, version, err)
	}
	for name, tc := range map[string]struct {
		secret, key, reason string
	}{
		"MissingSecret": {"other", "tls.crt", condition.ReasonSecretNotFound},
		"MissingKey":    {"tls", "ca.crt", condition.ReasonSecretKeyNotFound},
		"EmptyKey":      {"tls", "empty", condition.ReasonSecretKeyNotFound},
	} {
		_, _, err := SecretValue(ctx, kube, "ns", "spec.field", v1alpha1.SecretKeySelector{Name: tc.secret, Key: tc.key})
		w, ok := AsWaiting(err)
		if !ok || w.Reason != tc.reason || !strings.Contains(w.Message, tc.secret) || strings.Contains(w.Message, "-value") {
			t.Errorf("%s: %v, want a WaitingError %s naming Secret %s and no value", name, err, tc.reason, tc.secret)
		}
	}
	if v, _, err := SecretValue(ctx, kube, "ns", "spec.field", v1alpha1.SecretKeySelector{Name: "tls", Key: "tls.key"}); err != nil || string(v) != "key-value" {
		t.Errorf("SecretValue = %q, %v", v, err)
	}
}
