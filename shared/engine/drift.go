package engine

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/metrics"
)

// drifted reports whether the differences a pass finds are drift: neither the spec nor what
// its references resolve to has changed since it was last applied, so something outside the
// operator changed the AWS resource.
func drifted[O v1alpha1.Managed](p *pass[O]) bool {
	return p.o.GetGeneration() == p.orig.GetManagedStatus().ObservedGeneration && !p.referencesChanged
}

// markDrift records in o's status that fields differ from the spec (keeping when each was
// first found) and sets the Drifted condition with reason and message. A Warning event and
// the DriftDetected metric mark each new set of drifted fields, so that a drift reported on
// every sync costs one event, not one per sync.
func (r *Reconciler[O, S]) markDrift(p *pass[O], fields []string, reason, message string) {
	o := p.o
	st := o.GetManagedStatus()
	fields = slices.Compact(slices.Sorted(slices.Values(fields)))
	since := map[string]metav1.Time{}
	for _, d := range st.Drift {
		since[d.Field] = d.Since
	}
	now := metav1.NewTime(r.opts.Now())
	drift := make([]v1alpha1.DriftedField, 0, len(fields))
	fresh := false
	for _, f := range fields {
		t, ok := since[f]
		if !ok {
			t, fresh = now, true
		}
		drift = append(drift, v1alpha1.DriftedField{Field: f, Since: t})
	}
	st.Drift = drift
	setCondition(o, condition.TypeDrifted, metav1.ConditionTrue, reason, message)
	if fresh {
		metrics.DriftDetected.WithLabelValues(r.kind.Name).Inc()
		if reason == condition.ReasonDriftReported {
			r.event(o, corev1.EventTypeWarning, condition.ReasonDriftDetected, "Observe", "%s", message)
		}
	}
}

// clearDrift records that the resource matches the spec: status.drift empties, and a Drifted
// condition that was True turns False, saying whether the operator restored the spec or the
// resource came back in line by itself. An object that never drifted gets no condition.
func (r *Reconciler[O, S]) clearDrift(p *pass[O]) {
	o := p.o
	st := o.GetManagedStatus()
	c := meta.FindStatusCondition(st.Conditions, condition.TypeDrifted)
	if c == nil || c.Status != metav1.ConditionTrue {
		st.Drift = nil
		return
	}
	fields := make([]string, 0, len(st.Drift))
	for _, d := range st.Drift {
		fields = append(fields, d.Field)
	}
	what := strings.Join(fields, ", ")
	if what == "" {
		what = "the resource"
	}
	if c.Reason == condition.ReasonDriftDetected {
		setCondition(o, condition.TypeDrifted, metav1.ConditionFalse, condition.ReasonDriftRestored, "restored "+what+" after a change outside the operator")
	} else {
		setCondition(o, condition.TypeDrifted, metav1.ConditionFalse, condition.ReasonInSync, what+" matches the spec again")
	}
	st.Drift = nil
}

// driftMessage describes fields that differ from the spec for the Drifted condition and its
// event; leaving says why the operator leaves them ("" when it restores them).
func driftMessage(kind string, fields []string, leaving string) string {
	msg := kind + " differs from the spec in " + diffOrUnknown(strings.Join(fields, ", "))
	if leaving == "" {
		return msg + " after a change outside the operator; restoring the spec"
	}
	return msg + "; " + leaving
}
