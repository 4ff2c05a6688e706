// Package kubetest holds the helpers the families' integration tests share: creating,
// updating and deleting objects against a test control plane, waiting for conditions and
// events, applying the seed examples, checking admission refusals, and counting the AWS calls
// an emulator answered.
package kubetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Timeout is how long the Wait helpers wait unless told otherwise.
const Timeout = 30 * time.Second

// Create creates o, failing the test when the API server refuses it.
func Create(t testing.TB, c client.Client, o client.Object) {
	t.Helper()
	if err := c.Create(context.Background(), o); err != nil {
		t.Fatalf("create %T %s: %v", o, o.GetName(), err)
	}
}

// Update applies mutate to the current o and writes it, retrying on conflicts.
func Update[O client.Object](t testing.TB, c client.Client, o O, mutate func(O)) {
	t.Helper()
	for i := 0; ; i++ {
		if err := c.Get(context.Background(), client.ObjectKeyFromObject(o), o); err != nil {
			t.Fatalf("get %s: %v", o.GetName(), err)
		}
		mutate(o)
		err := c.Update(context.Background(), o)
		if err == nil {
			return
		}
		if !apierrors.IsConflict(err) || i > 10 {
			t.Fatalf("update %s: %v", o.GetName(), err)
		}
	}
}

// WaitFor polls o until ok holds, failing the test with o's conditions after timeout.
func WaitFor[O shared.Managed](t testing.TB, c client.Client, o O, timeout time.Duration, what string, ok func(O) bool) O {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := c.Get(context.Background(), types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}, o)
		if err == nil && ok(o) {
			return o
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s %s/%s: %s not within %s (get: %v); conditions %+v", o.GetObjectKind().GroupVersionKind().Kind,
				o.GetNamespace(), o.GetName(), what, timeout, err, o.GetManagedStatus().Conditions)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// WaitReady waits until o is Ready for its current generation.
func WaitReady[O shared.Managed](t testing.TB, c client.Client, o O) O {
	t.Helper()
	return WaitFor(t, c, o, Timeout, "Ready", func(o O) bool {
		cond := meta.FindStatusCondition(o.GetManagedStatus().Conditions, "Ready")
		return cond != nil && cond.Status == metav1.ConditionTrue && o.GetManagedStatus().ObservedGeneration == o.GetGeneration()
	})
}

// WaitCondition waits until o's condition typ has the given status and reason.
func WaitCondition[O shared.Managed](t testing.TB, c client.Client, o O, typ, status, reason string) O {
	t.Helper()
	return WaitFor(t, c, o, Timeout, typ+"="+status+"/"+reason, func(o O) bool {
		cond := meta.FindStatusCondition(o.GetManagedStatus().Conditions, typ)
		return cond != nil && string(cond.Status) == status && cond.Reason == reason
	})
}

// WaitGone waits until o no longer exists in the cluster.
func WaitGone(t testing.TB, c client.Client, o client.Object) {
	t.Helper()
	deadline := time.Now().Add(Timeout)
	for {
		err := c.Get(context.Background(), client.ObjectKeyFromObject(o), o)
		if apierrors.IsNotFound(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was not released within %s (get: %v)", o.GetName(), Timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Delete deletes o and waits until it is gone from the cluster.
func Delete(t testing.TB, c client.Client, o client.Object) {
	t.Helper()
	if err := c.Delete(context.Background(), o); err != nil {
		t.Fatalf("delete %s: %v", o.GetName(), err)
	}
	WaitGone(t, c, o)
}

// Events returns the messages of the events about o with the given reason.
func Events(t testing.TB, c client.Client, o client.Object, reason string) []string {
	t.Helper()
	var list corev1.EventList
	if err := c.List(context.Background(), &list, client.InNamespace(o.GetNamespace())); err != nil {
		t.Fatalf("list events: %v", err)
	}
	var out []string
	for _, e := range list.Items {
		if e.InvolvedObject.Name == o.GetName() && e.Reason == reason {
			out = append(out, e.Message)
		}
	}
	return out
}

// WaitEvent waits for an event about o with the given reason whose message holds text.
func WaitEvent(t testing.TB, c client.Client, o client.Object, reason, text string) {
	t.Helper()
	deadline := time.Now().Add(Timeout)
	for {
		for _, m := range Events(t, c, o, reason) {
			if strings.Contains(m, text) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s event about %s holding %q; got %v", reason, o.GetName(), text, Events(t, c, o, reason))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// SeedObjects reads the manifests of the file at path (seed examples, kept verbatim) as
// unstructured objects.
func SeedObjects(t testing.TB, path string) []*unstructured.Unstructured {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
	var out []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return out
			}
			t.Fatalf("decode %s: %v", path, err)
		}
		if len(u.Object) > 0 {
			out = append(out, u)
		}
	}
}

// ApplySeed creates every object of the manifest file at path in namespace ns (objects that
// name their namespace keep it) and returns them.
func ApplySeed(t testing.TB, c client.Client, path, ns string) []*unstructured.Unstructured {
	t.Helper()
	objs := SeedObjects(t, path)
	for _, u := range objs {
		if u.GetNamespace() == "" {
			u.SetNamespace(ns)
		}
		if err := c.Create(context.Background(), u); err != nil {
			t.Fatalf("apply %s %s from %s: %v", u.GetKind(), u.GetName(), path, err)
		}
	}
	return objs
}

// MustRefuse asserts that the API server refuses o at admission with a message holding text.
func MustRefuse(t testing.TB, c client.Client, o client.Object, text string) {
	t.Helper()
	err := c.Create(context.Background(), o)
	if err == nil {
		_ = c.Delete(context.Background(), o)
		t.Fatalf("%s was accepted; want a refusal holding %q", o.GetName(), text)
	}
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), text) {
		t.Fatalf("%s: want an Invalid error holding %q, got %v", o.GetName(), text, err)
	}
}

// MustRefuseUpdate applies mutate to the current o and asserts that the API server refuses the
// update at admission with a message holding text. Conflicts with the reconciler's own writes
// (a finalizer, a status) are retried, so the refusal is the one the spec change earns.
func MustRefuseUpdate[O client.Object](t testing.TB, c client.Client, o O, mutate func(O), text string) {
	t.Helper()
	cur := o.DeepCopyObject().(O)
	for i := 0; ; i++ {
		if err := c.Get(context.Background(), client.ObjectKeyFromObject(o), cur); err != nil {
			t.Fatalf("get %s: %v", o.GetName(), err)
		}
		mutate(cur)
		err := c.Update(context.Background(), cur)
		if apierrors.IsConflict(err) && i < 10 {
			continue
		}
		if err == nil {
			t.Fatalf("the update of %s was accepted; want a refusal holding %q", o.GetName(), text)
		}
		if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), text) {
			t.Fatalf("%s: want an Invalid error holding %q, got %v", o.GetName(), text, err)
		}
		return
	}
}

// Resync asks the reconciler to look at o again at once, with a merge patch of the resync
// annotation that leaves the spec as the user wrote it.
func Resync(t testing.TB, c client.Client, o client.Object) {
	t.Helper()
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, shared.AnnotationResync, time.Now().Format(time.RFC3339Nano))
	if err := c.Patch(context.Background(), o, client.RawPatch(types.MergePatchType, []byte(patch))); err != nil {
		t.Fatalf("annotate %s for a resync: %v", o.GetName(), err)
	}
}

// ResyncUntil asks the reconciler to look at o again, every half second, until ok holds: a
// change made in AWS is seen at the first look that reads AWS after it.
func ResyncUntil(t testing.TB, c client.Client, o client.Object, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(Timeout)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s not within %s", o.GetName(), what, Timeout)
		}
		Resync(t, c, o)
		time.Sleep(500 * time.Millisecond)
	}
}

// Calls returns how many calls of service an emulator's counters snapshot (service ->
// operation -> outcome -> count) holds, by operation.
func Calls(snapshot map[string]map[string]map[string]int, service string) map[string]int {
	out := map[string]int{}
	for op, outcomes := range snapshot[service] {
		for _, n := range outcomes {
			out[op] += n
		}
	}
	return out
}

// Total adds up the counts of a calls map.
func Total(calls map[string]int) int {
	n := 0
	for _, c := range calls {
		n += c
	}
	return n
}

// ConditionTexts renders conditions as "Type=Status/Reason: message", for failure messages.
func ConditionTexts(conds []metav1.Condition) []string {
	var out []string
	for _, c := range conds {
		out = append(out, c.Type+"="+string(c.Status)+"/"+c.Reason+": "+c.Message)
	}
	return out
}
