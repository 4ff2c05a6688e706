package engine

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/internal/testkind"
	"github.com/runner-codes/infra-operator/shared/metrics"
)

// TestReadinessGauges checks the stalled and not-Ready gauges of one kind: the oldest time a
// not-Ready object stopped being Ready is published, a stalled object is counted, and the
// not-Ready series goes away once every object is Ready (an absent series fires no alert).
func TestReadinessGauges(t *testing.T) {
	const kind = "GaugeWidget"
	r := newReadiness(kind)
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	object := func(name string, ready bool, since time.Time, stalled bool) *testkind.Widget {
		w := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: name, CreationTimestamp: metav1.NewTime(created)}}
		st := w.GetManagedStatus()
		st.Ready = ready
		status := map[bool]metav1.ConditionStatus{true: metav1.ConditionTrue, false: metav1.ConditionFalse}
		st.Conditions = []metav1.Condition{{Type: condition.TypeReady, Status: status[ready], Reason: "R", LastTransitionTime: metav1.NewTime(since)}}
		if stalled {
			st.Conditions = append(st.Conditions, metav1.Condition{Type: condition.TypeStalled, Status: metav1.ConditionTrue, Reason: "S"})
		}
		return w
	}
	early, late := created.Add(time.Minute), created.Add(time.Hour)
	r.observe(&testkind.Widget{}, object("a", false, late, false))
	r.observe(&testkind.Widget{}, object("b", false, early, true))
	r.observe(&testkind.Widget{}, object("c", true, late, false))
	if got := testutil.ToFloat64(metrics.NotReadySince.WithLabelValues(kind)); got != float64(early.Unix()) {
		t.Errorf("not_ready_since = %v, want the oldest transition %v", got, early.Unix())
	}
	if got := testutil.ToFloat64(metrics.StalledResources.WithLabelValues(kind)); got != 1 {
		t.Errorf("stalled_resources = %v, want 1", got)
	}
	r.observe(&testkind.Widget{}, object("a", true, late, false))
	r.forget(k8stypes.NamespacedName{Namespace: "team", Name: "b"})
	if metrics.NotReadySince.DeleteLabelValues(kind) {
		t.Error("not_ready_since still has a series with every object Ready, want none")
	}
	if got := testutil.ToFloat64(metrics.StalledResources.WithLabelValues(kind)); got != 0 {
		t.Errorf("stalled_resources = %v after the stalled object went, want 0", got)
	}
}
