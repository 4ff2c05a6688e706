package compute_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestLambdaFunctionEnvironmentTooLarge gives functions an environment over Lambda's 4 KB
// through a Secret's value, which Lambda's refusal would quote whole: a new function and a
// function whose Secret grows are both refused with EnvironmentTooLarge, naming the size,
// without a CreateFunction or UpdateFunctionConfiguration call, and the value appears in no
// status and no event.
func TestLambdaFunctionEnvironmentTooLarge(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()
	kubetest.Create(t, h.c, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "code"},
		BinaryData: map[string][]byte{"function.zip": awsfixture.Zip(t, "index.py", "v1")}})
	// A value no message has by chance, 4.5 KB long.
	large := "tenant-b-secret-" + strings.Repeat("0123456789abcdef", 280)
	withToken := func(secret string) func(*v1alpha1.LambdaFunction) {
		return func(f *v1alpha1.LambdaFunction) {
			f.Spec.Environment = &v1alpha1.Environment{Variables: map[string]string{"MODE": "live"},
				FromSecrets: []v1alpha1.SecretVariable{{Name: "API_TOKEN", SecretKeyRef: shared.SecretKeySelector{Name: secret, Key: "token"}}}}
		}
	}

	// A new function: refused before CreateFunction.
	kubetest.Create(t, h.c, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "large"}, StringData: map[string]string{"token": large}})
	fresh := newFunction(ns, "fresh", withToken("large"))
	kubetest.Create(t, h.c, fresh)
	fresh = kubetest.WaitCondition(t, h.c, fresh, condition.TypeStalled, "True", condition.ReasonEnvironmentTooLarge)
	if msg := syncedMessage(fresh); !strings.Contains(msg, "bytes") || !strings.Contains(msg, "4096") {
		t.Errorf("the refusal does not name the size and the limit: %s", msg)
	}
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda")["CreateFunction"]; n != 0 {
		t.Errorf("%d CreateFunction calls for an environment over 4 KB", n)
	}

	// A running function whose Secret grows: refused before UpdateFunctionConfiguration.
	small := "tenant-b-small-secret"
	kubetest.Create(t, h.c, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "grows"}, StringData: map[string]string{"token": small}})
	grows := newFunction(ns, "grows", withToken("grows"))
	kubetest.Create(t, h.c, grows)
	grows = kubetest.WaitReady(t, h.c, grows)
	updates := kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda")["UpdateFunctionConfiguration"]
	secret := &corev1.Secret{}
	if err := h.c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "grows"}, secret); err != nil {
		t.Fatal(err)
	}
	secret.StringData = map[string]string{"token": large}
	if err := h.c.Update(ctx, secret); err != nil {
		t.Fatal(err)
	}
	kubetest.WaitCondition(t, h.c, grows, condition.TypeStalled, "True", condition.ReasonEnvironmentTooLarge)
	if n := kubetest.Calls(h.emu.Calls.Snapshot(), "Lambda")["UpdateFunctionConfiguration"]; n != updates {
		t.Errorf("%d UpdateFunctionConfiguration calls for an environment over 4 KB", n-updates)
	}
	if got := h.function(t, grows.Spec.FunctionName).Configuration.Environment.Variables["API_TOKEN"]; got != small {
		t.Errorf("the function's environment changed to a value of %d bytes", len(got))
	}

	// The value is on no object and in no event.
	for _, f := range []*v1alpha1.LambdaFunction{fresh, grows} {
		got := &v1alpha1.LambdaFunction{}
		if err := h.c.Get(ctx, client.ObjectKeyFromObject(f), got); err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(got)
		if strings.Contains(string(raw), large[:32]) {
			t.Errorf("the Secret's value appears on %s", f.Name)
		}
	}
	events := &corev1.EventList{}
	if err := h.c.List(ctx, events, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(events)
	if strings.Contains(string(raw), large[:32]) || strings.Contains(string(raw), small) {
		t.Errorf("the Secret's value appears in an event")
	}
	if len(kubetest.Events(t, h.c, fresh, condition.ReasonEnvironmentTooLarge)) == 0 {
		t.Errorf("no %s event on %s", condition.ReasonEnvironmentTooLarge, fresh.Name)
	}
}

// syncedMessage returns the message of o's Synced condition.
func syncedMessage(f *v1alpha1.LambdaFunction) string {
	for _, c := range f.Status.Conditions {
		if c.Type == condition.TypeSynced {
			return c.Message
		}
	}
	return ""
}
