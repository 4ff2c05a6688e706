package kubetest

import (
	"encoding/json"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// SetSecret creates the Kubernetes Secret name in ns with key holding value, or sets key to
// value in the Secret that exists, keeping its other keys.
func SetSecret(t testing.TB, c client.Client, ns, name, key, value string) {
	t.Helper()
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	if err := c.Get(t.Context(), client.ObjectKeyFromObject(s), s); err != nil {
		s.Data = map[string][]byte{key: []byte(value)}
		Create(t, c, s)
		return
	}
	Update(t, c, s, func(s *corev1.Secret) {
		if s.Data == nil {
			s.Data = map[string][]byte{}
		}
		s.Data[key] = []byte(value)
	})
}

// AssertNowhere fails the test when the secret value appears in o as the API server has it
// (spec, status, metadata) or in the message of any event of namespace ns, and when ns has no
// event at all (looking in none would prove nothing). The value itself is never printed.
func AssertNowhere(t testing.TB, c client.Client, ns string, o client.Object, value string) {
	t.Helper()
	if err := c.Get(t.Context(), client.ObjectKeyFromObject(o), o); err != nil {
		t.Fatalf("get %s: %v", o.GetName(), err)
	}
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatalf("marshal %s: %v", o.GetName(), err)
	}
	if strings.Contains(string(b), value) {
		t.Errorf("the secret value is in %s", o.GetName())
	}
	var events corev1.EventList
	if err := c.List(t.Context(), &events, client.InNamespace(ns)); err != nil {
		t.Fatalf("list the events of %s: %v", ns, err)
	}
	if len(events.Items) == 0 {
		t.Errorf("no events in %s: looking for the value in them proves nothing", ns)
	}
	for _, e := range events.Items {
		if strings.Contains(e.Message, value) {
			t.Errorf("the secret value is in event %s of %s", e.Reason, e.InvolvedObject.Name)
		}
	}
}
