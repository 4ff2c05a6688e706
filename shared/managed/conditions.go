package managed

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Condition types every managed kind reports.
const (
	// TypeReady is True when the AWS resource is usable.
	TypeReady = "Ready"
	// TypeSynced is True when the last reconcile succeeded.
	TypeSynced = "Synced"
	// TypeStalled is True, with the reason, while the resource cannot make progress until its
	// spec changes (a terminal error); it is absent otherwise. It follows the kstatus
	// convention, so GitOps tools report such a resource as failed rather than progressing.
	TypeStalled = "Stalled"
)

// Condition reasons the reconciler sets. Drivers' terminal and waiting errors bring their own.
const (
	ReasonAvailable           = "Available"
	ReasonCreating            = "Creating"
	ReasonUpdating            = "Updating"
	ReasonUnavailable         = "Unavailable"
	ReasonDeleting            = "Deleting"
	ReasonReconcileSuccess    = "ReconcileSuccess"
	ReasonReconcileError      = "ReconcileError"
	ReasonPaused              = "ReconcilePaused"
	ReasonInvalidSpec         = "InvalidSpec"
	ReasonAWSRejected         = "AWSRejectedRequest"
	ReasonThrottled           = "Throttled"
	ReasonAccessDenied        = "AccessDenied"
	ReasonQuotaExceeded       = "QuotaExceeded"
	ReasonDependencyViolation = "DependencyViolation"
	ReasonProviderNotReady    = "ProviderNotReady"
	ReasonProviderNotChecked  = "ProviderNotValidated"
	ReasonTooManyTags         = "TooManyTags"
	// ReasonNotConverging is the event reason for a resource that still differs from the spec
	// after several updates.
	ReasonNotConverging = "NotConverging"
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
	if typ == TypeReady {
		st.Ready = status == metav1.ConditionTrue
	}
}

// isTrue reports whether conditions hold a True condition of type typ.
func isTrue(conditions []metav1.Condition, typ string) bool {
	return meta.IsStatusConditionTrue(conditions, typ)
}
