package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
)

func TestSpecOrIntentChanged(t *testing.T) {
	cases := map[string]struct {
		reason string
		args   func(*testkind.Widget)
		// old are the annotations before the update (default: paused).
		old  map[string]string
		want bool
	}{
		"StatusOnly": {
			reason: "The reconciler's own status write does not wake it again.",
			args:   func(w *testkind.Widget) { w.Status.Ready = true; w.ResourceVersion = "2" },
			want:   false,
		},
		"SpecChange": {
			reason: "A spec change bumps the generation and is reconciled.",
			args:   func(w *testkind.Widget) { w.Generation = 2 },
			want:   true,
		},
		"ResyncRequested": {
			reason: "Changing the resync annotation asks for an immediate reconcile.",
			args:   func(w *testkind.Widget) { w.Annotations = map[string]string{v1alpha1.AnnotationResync: "2"} },
			want:   true,
		},
		"Unpaused": {
			reason: "Removing the pause annotation is reconciled at once.",
			args:   func(w *testkind.Widget) { w.Annotations = map[string]string{} },
			want:   true,
		},
		"Bookkeeping": {
			reason: "Recording the external name of a created resource does not cost an extra reconcile.",
			args: func(w *testkind.Widget) {
				w.Annotations = map[string]string{v1alpha1.AnnotationPaused: "true", v1alpha1.AnnotationExternalName: "w-1"}
			},
			old:  map[string]string{v1alpha1.AnnotationPaused: "true", v1alpha1.AnnotationCreatePending: "2026-01-01T00:00:00Z"},
			want: false,
		},
		"BookkeepingMarkerKept": {
			reason: "Recording the external name while the create-pending marker stays (until AWS shows the resource) does not cost an extra reconcile either.",
			args: func(w *testkind.Widget) {
				w.Annotations = map[string]string{v1alpha1.AnnotationPaused: "true", v1alpha1.AnnotationExternalName: "w-1",
					v1alpha1.AnnotationCreatePending: "2026-01-01T00:00:00Z"}
			},
			old:  map[string]string{v1alpha1.AnnotationPaused: "true", v1alpha1.AnnotationCreatePending: "2026-01-01T00:00:00Z"},
			want: false,
		},
		"CreatePending": {
			reason: "Writing the create-pending marker does not cost an extra reconcile.",
			args: func(w *testkind.Widget) {
				w.Annotations = map[string]string{v1alpha1.AnnotationPaused: "true", v1alpha1.AnnotationCreatePending: "2026-01-01T00:00:00Z"}
			},
			want: false,
		},
		"Adoption": {
			reason: "Setting the external name by hand adopts a resource at once.",
			args: func(w *testkind.Widget) {
				w.Annotations = map[string]string{v1alpha1.AnnotationPaused: "true", v1alpha1.AnnotationExternalName: "w-7"}
			},
			want: true,
		},
		"ExternalNameChanged": {
			reason: "Pointing the external name at another resource is reconciled at once.",
			args: func(w *testkind.Widget) {
				w.Annotations = map[string]string{v1alpha1.AnnotationPaused: "true", v1alpha1.AnnotationExternalName: "w-8"}
			},
			old:  map[string]string{v1alpha1.AnnotationPaused: "true", v1alpha1.AnnotationExternalName: "w-7"},
			want: true,
		},
		"Takeover": {
			reason: "The takeover annotation is reconciled at once.",
			args: func(w *testkind.Widget) {
				w.Annotations = map[string]string{v1alpha1.AnnotationPaused: "true", v1alpha1.AnnotationTakeover: "true"}
			},
			want: true,
		},
		"DeletionStarted": {
			reason: "The start of deletion is reconciled.",
			args:   func(w *testkind.Widget) { w.DeletionTimestamp = &metav1.Time{Time: testNow} },
			want:   true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before := tc.old
			if before == nil {
				before = map[string]string{v1alpha1.AnnotationPaused: "true"}
			}
			old := widget(func(w *testkind.Widget) { w.Annotations = before })
			cur := old.DeepCopy()
			tc.args(cur)
			got := specOrIntentChanged().Update(event.UpdateEvent{ObjectOld: old, ObjectNew: cur})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestProviderUsabilityChanged(t *testing.T) {
	ready := func(status metav1.ConditionStatus, reason string) []metav1.Condition {
		return []metav1.Condition{{Type: condition.TypeReady, Status: status, Reason: reason, ObservedGeneration: 1}}
	}
	revalidated := func(st *v1alpha1.AWSProviderStatus) {
		st.LastSyncTime = &metav1.Time{Time: testNow}
	}
	cases := map[string]struct {
		reason string
		// args changes the status of the provider's second version.
		args func(st *v1alpha1.AWSProviderStatus)
		// generation is the second version's generation (default 1, unchanged).
		generation int64
		want       bool
	}{
		"Revalidated": {
			reason: "The periodic revalidation rewrites lastSyncTime only and wakes nobody.",
			args:   revalidated,
			want:   false,
		},
		"BecameNotReady": {
			reason: "A provider whose credentials stop working wakes the objects that use it.",
			args: func(st *v1alpha1.AWSProviderStatus) {
				st.Conditions = ready(metav1.ConditionFalse, "CredentialsRejected")
			},
			want: true,
		},
		"ReasonChanged": {
			reason: "A new reason for the Ready condition changes what the objects report.",
			args:   func(st *v1alpha1.AWSProviderStatus) { st.Conditions = ready(metav1.ConditionTrue, "Other") },
			want:   true,
		},
		"SpecChanged": {
			reason:     "A spec change may change whether the objects can use the provider.",
			args:       revalidated,
			generation: 2,
			want:       true,
		},
		"ConditionRemoved": {
			reason: "A Ready condition that disappears is a change of usability.",
			args:   func(st *v1alpha1.AWSProviderStatus) { st.Conditions = nil },
			want:   true,
		},
	}
	kinds := map[string]func(gen int64, st v1alpha1.AWSProviderStatus) client.Object{
		v1alpha1.KindAWSProvider: func(gen int64, st v1alpha1.AWSProviderStatus) client.Object {
			return &v1alpha1.AWSProvider{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "aws", Generation: gen}, Status: st}
		},
		v1alpha1.KindClusterAWSProvider: func(gen int64, st v1alpha1.AWSProviderStatus) client.Object {
			return &v1alpha1.ClusterAWSProvider{ObjectMeta: metav1.ObjectMeta{Name: "shared", Generation: gen}, Status: st}
		},
	}
	for name, tc := range cases {
		for kind, build := range kinds {
			t.Run(kind+"/"+name, func(t *testing.T) {
				before := v1alpha1.AWSProviderStatus{Ready: true, Conditions: ready(metav1.ConditionTrue, "CredentialsValid")}
				after := *before.DeepCopy()
				tc.args(&after)
				gen := tc.generation
				if gen == 0 {
					gen = 1
				}
				got := providerUsabilityChanged().Update(event.UpdateEvent{ObjectOld: build(1, before), ObjectNew: build(gen, after)})
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
				}
			})
		}
	}
}
