package engine

import (
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// fail reports err on the object and decides when to look again. Terminal errors are not
// retried until the spec changes; waiting errors are checked again after a delay; provider
// problems are retried slowly (a change of the provider wakes the resource sooner); every
// other error is returned so the work queue retries it with per-item exponential backoff.
//
// While the object is being deleted, every message that is not a passing AWS error also names
// the way out (deletionPolicy Orphan), so that nobody needs to remove a finalizer by hand.
//
// No message holds a secret value the pass read (see scrubText): an AWS error may echo the
// request it refuses. The error returned is scrubbed by Reconcile, which returns it.
func (r *Reconciler[O, S]) fail(p *pass[O], err error) (ctrl.Result, error) {
	o := p.o
	if apierrors.IsConflict(err) {
		// Another writer changed the object since the cache showed it (optimistic locking):
		// normal, not worth a condition or an event. The newer object is looked at shortly.
		p.result = "conflict"
		return ctrl.Result{RequeueAfter: firstPoll}, nil
	}
	wayOut := ""
	if !o.GetDeletionTimestamp().IsZero() {
		wayOut = deletionWayOut
	}
	if w, ok := managed.AsWaiting(err); ok {
		msg := scrubText(p.secrets, w.Message) + wayOut
		setCondition(o, condition.TypeReady, metav1.ConditionFalse, w.Reason, msg)
		setCondition(o, condition.TypeSynced, metav1.ConditionFalse, w.Reason, msg)
		p.result = "wait"
		after := w.After
		if after <= 0 {
			after = r.opts.WaitInterval
		}
		return ctrl.Result{RequeueAfter: after}, nil
	}
	if pe, ok := provider.AsError(err); ok {
		msg := scrubText(p.secrets, pe.Message) + wayOut
		setCondition(o, condition.TypeReady, metav1.ConditionFalse, pe.Reason, msg)
		setCondition(o, condition.TypeSynced, metav1.ConditionFalse, pe.Reason, msg)
		p.result = "wait"
		return ctrl.Result{RequeueAfter: r.opts.ProviderRetry}, nil
	}
	if t, ok := managed.AsTerminal(err); ok {
		r.terminal(p, t.Reason, t.Error()+wayOut)
		return ctrl.Result{}, nil
	}
	class := awserr.Classify(err)
	reason := condition.ReasonReconcileError
	switch class {
	case awserr.ClassInvalidInput:
		r.terminal(p, condition.ReasonAWSRejected, awserr.Describe(err)+wayOut)
		return ctrl.Result{}, nil
	case awserr.ClassThrottling:
		reason = condition.ReasonThrottled
	case awserr.ClassAccessDenied:
		reason = condition.ReasonAccessDenied
	case awserr.ClassQuotaExceeded:
		reason = condition.ReasonQuotaExceeded
	case awserr.ClassDependencyViolation:
		reason = condition.ReasonDependencyViolation
	}
	msg := scrubText(p.secrets, awserr.Describe(err))
	setCondition(o, condition.TypeSynced, metav1.ConditionFalse, reason, msg)
	if !isTrue(o.GetManagedStatus().Conditions, condition.TypeReady) {
		setCondition(o, condition.TypeReady, metav1.ConditionFalse, reason, msg)
	}
	if class != awserr.ClassThrottling {
		r.event(o, corev1.EventTypeWarning, reason, "Reconcile", "%s", msg)
	}
	p.result = "error"
	if class == awserr.ClassThrottling {
		p.result = "throttled"
	}
	return ctrl.Result{}, err
}

// terminal marks the object as needing a spec change. msg is reported without the secret
// values of the pass.
func (r *Reconciler[O, S]) terminal(p *pass[O], reason, msg string) {
	o := p.o
	msg = scrubText(p.secrets, msg)
	setCondition(o, condition.TypeSynced, metav1.ConditionFalse, reason, msg)
	setCondition(o, condition.TypeStalled, metav1.ConditionTrue, reason, msg)
	if !isTrue(o.GetManagedStatus().Conditions, condition.TypeReady) {
		setCondition(o, condition.TypeReady, metav1.ConditionFalse, reason, msg)
	}
	r.event(o, corev1.EventTypeWarning, reason, "Reconcile", "%s", msg)
	p.result = "terminal"
}

// invalidSpec makes a Validate error terminal: InvalidSpec, unless the error already is a
// terminal error with a reason of its own.
func invalidSpec(err error) error {
	if _, ok := managed.AsTerminal(err); ok {
		return err
	}
	return &managed.TerminalError{Reason: condition.ReasonInvalidSpec, Err: err}
}
