package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/event"

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
