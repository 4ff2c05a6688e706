package engine

import (
	"context"
	"io/fs"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/ststest"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestWriteOutputs checks spec.writeOutputsTo against a real API server: the outputs
// ConfigMap is created owned by the object with the declared values and only the Secret's
// name and key; switched to a Secret the value itself is copied; a changed Secret value is
// written again; and a Secret of the same name that the object did not create is never
// written, with a condition that says so.
func TestWriteOutputs(t *testing.T) {
	env := testenv.Start(t, testenv.Options{
		CRDs:        []fs.FS{testkind.CRDs()},
		AddToScheme: []func(*runtime.Scheme) error{testkind.AddToScheme},
		AWS:         &ststest.Server{Accounts: map[string]string{"AKIDTEST": "123456789012"}},
	})
	cl := newCloud()
	cl.immediate = true
	startManager(t, env, cl)
	ctx := context.Background()
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDTEST", "secret")
	token := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "token"}, Data: map[string][]byte{"value": []byte("t0ken-1")}}
	if err := env.Client.Create(ctx, token); err != nil {
		t.Fatal(err)
	}

	w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "w"}}
	w.Spec.ProviderRef.Name = "aws"
	w.Spec.Size = 2
	w.Spec.TokenSecretRef = &v1alpha1.SecretKeySelector{Name: "token", Key: "value"}
	w.Spec.WriteOutputsTo = &v1alpha1.OutputsTarget{Kind: "ConfigMap", Name: "w-outputs"}
	if err := env.Client.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	got := waitFor(t, env, ns, "Ready with outputs", func(w *testkind.Widget) bool { return w.Status.Ready })
	cm := &corev1.ConfigMap{}
	if err := env.Client.Get(ctx, types.NamespacedName{Namespace: ns, Name: "w-outputs"}, cm); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"widgetID": got.Status.WidgetID, "tokenSecretName": "token", "tokenSecretKey": "value"}
	if len(cm.Data) != len(want) || cm.Data["widgetID"] != want["widgetID"] || cm.Data["tokenSecretName"] != "token" || cm.Data["tokenSecretKey"] != "value" {
		t.Errorf("ConfigMap data = %v, want %v (never the token's value)", cm.Data, want)
	}
	if !metav1.IsControlledBy(cm, got) {
		t.Errorf("the ConfigMap is not owned by the widget: %v", cm.OwnerReferences)
	}

	// Switched to a Secret: the token's value is copied, and follows the token's changes.
	updateObject(t, env, got, func(w *testkind.Widget) {
		w.Spec.WriteOutputsTo = &v1alpha1.OutputsTarget{Kind: "Secret", Name: "w-secret"}
	})
	secretHas := func(value string) bool {
		s := &corev1.Secret{}
		return env.Client.Get(ctx, types.NamespacedName{Namespace: ns, Name: "w-secret"}, s) == nil &&
			string(s.Data["token"]) == value && string(s.Data["widgetID"]) == got.Status.WidgetID
	}
	waitFor(t, env, ns, "the outputs Secret holds the token", func(*testkind.Widget) bool { return secretHas("t0ken-1") })
	token.Data["value"] = []byte("t0ken-2")
	if err := env.Client.Update(ctx, token); err != nil {
		t.Fatal(err)
	}
	// The widget kind declares no Secrets to watch: touching the widget stands for the next
	// pass (a kind with a password Secret is woken by its watch).
	updateObject(t, env, got, func(w *testkind.Widget) {
		metav1.SetMetaDataAnnotation(&w.ObjectMeta, "test/touch", w.ResourceVersion)
	})
	waitFor(t, env, ns, "the outputs Secret follows the token", func(*testkind.Widget) bool { return secretHas("t0ken-2") })

	// A Secret the widget did not create is never written.
	foreign := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "taken"}, Data: map[string][]byte{"mine": []byte("x")}}
	if err := env.Client.Create(ctx, foreign); err != nil {
		t.Fatal(err)
	}
	updateObject(t, env, got, func(w *testkind.Widget) { w.Spec.WriteOutputsTo = &v1alpha1.OutputsTarget{Name: "taken"} })
	waitFor(t, env, ns, "a foreign Secret is refused", func(w *testkind.Widget) bool {
		return condOf(w.Status.Conditions, condition.TypeSynced) == "False/"+condition.ReasonOutputsNotWritten
	})
	if err := env.Client.Get(ctx, types.NamespacedName{Namespace: ns, Name: "taken"}, foreign); err != nil || len(foreign.Data) != 1 || len(foreign.OwnerReferences) != 0 {
		t.Errorf("the foreign Secret was changed: %v, %v", foreign.Data, err)
	}
}
