package engine

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// deletionWayOut is added to the message of an object that cannot be deleted: the change that
// releases it without finalizer surgery.
const deletionWayOut = "; to release this object and keep the AWS resource, set spec.deletionPolicy to Orphan (or Retain)"

// setCondition sets one condition of o for its current generation.
func setCondition(o v1alpha1.Managed, typ string, status metav1.ConditionStatus, reason, message string) {
	st := o.GetManagedStatus()
	meta.SetStatusCondition(&st.Conditions, metav1.Condition{
		Type:               typ,
		Status:             status,
		Reason:             reason,
		Message:            message,
		ObservedGeneration: o.GetGeneration(),
	})
	if typ == condition.TypeReady {
		st.Ready = status == metav1.ConditionTrue
	}
}

// setReadiness sets o's Ready condition to True with reason ifUsable when the AWS resource is
// usable, and to False with reason otherwise, with message either way.
func setReadiness(o v1alpha1.Managed, usable bool, ifUsable, otherwise, message string) {
	if usable {
		setCondition(o, condition.TypeReady, metav1.ConditionTrue, ifUsable, message)
		return
	}
	setCondition(o, condition.TypeReady, metav1.ConditionFalse, otherwise, message)
}

// isTrue reports whether conditions hold a True condition of type typ.
func isTrue(conditions []metav1.Condition, typ string) bool {
	return meta.IsStatusConditionTrue(conditions, typ)
}

// stalledBefore returns the reason of o's Stalled condition when it was reported for an older
// generation of the spec (the user changed the spec since), and "" otherwise.
func stalledBefore(o v1alpha1.Managed) string {
	c := meta.FindStatusCondition(o.GetManagedStatus().Conditions, condition.TypeStalled)
	if c == nil || c.Status != metav1.ConditionTrue || c.ObservedGeneration >= o.GetGeneration() {
		return ""
	}
	return c.Reason
}
