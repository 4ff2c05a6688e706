package engine

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

var testNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

var testOptions = Options{
	SyncPeriod:    10 * time.Minute,
	WaitInterval:  5 * time.Second,
	ProviderRetry: time.Minute,
	CreateGrace:   time.Minute,
	Now:           func() time.Time { return testNow },
}

// fixture is the state before one reconcile.
type fixture struct {
	widget     *testkind.Widget
	noProvider bool
	noSecret   bool
	notReady   bool
	cloud      func(c *cloud, w *testkind.Widget)
	validate   func(*testkind.Widget) error
	reconciles int
	// readyIn is the kind's ReadyIn.
	readyIn time.Duration
	// writes, when set, counts the reconciler's writes of the widget to the API server.
	writes *apiWrites
	// boundary, when set, replaces the default managed.Boundary.
	boundary *managed.Boundary
}

// apiWrites counts writes of the widget: patches of its metadata and of its status.
type apiWrites struct{ Meta, Status int }

// outcome summarises the state after the reconciles.
type outcome struct {
	Calls        map[string]int
	Ready        string
	Synced       string
	ExternalName string
	Pending      bool
	Finalizer    bool
	Gone         bool
	Requeue      string
	Err          bool
	Events       []string
	CloudItems   int
	OwnerTagged  bool
	// Stalled is the Stalled condition, set only for terminal errors.
	Stalled string
	// ObservedGeneration is checked only where a case sets it.
	ObservedGeneration int64
	// Drifted is the Drifted condition, and Drift the fields status.drift names.
	Drifted string
	Drift   []string
	// WidgetID is status.widgetID, which the driver's Observe fills in; checked only where a
	// case sets it, "none" for an empty one.
	WidgetID string
}

func widget(mutate ...func(*testkind.Widget)) *testkind.Widget {
	w := &testkind.Widget{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.GroupVersion.String(), Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "w", UID: "uid-1", Generation: 1},
		Spec: testkind.WidgetSpec{
			ManagedSpec: v1alpha1.ManagedSpec{ProviderRef: v1alpha1.ProviderReference{Name: "aws"}, DeletionPolicy: v1alpha1.DeletionPolicyDelete},
			Size:        3,
		},
	}
	for _, m := range mutate {
		m(w)
	}
	return w
}

func withFinalizer(w *testkind.Widget) { w.Finalizers = []string{v1alpha1.Finalizer} }
func withExternalName(id string) func(*testkind.Widget) {
	return func(w *testkind.Widget) { managed.SetExternalName(w, id) }
}
func deleting(policy v1alpha1.DeletionPolicy) func(*testkind.Widget) {
	return func(w *testkind.Widget) {
		withFinalizer(w)
		w.DeletionTimestamp = &metav1.Time{Time: testNow.Add(-time.Second)}
		w.Spec.DeletionPolicy = policy
	}
}
func applied(w *testkind.Widget) {
	w.Status.ObservedGeneration = w.Generation
	w.Status.Ready = true
	w.Status.Conditions = []metav1.Condition{{Type: condition.TypeReady, Status: metav1.ConditionTrue, Reason: condition.ReasonAvailable, LastTransitionTime: metav1.Time{Time: testNow}}}
}
func inCloud(size int32, ready bool) func(*cloud, *testkind.Widget) {
	return func(c *cloud, w *testkind.Widget) {
		pending := 0
		if !ready {
			pending = 1000
		}
		c.items["w-9"] = &widgetState{Size: size, Ready: ready, Tags: desiredTags(w, nil), PendingObserves: pending}
	}
}
func reportDrift(w *testkind.Widget) { w.Spec.DriftPolicy = v1alpha1.DriftPolicyReport }
func observeOnly(w *testkind.Widget) { w.Spec.ManagementPolicy = v1alpha1.ManagementPolicyObserveOnly }

// foreign puts in the cloud a ready widget w-9 of the given size that the operator did not
// create: it carries a tag of its own and no ownership tags.
func foreign(size int32) func(*cloud, *testkind.Widget) {
	return func(c *cloud, _ *testkind.Widget) {
		c.items["w-9"] = &widgetState{Size: size, Ready: true, Tags: map[string]string{"made-by": "terraform"}}
	}
}

// ownedIn puts in the cloud a ready widget w-9 of size 3 that the Widget ns/theirs (UID
// uid-other) owns.
func ownedIn(ns string) func(*cloud, *testkind.Widget) {
	return func(c *cloud, _ *testkind.Widget) {
		c.items["w-9"] = &widgetState{Size: 3, Ready: true, Tags: map[string]string{v1alpha1.TagOwnerUID: "uid-other",
			v1alpha1.TagOwnerKind: "Widget", v1alpha1.TagOwnerNamespace: ns, v1alpha1.TagOwnerName: "theirs"}}
	}
}
func takeover(w *testkind.Widget) { managed.SetAnnotation(w, v1alpha1.AnnotationTakeover, "true") }
func apiError(code string) error {
	return &smithy.GenericAPIError{Code: code, Message: code + " says no"}
}

func TestReconcile(t *testing.T) {
	cases := map[string]struct {
		reason string
		args   fixture
		want   outcome
	}{
		"Create": {
			reason: "A new object gets a finalizer, one create call, its id recorded, one more look in the same pass, and a short requeue while AWS creates it.",
			args:   fixture{widget: widget()},
			want: outcome{Calls: map[string]int{"Observe": 2, "Create": 1}, Ready: "False/Creating", Synced: "True/ReconcileSuccess",
				ExternalName: "w-1", Finalizer: true, Requeue: "wait", Events: []string{"Created"}, CloudItems: 1, OwnerTagged: true},
		},
		"CreateThenReady": {
			reason: "The created resource becomes Ready at a later reconcile, without a second create.",
			args:   fixture{widget: widget(), reconciles: 2},
			want: outcome{Calls: map[string]int{"Observe": 3, "Create": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-1", Finalizer: true, Requeue: "sync", Events: []string{"Created"}, CloudItems: 1, OwnerTagged: true},
		},
		"NoOp": {
			reason: "An up-to-date, ready resource costs one read and is looked at again after the sync period.",
			args:   fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied), cloud: inCloud(3, true)},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "sync", CloudItems: 1, OwnerTagged: true},
		},
		"NotReadyYet": {
			reason: "A resource AWS still creates is waited for with a short requeue, never a blocked worker.",
			args:   fixture{widget: widget(withFinalizer, withExternalName("w-9")), cloud: inCloud(3, false)},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "False/Creating", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "wait", CloudItems: 1, OwnerTagged: true},
		},
		"ReadyInKnownTime": {
			reason: "A resource that will be Ready after a known time (an IAM role propagating) is looked at again then, not polled.",
			args: fixture{widget: widget(withFinalizer, withExternalName("w-9")),
				cloud: func(c *cloud, w *testkind.Widget) { inCloud(3, false)(c, w); c.items["w-9"].ReadyIn = 7 * time.Second }},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "False/Creating", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "7s", CloudItems: 1, OwnerTagged: true},
		},
		"UpdateSpecChange": {
			reason: "A spec change is applied with an update call and announced as an update.",
			args: fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, func(w *testkind.Widget) { w.Generation = 2 }),
				cloud: inCloud(2, true)},
			want: outcome{Calls: map[string]int{"Observe": 2, "Update": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "sync", Events: []string{"Updating"}, CloudItems: 1, OwnerTagged: true},
		},
		"BusyWithSpecChange": {
			reason: "A usable resource that accepts no change now is waited for: no update call, and the spec is not counted as applied.",
			args: fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, func(w *testkind.Widget) { w.Generation = 2 }),
				cloud: func(c *cloud, w *testkind.Widget) { inCloud(2, true)(c, w); c.items["w-9"].Busy = true }},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "True/Updating", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "wait", CloudItems: 1, OwnerTagged: true, ObservedGeneration: 1},
		},
		"Drift": {
			reason: "A change made in AWS while the spec stayed the same is reverted and reported as drift.",
			args:   fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied), cloud: inCloud(7, true)},
			want: outcome{Calls: map[string]int{"Observe": 2, "Update": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "sync", Events: []string{"DriftDetected"}, CloudItems: 1, OwnerTagged: true,
				Drifted: "False/DriftRestored"},
		},
		"DriftReported": {
			reason: "With driftPolicy Report a change made in AWS is left in place, listed in status.drift and the Drifted condition, with one event.",
			args:   fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, reportDrift), cloud: inCloud(7, true)},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "sync", Events: []string{"DriftDetected"}, CloudItems: 1, OwnerTagged: true,
				Drifted: "True/DriftReported", Drift: []string{"size"}},
		},
		"DriftReportedSpecChange": {
			reason: "With driftPolicy Report a spec change is still applied, restoring the drifted fields with it.",
			args: fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, reportDrift, func(w *testkind.Widget) { w.Generation = 2 }),
				cloud: inCloud(7, true)},
			want: outcome{Calls: map[string]int{"Observe": 2, "Update": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "sync", Events: []string{"Updating"}, CloudItems: 1, OwnerTagged: true},
		},
		"DriftReportedThenInSync": {
			reason: "A reported drift that AWS undoes by itself clears status.drift and turns Drifted False.",
			args: fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, reportDrift, func(w *testkind.Widget) {
				w.Status.Drift = []v1alpha1.DriftedField{{Field: "size", Since: metav1.Time{Time: testNow.Add(-time.Hour)}}}
				w.Status.Conditions = append(w.Status.Conditions, metav1.Condition{Type: condition.TypeDrifted, Status: metav1.ConditionTrue,
					Reason: condition.ReasonDriftReported, LastTransitionTime: metav1.Time{Time: testNow}})
			}), cloud: inCloud(3, true)},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "sync", CloudItems: 1, OwnerTagged: true, Drifted: "False/InSync"},
		},
		"ObserveOnly": {
			reason: "An observe-only object reads the resource it names, fills the status, and gets no finalizer and no write.",
			args:   fixture{widget: widget(withExternalName("w-9"), observeOnly), cloud: foreign(3)},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "True/Observed", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Requeue: "sync", CloudItems: 1},
		},
		"ObserveOnlyDrift": {
			reason: "An observe-only object reports differences, its spec's tags one by one, and never updates.",
			args: fixture{widget: widget(withExternalName("w-9"), observeOnly, func(w *testkind.Widget) { w.Spec.Tags = map[string]string{"team": "a"} }),
				cloud: foreign(5)},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "True/Observed", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Requeue: "sync", CloudItems: 1, Events: []string{"DriftDetected"},
				Drifted: "True/DriftReported", Drift: []string{"size", "tags.team"}},
		},
		"ObserveOnlyNotFound": {
			reason: "An observe-only object whose resource does not exist says so and never creates it.",
			args:   fixture{widget: widget(observeOnly)},
			want:   outcome{Calls: map[string]int{"Observe": 1}, Ready: "False/NotFoundInAWS", Synced: "True/ReconcileSuccess", Requeue: "provider"},
		},
		"ObserveOnlyDelete": {
			reason: "Deleting an observe-only object never touches AWS, whatever its deletion policy.",
			args:   fixture{widget: widget(deleting(v1alpha1.DeletionPolicyDelete), withExternalName("w-9"), observeOnly), cloud: foreign(3)},
			want:   outcome{Calls: map[string]int{}, Gone: true, Events: []string{"Released"}, Requeue: "none", CloudItems: 1},
		},
		"ObserveOnlyToManage": {
			reason: "An observed resource without ownership tags is taken over when the object switches to Manage: tagged, then Ready.",
			args:   fixture{widget: widget(withExternalName("w-9"), func(w *testkind.Widget) { w.Generation = 2 }), cloud: foreign(3)},
			want: outcome{Calls: map[string]int{"Observe": 2, "Update": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "sync", Events: []string{"Updating"}, CloudItems: 1, OwnerTagged: true},
		},
		"ObserveOnlyOwnedByAnother": {
			reason: "Switching to Manage does not take over a resource another object owns: OwnedByAnother, nothing written.",
			args: fixture{widget: widget(withExternalName("w-9")), cloud: func(c *cloud, w *testkind.Widget) {
				foreign(3)(c, w)
				c.items["w-9"].Tags = map[string]string{v1alpha1.TagOwnerUID: "uid-other", v1alpha1.TagOwnerKind: "Widget"}
			}},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "False/OwnedByAnother", Synced: "False/OwnedByAnother", Stalled: "True/OwnedByAnother",
				ExternalName: "w-9", Finalizer: true, Requeue: "none", Events: []string{"OwnedByAnother"}, CloudItems: 1},
		},
		"TakeoverSameNamespace": {
			reason: "The takeover annotation alone takes over a resource of another object of the same namespace: retagged, then Ready.",
			args:   fixture{widget: widget(withExternalName("w-9"), takeover), cloud: ownedIn("team")},
			want: outcome{Calls: map[string]int{"Observe": 2, "Update": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "sync", Events: []string{"Updating"}, CloudItems: 1, OwnerTagged: true},
		},
		"TakeoverAnotherNamespaceRefused": {
			reason: "The takeover annotation does not reach another namespace's resource without the administrator's leave: TakeoverNotAllowed, nothing written.",
			args:   fixture{widget: widget(withExternalName("w-9"), takeover), cloud: ownedIn("other")},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "False/TakeoverNotAllowed", Synced: "False/TakeoverNotAllowed", Stalled: "True/TakeoverNotAllowed",
				ExternalName: "w-9", Finalizer: true, Requeue: "none", Events: []string{"TakeoverNotAllowed"}, CloudItems: 1},
		},
		"TakeoverAnotherNamespaceAllowed": {
			reason: "A namespace the administrator lets take over takes another namespace's resource with the annotation.",
			args: fixture{widget: widget(withExternalName("w-9"), takeover), cloud: ownedIn("other"),
				boundary: &managed.Boundary{TakeoverNamespaces: []string{"team"}}},
			want: outcome{Calls: map[string]int{"Observe": 2, "Update": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "sync", Events: []string{"Updating"}, CloudItems: 1, OwnerTagged: true},
		},
		"AdoptionNotAllowed": {
			reason: "A namespace the administrator does not let adopt cannot adopt a resource without ownership tags: AdoptionNotAllowed, nothing written.",
			args: fixture{widget: widget(withExternalName("w-9")), cloud: foreign(3),
				boundary: &managed.Boundary{AdoptionNamespaces: []string{"platform"}}},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "False/AdoptionNotAllowed", Synced: "False/AdoptionNotAllowed", Stalled: "True/AdoptionNotAllowed",
				ExternalName: "w-9", Finalizer: true, Requeue: "none", Events: []string{"AdoptionNotAllowed"}, CloudItems: 1},
		},
		"CreateWithoutAdoption": {
			reason: "A namespace that may not adopt still creates, and manages what it created.",
			args:   fixture{widget: widget(), reconciles: 2, boundary: &managed.Boundary{}},
			want: outcome{Calls: map[string]int{"Observe": 3, "Create": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-1", Finalizer: true, Requeue: "sync", Events: []string{"Created"}, CloudItems: 1, OwnerTagged: true},
		},
		"ObserveOnlyAnotherNamespace": {
			reason: "An observe-only object does not claim another namespace's resource without the administrator's leave.",
			args:   fixture{widget: widget(withExternalName("w-9"), observeOnly), cloud: ownedIn("other")},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "False/TakeoverNotAllowed", Synced: "False/TakeoverNotAllowed", Stalled: "True/TakeoverNotAllowed",
				ExternalName: "w-9", Requeue: "none", Events: []string{"TakeoverNotAllowed"}, CloudItems: 1, WidgetID: "none"},
		},
		"ObserveOnlySameNamespace": {
			reason: "An observe-only object observes a resource of another object of its namespace.",
			args:   fixture{widget: widget(withExternalName("w-9"), observeOnly), cloud: ownedIn("team")},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "True/Observed", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Requeue: "sync", CloudItems: 1, WidgetID: "w-9"},
		},
		"DeleteRefusedTakeover": {
			reason: "Deleting an object whose takeover of another namespace's resource was refused leaves the resource untouched.",
			args: fixture{widget: widget(deleting(v1alpha1.DeletionPolicyDelete), withExternalName("w-9"), takeover),
				cloud: ownedIn("other")},
			want: outcome{Calls: map[string]int{"Observe": 1}, Gone: true, Events: []string{"Released"}, Requeue: "none", CloudItems: 1},
		},
		"ReportDeletedOutside": {
			reason: "With driftPolicy Report a resource deleted outside the operator is reported (Drifted, NotFoundInAWS), not created again.",
			args:   fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, reportDrift)},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "False/NotFoundInAWS", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "sync", Events: []string{"DriftDetected"},
				Drifted: "True/DriftReported", Drift: []string{"resource"}},
		},
		"ReportDeletedOutsideSpecChange": {
			reason: "With driftPolicy Report a spec change creates the resource deleted outside again, as it restores any reported drift.",
			args: fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, reportDrift, func(w *testkind.Widget) { w.Generation = 2 }),
				cloud: func(c *cloud, _ *testkind.Widget) { c.nextID = 8 }},
			want: outcome{Calls: map[string]int{"Observe": 2, "Create": 1}, Ready: "False/Unavailable", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "wait", Events: []string{"Created"}, CloudItems: 1, OwnerTagged: true},
		},
		"ReportCreatesNew": {
			reason: "A new object with driftPolicy Report is created.",
			args:   fixture{widget: widget(reportDrift)},
			want: outcome{Calls: map[string]int{"Observe": 2, "Create": 1}, Ready: "False/Creating", Synced: "True/ReconcileSuccess",
				ExternalName: "w-1", Finalizer: true, Requeue: "wait", Events: []string{"Created"}, CloudItems: 1, OwnerTagged: true},
		},
		"DeletePolicyDelete": {
			reason: "Policy Delete deletes the AWS resource, then releases the object in the same pass once AWS no longer shows it.",
			args:   fixture{widget: widget(deleting(v1alpha1.DeletionPolicyDelete), withExternalName("w-9")), cloud: inCloud(3, true)},
			want:   outcome{Calls: map[string]int{"Observe": 2, "Delete": 1}, Gone: true, Events: []string{"Released"}, Requeue: "none"},
		},
		"DeletePolicyRetain": {
			reason: "Policy Retain releases the object without any AWS call and keeps the ownership tags.",
			args:   fixture{widget: widget(deleting(v1alpha1.DeletionPolicyRetain), withExternalName("w-9")), cloud: inCloud(3, true)},
			want:   outcome{Calls: map[string]int{}, Gone: true, Events: []string{"Released"}, Requeue: "none", CloudItems: 1, OwnerTagged: true},
		},
		"DeletePolicyOrphan": {
			reason: "Policy Orphan keeps the AWS resource and removes the ownership tags.",
			args:   fixture{widget: widget(deleting(v1alpha1.DeletionPolicyOrphan), withExternalName("w-9")), cloud: inCloud(3, true)},
			want:   outcome{Calls: map[string]int{"Observe": 1, "ReleaseOwnership": 1}, Gone: true, Events: []string{"Released"}, Requeue: "none", CloudItems: 1},
		},
		"DeleteBeforeCreatedVisible": {
			reason: "An object deleted right after its create, before AWS shows the resource, waits for it instead of leaking it.",
			args: fixture{widget: widget(deleting(v1alpha1.DeletionPolicyDelete), withExternalName("w-1"), func(w *testkind.Widget) {
				w.Annotations[v1alpha1.AnnotationCreatePending] = testNow.Add(-10 * time.Second).Format(time.RFC3339)
			}), cloud: func(c *cloud, w *testkind.Widget) {
				c.items["w-1"] = &widgetState{Size: 3, Tags: desiredTags(w, nil)}
				c.lagging = true
			}},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "False/Deleting", Synced: "True/ReconcileSuccess",
				ExternalName: "w-1", Pending: true, Finalizer: true, Requeue: "wait", CloudItems: 1, OwnerTagged: true},
		},
		"DeleteNeverCreated": {
			reason: "An object that never created anything is released at once, even without a provider.",
			args:   fixture{widget: widget(deleting(v1alpha1.DeletionPolicyDelete)), noProvider: true},
			want:   outcome{Calls: map[string]int{}, Gone: true, Events: []string{"Released"}, Requeue: "none"},
		},
		"DeleteDependencyViolation": {
			reason: "A resource others depend on keeps its finalizer, says why, and is retried with backoff.",
			args: fixture{widget: widget(deleting(v1alpha1.DeletionPolicyDelete), withExternalName("w-9")), cloud: func(c *cloud, w *testkind.Widget) {
				inCloud(3, true)(c, w)
				c.errs["Delete"] = apiError("DependencyViolation")
			}},
			want: outcome{Calls: map[string]int{"Observe": 1, "Delete": 1}, Ready: "False/DependencyViolation", Synced: "False/DependencyViolation",
				ExternalName: "w-9", Finalizer: true, Err: true, Requeue: "none", Events: []string{"DependencyViolation"}, CloudItems: 1, OwnerTagged: true},
		},
		"TerminalInvalidSpec": {
			reason: "A spec the driver refuses gets a terminal condition, an event, no AWS call and no requeue.",
			args:   fixture{widget: widget(), validate: func(*testkind.Widget) error { return errors.New("size must be odd") }},
			want:   outcome{Calls: map[string]int{}, Ready: "False/InvalidSpec", Synced: "False/InvalidSpec", Stalled: "True/InvalidSpec", Requeue: "none", Events: []string{"InvalidSpec"}},
		},
		"TerminalAWSRejected": {
			reason: "A create that AWS refuses as invalid is terminal and leaves no create-pending marker.",
			args:   fixture{widget: widget(), cloud: func(c *cloud, _ *testkind.Widget) { c.errs["Create"] = apiError("InvalidParameterValue") }},
			want: outcome{Calls: map[string]int{"Observe": 1, "Create": 1}, Ready: "False/AWSRejectedRequest", Synced: "False/AWSRejectedRequest", Stalled: "True/AWSRejectedRequest",
				Finalizer: true, Requeue: "none", Events: []string{"AWSRejectedRequest"}},
		},
		"CreateRefusedWithExternalName": {
			reason: "A create that AWS refuses for an object whose external name names nothing leaves no create-pending marker, so its deletion does not wait for a resource.",
			args:   fixture{widget: widget(withFinalizer, withExternalName("w-5")), cloud: func(c *cloud, _ *testkind.Widget) { c.errs["Create"] = apiError("InvalidParameterValue") }},
			want: outcome{Calls: map[string]int{"Observe": 1, "Create": 1}, Ready: "False/AWSRejectedRequest", Synced: "False/AWSRejectedRequest", Stalled: "True/AWSRejectedRequest",
				ExternalName: "w-5", Finalizer: true, Requeue: "none", Events: []string{"AWSRejectedRequest"}},
		},
		"Throttled": {
			reason: "Throttling is retried with per-item backoff (an error to the work queue) and shown in Synced.",
			args:   fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied), cloud: func(c *cloud, _ *testkind.Widget) { c.errs["Observe"] = apiError("Throttling") }},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "True/Available", Synced: "False/Throttled",
				ExternalName: "w-9", Finalizer: true, Err: true, Requeue: "none"},
		},
		"MissingProvider": {
			reason: "A missing AWSProvider is a clear condition, no AWS call, and a slow retry.",
			args:   fixture{widget: widget(), noProvider: true},
			want:   outcome{Calls: map[string]int{}, Ready: "False/ProviderNotFound", Synced: "False/ProviderNotFound", Requeue: "provider"},
		},
		"MissingSecret": {
			reason: "A missing credentials Secret is a clear condition, no AWS call, and a slow retry.",
			args:   fixture{widget: widget(), noSecret: true},
			want:   outcome{Calls: map[string]int{}, Ready: "False/SecretNotFound", Synced: "False/SecretNotFound", Requeue: "provider"},
		},
		"ProviderNotReady": {
			reason: "A provider whose credentials were rejected stops its resources with its reason.",
			args:   fixture{widget: widget(), notReady: true},
			want:   outcome{Calls: map[string]int{}, Ready: "False/ProviderNotReady", Synced: "False/ProviderNotReady", Requeue: "provider"},
		},
		"Paused": {
			reason: "A paused object is left alone: no AWS call, no finalizer change.",
			args:   fixture{widget: widget(func(w *testkind.Widget) { w.Annotations = map[string]string{v1alpha1.AnnotationPaused: "true"} })},
			want:   outcome{Calls: map[string]int{}, Synced: "False/ReconcilePaused", Requeue: "none"},
		},
		"CrashAfterCreate": {
			reason: "After a crash between create and recording the id, the resource is found by its owner tag, not created again.",
			args:   fixture{widget: widget(withFinalizer), cloud: inCloud(3, true)},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "sync", CloudItems: 1, OwnerTagged: true},
		},
		"CreatePendingRecent": {
			reason: "A create started moments ago whose resource AWS does not show yet is waited for, not repeated.",
			args: fixture{widget: widget(withFinalizer, func(w *testkind.Widget) {
				w.Annotations = map[string]string{v1alpha1.AnnotationCreatePending: testNow.Add(-10 * time.Second).Format(time.RFC3339)}
			})},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "False/Creating", Synced: "True/ReconcileSuccess", Pending: true, Finalizer: true, Requeue: "wait"},
		},
		"CreatedNotVisibleYet": {
			reason: "A resource created moments ago that AWS does not show yet is waited for, not created again.",
			args:   fixture{widget: widget(), reconciles: 3, cloud: func(c *cloud, _ *testkind.Widget) { c.lagging = true }},
			want: outcome{Calls: map[string]int{"Observe": 4, "Create": 1}, Ready: "False/Creating", Synced: "True/ReconcileSuccess",
				ExternalName: "w-1", Pending: true, Finalizer: true, Requeue: "wait", Events: []string{"Created"}, CloudItems: 1, OwnerTagged: true},
		},
		"RestartBeforeCreatedVisible": {
			reason: "An operator that restarts while AWS does not show a resource it created (identifier recorded) waits for it, not creates it again.",
			args: fixture{widget: widget(withFinalizer, withExternalName("w-1"), func(w *testkind.Widget) {
				w.Annotations[v1alpha1.AnnotationCreatePending] = testNow.Add(-10 * time.Second).Format(time.RFC3339)
			}), cloud: func(c *cloud, w *testkind.Widget) {
				c.items["w-1"] = &widgetState{Size: 3, Tags: desiredTags(w, nil)}
				c.lagging = true
			}},
			want: outcome{Calls: map[string]int{"Observe": 1}, Ready: "False/Creating", Synced: "True/ReconcileSuccess",
				ExternalName: "w-1", Pending: true, Finalizer: true, Requeue: "wait", CloudItems: 1, OwnerTagged: true},
		},
		"CreateReadyAtOnce": {
			reason: "A resource AWS makes available at once is Ready in the pass that created it.",
			args:   fixture{widget: widget(), cloud: func(c *cloud, _ *testkind.Widget) { c.immediate = true }},
			want: outcome{Calls: map[string]int{"Observe": 2, "Create": 1}, Ready: "True/Available", Synced: "True/ReconcileSuccess",
				ExternalName: "w-1", Finalizer: true, Requeue: "sync", Events: []string{"Created"}, CloudItems: 1, OwnerTagged: true},
		},
		"CreateWithLifecycle": {
			reason: "A kind with a creation lifecycle is not looked at again in the pass that created it.",
			args:   fixture{widget: widget(), readyIn: 2 * time.Second, cloud: func(c *cloud, _ *testkind.Widget) { c.immediate = true }},
			want: outcome{Calls: map[string]int{"Observe": 1, "Create": 1}, Ready: "False/Creating", Synced: "True/ReconcileSuccess",
				ExternalName: "w-1", Pending: true, Finalizer: true, Requeue: "wait", Events: []string{"Created"}, CloudItems: 1, OwnerTagged: true},
		},
		"UpdateNotShownYet": {
			reason: "A change AWS does not show at once is made once per pass and waited for, not repeated in the same pass.",
			args: fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, func(w *testkind.Widget) { w.Generation = 2 }),
				cloud: func(c *cloud, w *testkind.Widget) { inCloud(2, true)(c, w); c.items["w-9"].Stubborn = true }},
			want: outcome{Calls: map[string]int{"Observe": 2, "Update": 1}, Ready: "True/Updating", Synced: "True/ReconcileSuccess",
				ExternalName: "w-9", Finalizer: true, Requeue: "wait", Events: []string{"Updating"}, CloudItems: 1, OwnerTagged: true},
		},
		"CreatePendingExpired": {
			reason: "A create marker older than the grace period is retried (drivers pass idempotency tokens).",
			args: fixture{widget: widget(withFinalizer, func(w *testkind.Widget) {
				w.Annotations = map[string]string{v1alpha1.AnnotationCreatePending: testNow.Add(-5 * time.Minute).Format(time.RFC3339)}
			})},
			want: outcome{Calls: map[string]int{"Observe": 2, "Create": 1}, Ready: "False/Creating", Synced: "True/ReconcileSuccess",
				ExternalName: "w-1", Finalizer: true, Requeue: "wait", Events: []string{"Created"}, CloudItems: 1, OwnerTagged: true},
		},
		"CreateTransportError": {
			reason: "A create whose outcome is unknown keeps the create-pending marker and is retried with backoff.",
			args: fixture{widget: widget(), cloud: func(c *cloud, _ *testkind.Widget) {
				c.errs["Create"] = &net.OpError{Op: "dial", Err: errors.New("connection reset")}
			}},
			want: outcome{Calls: map[string]int{"Observe": 1, "Create": 1}, Ready: "False/ReconcileError", Synced: "False/ReconcileError",
				Pending: true, Finalizer: true, Err: true, Requeue: "none", Events: []string{"ReconcileError"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := run(t, tc.args)
			if tc.want.ObservedGeneration == 0 {
				got.ObservedGeneration = 0
			}
			switch {
			case tc.want.WidgetID == "":
				got.WidgetID = ""
			case got.WidgetID == "":
				got.WidgetID = "none"
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestAPIWritesPerPass checks the API-server side of a pass: a create writes the finalizer
// with the create-pending marker in one patch, records the identifier in a second, removes the
// marker in a third once AWS shows the resource, and writes the status once; a pass that
// changes nothing writes nothing.
func TestAPIWritesPerPass(t *testing.T) {
	created := &apiWrites{}
	run(t, fixture{widget: widget(), writes: created, cloud: func(c *cloud, _ *testkind.Widget) { c.immediate = true }})
	if *created != (apiWrites{Meta: 3, Status: 1}) {
		t.Errorf("a create pass wrote %+v, want 3 metadata patches and 1 status patch", *created)
	}
	steady := &apiWrites{}
	ready := func(w *testkind.Widget) {
		now := metav1.NewTime(testNow)
		w.Status.LastSyncTime = &now
		w.Status.WidgetID = "w-9"
		w.Status.Ready = true
		w.Status.Conditions = []metav1.Condition{
			{Type: condition.TypeReady, Status: metav1.ConditionTrue, Reason: condition.ReasonAvailable, ObservedGeneration: 1, LastTransitionTime: now},
			{Type: condition.TypeSynced, Status: metav1.ConditionTrue, Reason: condition.ReasonReconcileSuccess, ObservedGeneration: 1, LastTransitionTime: now},
		}
	}
	run(t, fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, ready), cloud: inCloud(3, true), writes: steady})
	if *steady != (apiWrites{}) {
		t.Errorf("a pass that changed nothing wrote %+v", *steady)
	}
	stale := &apiWrites{}
	hourOld := func(w *testkind.Widget) { w.Status.LastSyncTime = &metav1.Time{Time: testNow.Add(-syncTimeRefresh)} }
	run(t, fixture{widget: widget(withFinalizer, withExternalName("w-9"), applied, ready, hourOld), cloud: inCloud(3, true), writes: stale})
	if *stale != (apiWrites{Status: 1}) {
		t.Errorf("a pass that found lastSyncTime an hour old wrote %+v, want the status once", *stale)
	}
}

// run reconciles the fixture's widget and summarises the result.
func run(t *testing.T, f fixture) outcome {
	t.Helper()
	ctx := context.Background()
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, v1alpha1.AddToScheme, testkind.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	objs := []client.Object{f.widget}
	if !f.noProvider {
		status := metav1.ConditionTrue
		reason := "CredentialsValid"
		if f.notReady {
			status, reason = metav1.ConditionFalse, "CredentialsRejected"
		}
		objs = append(objs, &v1alpha1.AWSProvider{
			ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "aws", UID: "p-uid", Generation: 1},
			Spec: v1alpha1.AWSProviderSpec{Region: "us-east-1", Endpoint: "http://127.0.0.1:1",
				AccessKeyIDRef:     &v1alpha1.SecretKeySelector{Name: "creds", Key: "id"},
				SecretAccessKeyRef: &v1alpha1.SecretKeySelector{Name: "creds", Key: "secret"}},
			Status: v1alpha1.AWSProviderStatus{Ready: !f.notReady, Conditions: []metav1.Condition{{
				Type: "Ready", Status: status, Reason: reason, ObservedGeneration: 1, LastTransitionTime: metav1.Time{Time: testNow}}}},
		})
	}
	if !f.noSecret {
		objs = append(objs, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "creds"},
			Data: map[string][]byte{"id": []byte("AKIDTEST"), "secret": []byte("s3cr3t")}})
	}
	funcs := interceptor.Funcs{
		Patch: func(ctx context.Context, c client.WithWatch, o client.Object, p client.Patch, opts ...client.PatchOption) error {
			if _, ok := o.(*testkind.Widget); ok && f.writes != nil {
				f.writes.Meta++
			}
			return c.Patch(ctx, o, p, opts...)
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, o client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			if _, ok := o.(*testkind.Widget); ok && f.writes != nil {
				f.writes.Status++
			}
			return c.SubResource(sub).Patch(ctx, o, p, opts...)
		},
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).WithInterceptorFuncs(funcs).
		WithStatusSubresource(&testkind.Widget{}, &v1alpha1.AWSProvider{}).Build()
	cl := newCloud()
	if f.cloud != nil {
		f.cloud(cl, f.widget)
	}
	rec := events.NewFakeRecorder(100)
	kind := widgetKind(cl, f.validate)
	kind.ReadyIn = f.readyIn
	opts := testOptions
	opts.Boundary = f.boundary
	r := NewReconciler(kind, c, c, &provider.Resolver{Client: c, APIReader: c}, rec, "", 1, opts)

	var res ctrl.Result
	var err error
	for range max(1, f.reconciles) {
		res, err = r.Reconcile(ctx, ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "team", Name: "w"}})
	}
	got := outcome{Calls: cl.calls, Err: err != nil, Requeue: requeueKind(res), CloudItems: len(cl.items)}
	for _, w := range cl.items {
		if w.Tags[v1alpha1.TagOwnerUID] == "uid-1" {
			got.OwnerTagged = true
		}
	}
	close(rec.Events)
	for e := range rec.Events {
		got.Events = append(got.Events, strings.Fields(e)[1])
	}
	w := &testkind.Widget{}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "team", Name: "w"}, w); err != nil {
		if !apierrors.IsNotFound(err) {
			t.Fatal(err)
		}
		got.Gone = true
		return got
	}
	got.Ready = condOf(w.Status.Conditions, condition.TypeReady)
	got.Synced = condOf(w.Status.Conditions, condition.TypeSynced)
	got.Stalled = condOf(w.Status.Conditions, condition.TypeStalled)
	got.ExternalName = managed.ExternalName(w)
	got.ObservedGeneration = w.Status.ObservedGeneration
	got.WidgetID = w.Status.WidgetID
	got.Drifted = condOf(w.Status.Conditions, condition.TypeDrifted)
	for _, d := range w.Status.Drift {
		got.Drift = append(got.Drift, d.Field)
	}
	_, got.Pending = w.Annotations[v1alpha1.AnnotationCreatePending]
	for _, fin := range w.Finalizers {
		got.Finalizer = got.Finalizer || fin == v1alpha1.Finalizer
	}
	if w.Status.Ready != strings.HasPrefix(got.Ready, "True/") {
		t.Errorf("status.ready = %v disagrees with the Ready condition %s", w.Status.Ready, got.Ready)
	}
	return got
}

func condOf(conds []metav1.Condition, typ string) string {
	c := meta.FindStatusCondition(conds, typ)
	if c == nil {
		return ""
	}
	return string(c.Status) + "/" + c.Reason
}

func requeueKind(res ctrl.Result) string {
	switch d := res.RequeueAfter; {
	case d == 0:
		return "none"
	case d > 0 && d <= testOptions.WaitInterval:
		return "wait"
	case d == testOptions.ProviderRetry:
		return "provider"
	case d >= 9*time.Minute && d <= 11*time.Minute:
		return "sync"
	default:
		return d.String()
	}
}
