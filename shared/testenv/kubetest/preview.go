package kubetest

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// PreviewCheck is what a family's test gives RunPreviewCheck for one of its kinds.
type PreviewCheck[O shared.Managed] struct {
	// New returns a new object of the kind, named name, in the test's namespace, that becomes
	// Ready on its own (as PolicyCheck.New).
	New func(name string) O
	// Change changes the object's spec in a way AWS applies in place.
	Change func(o O)
	// Calls returns the emulator's counters (service -> operation -> outcome -> calls).
	Calls func() map[string]map[string]map[string]int
}

// RunPreviewCheck checks Previews for one kind against a control plane, the family's operator
// and the emulator: a new object is planned as Create; once created (with changePolicy Manual),
// a change of its spec is planned as Update with the same changes the operator then puts in
// status.plan when the change is applied; once the plan is approved and applied, the object is
// planned as NoChange. No preview makes a single AWS call that is not a read. It logs the AWS
// reads each preview cost.
func RunPreviewCheck[O shared.Managed](t *testing.T, c client.Client, check PreviewCheck[O]) {
	t.Helper()
	o := check.New("preview")
	o.GetManagedSpec().ChangePolicy = shared.ChangePolicyManual
	ref := o.GetManagedSpec().ProviderRef
	WaitProviderReady(t, c, cmp.Or(ref.Namespace, o.GetNamespace()), ref.Name)
	res, reads := previewOnly(t, c, check.Calls, o)
	if res.Action != shared.PreviewCreate || len(res.Changes) == 0 {
		t.Errorf("preview of a new object = %+v, want Create with the spec's values", res)
	}
	t.Logf("preview of a new %s: %d AWS reads", res.Kind, reads)

	Create(t, c, o)
	o = WaitReady(t, c, o)
	desired := o.DeepCopyObject().(O)
	check.Change(desired)
	res, reads = previewOnly(t, c, check.Calls, desired)
	if res.Action != shared.PreviewUpdate || len(res.Changes) == 0 || res.ExternalName == "" {
		t.Fatalf("preview of a change = %+v, want Update with changes of an AWS resource", res)
	}
	t.Logf("preview of a change to %s %s: %d AWS reads, changes %+v", res.Kind, res.ExternalName, reads, res.Changes)

	Update(t, c, o, check.Change)
	o = WaitFor(t, c, o, Timeout, "the change waits for approval", func(o O) bool { return o.GetManagedStatus().Plan != nil })
	plan := o.GetManagedStatus().Plan
	if !slices.Equal(plan.Changes, res.Changes) {
		t.Errorf("applied, the change plans %+v; the preview said %+v", plan.Changes, res.Changes)
	}
	Update(t, c, o, func(o O) {
		a := o.GetAnnotations()
		if a == nil {
			a = map[string]string{}
		}
		a[shared.AnnotationApprovePlan] = plan.Hash
		o.SetAnnotations(a)
	})
	o = WaitFor(t, c, o, Timeout, "the approved plan is applied", func(o O) bool {
		st := o.GetManagedStatus()
		return st.Plan == nil && meta.IsStatusConditionTrue(st.Conditions, condition.TypeReady) &&
			meta.IsStatusConditionFalse(st.Conditions, condition.TypePlanPending) && st.ObservedGeneration == o.GetGeneration()
	})
	res, reads = previewOnly(t, c, check.Calls, o)
	if res.Action != shared.PreviewNoChange {
		t.Errorf("preview once the change is applied = %+v, want NoChange", res)
	}
	t.Logf("preview of an unchanged %s: %d AWS reads", res.Kind, reads)
	Delete(t, c, o)
	WaitGone(t, c, o)
}

// WaitProviderReady waits until the AWSProvider ns/name is Ready: until then a preview or a
// plan of an object that uses it, as a pass over it, waits for the provider.
func WaitProviderReady(t testing.TB, c client.Client, ns, name string) {
	t.Helper()
	key := client.ObjectKey{Namespace: ns, Name: name}
	p := &shared.AWSProvider{}
	deadline := time.Now().Add(Timeout)
	for time.Now().Before(deadline) {
		if err := c.Get(context.Background(), key, p); err == nil && meta.IsStatusConditionTrue(p.Status.Conditions, condition.TypeReady) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("AWSProvider %s is not Ready: %+v", key, p.Status.Conditions)
}

// previewOnly plans o with a Preview and returns its result and the AWS calls it cost, failing
// the test when any of them was not a read.
func previewOnly[O shared.Managed](t *testing.T, c client.Client, calls func() map[string]map[string]map[string]int, o O) (shared.PreviewResult, int) {
	t.Helper()
	before := calls()
	res := Preview(t, c, o.GetNamespace(), false, o)
	reads := 0
	for svc, ops := range calls() {
		for op, outcomes := range ops {
			n := 0
			for outcome, k := range outcomes {
				n += k - before[svc][op][outcome]
			}
			if n > 0 && !isRead(op) {
				t.Errorf("the preview made %d %s %s call(s), which write", n, svc, op)
			}
			reads += n
		}
	}
	if len(res) != 1 {
		t.Fatalf("the preview of %s gave %d results, want one", o.GetName(), len(res))
	}
	return res[0], reads
}

// isRead reports whether an AWS operation only reads, by the verbs AWS's APIs name reads with.
func isRead(op string) bool {
	return slices.ContainsFunc([]string{"Describe", "Get", "List", "Head"}, func(verb string) bool { return strings.HasPrefix(op, verb) })
}

// Preview asks the operators to plan objs in namespace ns (pruning the others when prune is
// set), waits for an answer for every object, deletes the Preview and returns the results.
func Preview(t testing.TB, c client.Client, ns string, prune bool, objs ...client.Object) []shared.PreviewResult {
	t.Helper()
	pv := &shared.Preview{ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: "preview-"}, Spec: shared.PreviewSpec{Prune: prune}}
	for _, o := range objs {
		pv.Spec.Objects = append(pv.Spec.Objects, runtime.RawExtension{Raw: manifestOf(t, c, o)})
	}
	Create(t, c, pv)
	defer Delete(t, c, pv)
	deadline := time.Now().Add(Timeout)
	for time.Now().Before(deadline) {
		if err := c.Get(context.Background(), client.ObjectKeyFromObject(pv), pv); err != nil {
			t.Fatalf("read Preview %s: %v", pv.Name, err)
		}
		if len(pv.Status.Families) > 0 && len(pv.Status.Results) >= len(objs) {
			return pv.Status.Results
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("Preview %s/%s was not answered: %+v", ns, pv.Name, pv.Status)
	return nil
}

// manifestOf returns o as a manifest: its kind, name, labels, annotations and spec.
func manifestOf(t testing.TB, c client.Client, o client.Object) []byte {
	t.Helper()
	gvk, err := apiutil.GVKForObject(o, c.Scheme())
	if err != nil {
		t.Fatal(err)
	}
	doc, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		t.Fatal(err)
	}
	annotations := maps.Clone(o.GetAnnotations())
	// The operator's own annotations are not in a manifest.
	maps.DeleteFunc(annotations, func(k, _ string) bool {
		return strings.HasPrefix(k, shared.Group+"/") && k != shared.AnnotationApprovePlan
	})
	raw, err := json.Marshal(map[string]any{"apiVersion": gvk.GroupVersion().String(), "kind": gvk.Kind, "spec": doc["spec"],
		"metadata": map[string]any{"name": o.GetName(), "labels": o.GetLabels(), "annotations": annotations}})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
