package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// TestChangePolicyManual checks changePolicy Manual against a real API server: the widget is
// created without approval; a spec change is shown in status.plan (fields with AWS's and the
// spec's values, a hash) with PlanPending and makes no AWS write; an annotation with another
// hash, or with the hash of a plan the spec has since changed, applies nothing; the current
// hash applies exactly that plan and clears it; and drift waits for approval too, reported.
func TestChangePolicyManual(t *testing.T) {
	cl := newCloud()
	cl.immediate = true
	env := startWidgets(t, cl, func(*SetupOptions) {})
	ns := env.Namespace(t)
	env.Provider(t, ns, "aws", "AKIDTEST", "secret")
	w := newWidget(t, env, ns, "w", 2, func(w *testkind.Widget) { w.Spec.ChangePolicy = v1alpha1.ChangePolicyManual })
	created := waitFor(t, env, ns, "created without approval", func(w *testkind.Widget) bool { return w.Status.Ready })
	id := managed.ExternalName(created)
	size := func() int32 {
		cl.mu.Lock()
		defer cl.mu.Unlock()
		return cl.items[id].Size
	}
	updates := func() int {
		cl.mu.Lock()
		defer cl.mu.Unlock()
		return cl.calls["Update"]
	}

	updateObject(t, env, w, func(w *testkind.Widget) { w.Spec.Size = 5 })
	planned := waitFor(t, env, ns, "the change waits in status.plan", func(w *testkind.Widget) bool {
		return condOf(w.Status.Conditions, condition.TypePlanPending) == "True/"+condition.ReasonAwaitingApproval && w.Status.Plan != nil
	})
	first := planned.Status.Plan
	if len(first.Changes) != 1 || first.Changes[0] != (v1alpha1.PlannedChange{Field: "size", Current: "2", Desired: "5"}) || len(first.Hash) != planHashLength {
		t.Errorf("status.plan = %+v, want size 2 -> 5 with a hash", first)
	}
	if !planned.Status.Ready || size() != 2 || updates() != 0 {
		t.Errorf("before approval: Ready %v, size in AWS %d, %d update calls; want Ready, 2, none", planned.Status.Ready, size(), updates())
	}

	// A wrong hash applies nothing.
	approve := func(hash string) {
		updateObject(t, env, w, func(w *testkind.Widget) {
			metav1.SetMetaDataAnnotation(&w.ObjectMeta, v1alpha1.AnnotationApprovePlan, hash)
		})
	}
	observed := func() int {
		cl.mu.Lock()
		defer cl.mu.Unlock()
		return cl.calls["Observe"]
	}
	before := observed()
	approve("000000000000")
	waitFor(t, env, ns, "the annotation is looked at", func(*testkind.Widget) bool { return observed() > before })
	if updates() != 0 {
		t.Fatalf("a wrong hash applied the plan")
	}

	// The hash of a plan that the spec has changed since (in the same write) applies nothing:
	// the new plan waits.
	updateObject(t, env, w, func(w *testkind.Widget) {
		w.Spec.Size = 6
		metav1.SetMetaDataAnnotation(&w.ObjectMeta, v1alpha1.AnnotationApprovePlan, first.Hash)
	})
	second := waitFor(t, env, ns, "the changed plan waits", func(w *testkind.Widget) bool {
		return w.Status.Plan != nil && w.Status.Plan.Hash != first.Hash
	}).Status.Plan
	if second.Changes[0].Desired != "6" || updates() != 0 || size() != 2 {
		t.Fatalf("a plan that changed since its approval was applied: plan %+v, %d updates, size %d", second, updates(), size())
	}

	// The current hash applies exactly that plan.
	approve(second.Hash)
	done := waitFor(t, env, ns, "the approved plan is applied", func(w *testkind.Widget) bool {
		return condOf(w.Status.Conditions, condition.TypePlanPending) == "False/"+condition.ReasonPlanApproved && w.Status.Plan == nil && w.Status.Ready
	})
	if size() != 6 || updates() != 1 || done.Status.ObservedGeneration != done.Generation {
		t.Errorf("after approval: size %d, %d updates, observed generation %d of %d; want 6, one update, current", size(), updates(), done.Status.ObservedGeneration, done.Generation)
	}

	// Drift waits for approval too, and is reported.
	cl.mu.Lock()
	cl.items[id].Size = 9
	cl.mu.Unlock()
	updateObject(t, env, w, func(w *testkind.Widget) {
		metav1.SetMetaDataAnnotation(&w.ObjectMeta, v1alpha1.AnnotationResync, time.Now().String())
	})
	drift := waitFor(t, env, ns, "drift waits for approval", func(w *testkind.Widget) bool {
		return w.Status.Plan != nil && condOf(w.Status.Conditions, condition.TypeDrifted) == "True/"+condition.ReasonDriftReported
	})
	if c := drift.Status.Plan.Changes; len(c) != 1 || c[0].Current != "9" || c[0].Desired != "6" || size() != 9 {
		t.Errorf("drift under Manual: plan %+v, size %d; want 9 -> 6 waiting", c, size())
	}
}

// TestPendingPlan checks the plan status.plan shows: one entry per field, sorted by field,
// values as the driver shows them with every secret value the pass read scrubbed, and a hash
// that follows the changes and the spec but not the order in which the driver planned them.
func TestPendingPlan(t *testing.T) {
	noop := func(context.Context) error { return nil }
	var plan managed.Plan
	plan.AddValue("size", 2, 5, noop)
	plan.AddValue("description", "old", "token "+testSecret, noop)
	plan.AddFields([]string{"password", "size"}, noop)
	p := &pass[*testkind.Widget]{o: widget(), secrets: registry(testSecret)}
	got := pendingPlan(p, plan)
	want := []v1alpha1.PlannedChange{
		{Field: "description", Current: "old", Desired: "token " + secretMarker},
		{Field: "password"},
		{Field: "size", Current: "2", Desired: "5"},
	}
	if diff := cmp.Diff(want, got.Changes); diff != "" {
		t.Errorf("plan changes (-want +got):\n%s", diff)
	}
	if strings.Contains(fmt.Sprint(got), testSecret) {
		t.Errorf("the plan shows a secret value: %v", got)
	}

	reordered := managed.Plan{plan[2], plan[1], plan[0]}
	if h := pendingPlan(p, reordered).Hash; h != got.Hash {
		t.Errorf("the same changes planned in another order have another hash: %s, %s", h, got.Hash)
	}
	other := &pass[*testkind.Widget]{o: widget(func(w *testkind.Widget) { w.Spec.Size = 4 }), secrets: p.secrets}
	if h := pendingPlan(other, plan).Hash; h == got.Hash {
		t.Errorf("another spec with the same changes has the same hash %s", h)
	}
	var fewer managed.Plan
	fewer.AddValue("size", 2, 5, noop)
	if h := pendingPlan(p, fewer).Hash; h == got.Hash || len(h) != planHashLength {
		t.Errorf("other changes: hash %q, want another hash of %d digits than %s", h, planHashLength, got.Hash)
	}
}
