package engine

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/testenv"
)

// TestPreview checks that a Preview reports what applying manifests would do (update with
// values, create with the spec, a refusal, a wait for a reference, no change, a prune) without
// a single write to the cloud or to the existing objects, and that applying then does what the
// preview said.
func TestPreview(t *testing.T) {
	cl := newCloud()
	cl.immediate = true
	previews := &Previews{}
	env := startWidgets(t, cl, func(o *SetupOptions) { o.Previews = previews })
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDTEST", "secret")
	for name, size := range map[string]int32{"w": 2, "c": 1, "same": 3, "old": 4} {
		newWidget(t, env, ns, name, size)
		waitNamed(t, env, ns, name, "Ready", func(w *testkind.Widget) bool { return w.Status.Ready })
	}
	w := waitNamed(t, env, ns, "w", "Ready", func(w *testkind.Widget) bool { return w.Status.Ready })
	writes := func() int {
		cl.mu.Lock()
		defer cl.mu.Unlock()
		return cl.calls["Create"] + cl.calls["Update"] + cl.calls["Delete"]
	}
	before := writes()

	manifest := func(name string, size int32, mutate ...func(*testkind.Widget)) runtime.RawExtension {
		m := &testkind.Widget{TypeMeta: metav1.TypeMeta{APIVersion: v1alpha1.GroupVersion.String(), Kind: "Widget"},
			ObjectMeta: metav1.ObjectMeta{Name: name}}
		m.Spec.ProviderRef.Name, m.Spec.Size = "aws", size
		for _, f := range mutate {
			f(m)
		}
		raw, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return runtime.RawExtension{Raw: raw}
	}
	pv := &v1alpha1.Preview{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "plan"}, Spec: v1alpha1.PreviewSpec{Prune: true, Objects: []runtime.RawExtension{
		manifest("w", 5),
		manifest("fresh", 1),
		manifest("c", conflictSize),
		manifest("same", 3),
		manifest("child", 1, func(w *testkind.Widget) { w.Spec.ParentRef = &v1alpha1.Reference{Name: "missing"} }),
		manifest("elsewhere", 1, func(w *testkind.Widget) { w.Namespace = "other" }),
	}}}
	if err := env.Client.Create(context.Background(), pv); err != nil {
		t.Fatal(err)
	}
	answered := waitPreview(t, env, client.ObjectKeyFromObject(pv))
	if writes() != before {
		t.Errorf("the preview wrote to the cloud: %d write calls", writes()-before)
	}
	if answered.Status.ObservedGeneration != answered.Generation || len(answered.Status.Families) != 1 || answered.Status.Families[0] != "test" {
		t.Errorf("status = generation %d of %d, families %v; want the current generation and family test", answered.Status.ObservedGeneration,
			answered.Generation, answered.Status.Families)
	}
	got := map[string]v1alpha1.PreviewResult{}
	for _, r := range answered.Status.Results {
		got[r.Name] = r
	}
	expect := map[string]v1alpha1.PreviewAction{"w": v1alpha1.PreviewUpdate, "fresh": v1alpha1.PreviewCreate, "c": v1alpha1.PreviewRefused,
		"same": v1alpha1.PreviewNoChange, "child": v1alpha1.PreviewWaiting, "elsewhere": v1alpha1.PreviewRefused, "old": v1alpha1.PreviewDelete}
	for name, action := range expect {
		if got[name].Action != action || got[name].Kind != "Widget" || got[name].Family != "test" {
			t.Errorf("result of %s = %+v, want %s", name, got[name], action)
		}
	}
	if len(got) != len(expect) {
		t.Errorf("%d results, want %d: %+v", len(got), len(expect), answered.Status.Results)
	}
	if c := got["w"].Changes; len(c) != 1 || c[0] != (v1alpha1.PlannedChange{Field: "size", Current: "2", Desired: "5"}) || got["w"].ExternalName != managed.ExternalName(w) {
		t.Errorf("update of w = %+v, want size 2 -> 5 of %s", got["w"], managed.ExternalName(w))
	}
	if got["c"].Reason != condition.ReasonInvalidSpec || got["child"].Reason != condition.ReasonReferenceNotFound {
		t.Errorf("reasons: c %q, child %q; want %s and %s", got["c"].Reason, got["child"].Reason, condition.ReasonInvalidSpec, condition.ReasonReferenceNotFound)
	}
	var sizeShown bool
	for _, c := range got["fresh"].Changes {
		sizeShown = sizeShown || (c.Field == "size" && c.Desired == "1")
	}
	if !sizeShown {
		t.Errorf("create of fresh shows %+v, want its size", got["fresh"].Changes)
	}
	still := &testkind.Widget{}
	if err := env.Client.Get(context.Background(), client.ObjectKeyFromObject(w), still); err != nil || still.Spec.Size != 2 || still.Generation != w.Generation {
		t.Errorf("the existing object changed: size %d, generation %d (was %d), %v", still.Spec.Size, still.Generation, w.Generation, err)
	}

	// Applying does what the preview said: one update, to size 5.
	updateObject(t, env, w, func(w *testkind.Widget) { w.Spec.Size = 5 })
	waitNamed(t, env, ns, "w", "the update", func(w *testkind.Widget) bool { return w.Status.Ready && w.Status.ObservedGeneration == w.Generation })
	cl.mu.Lock()
	size, updates := cl.items[managed.ExternalName(w)].Size, cl.calls["Update"]
	cl.mu.Unlock()
	if size != 5 || updates != 1 {
		t.Errorf("after applying: size %d, %d updates; want 5 and one", size, updates)
	}
}

// waitPreview waits until the Preview key has an answer and returns it.
func waitPreview(t *testing.T, env *testenv.Env, key client.ObjectKey) *v1alpha1.Preview {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	pv := &v1alpha1.Preview{}
	for time.Now().Before(deadline) {
		if err := env.Client.Get(context.Background(), key, pv); err == nil && len(pv.Status.Families) > 0 {
			return pv
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("Preview %s was not answered: %+v", key, pv.Status)
	return nil
}
