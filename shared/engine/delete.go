package engine

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// delete handles an object that is being deleted, according to its deletion policy.
func (r *Reconciler[O, S]) delete(ctx context.Context, p *pass[O]) (ctrl.Result, error) {
	o := p.o
	if !controllerutil.ContainsFinalizer(o, v1alpha1.Finalizer) {
		p.result = "deleted"
		return ctrl.Result{}, nil
	}
	policy := o.GetManagedSpec().DeletionPolicy
	if v1alpha1.ObserveOnly(o) {
		return r.release(ctx, p, fmt.Sprintf("left %s %s in AWS untouched (managementPolicy ObserveOnly)", r.kind.Name, managed.ExternalName(o)))
	}
	if !mightExist(o) {
		// No create call was ever made and nothing was adopted: there is nothing in AWS to
		// delete, retain or orphan, and no need for a working provider.
		return r.release(ctx, p, "nothing was created in AWS")
	}
	if policy == v1alpha1.DeletionPolicyRetain {
		return r.release(ctx, p, fmt.Sprintf("kept %s %s in AWS (deletionPolicy Retain)", r.kind.Name, managed.ExternalName(o)))
	}
	sess, err := r.session(ctx, o)
	if err != nil {
		if policy == v1alpha1.DeletionPolicyOrphan {
			r.event(o, corev1.EventTypeWarning, "OwnershipTagsKept", "Delete", "cannot remove the ownership tags: %s", scrubText(p.secrets, err.Error()))
			return r.release(ctx, p, fmt.Sprintf("orphaned %s %s in AWS (deletionPolicy Orphan)", r.kind.Name, managed.ExternalName(o)))
		}
		return r.fail(p, err)
	}
	drv, done, ok := r.connect(ctx, sess, o)
	if !ok {
		return r.busy(p)
	}
	defer done()
	// Observe's Conflict (a difference from the spec that no update can fix) is ignored here:
	// it must never keep an object from being deleted.
	obs, err := drv.Observe(ctx, o, managed.Request{Tags: desiredTags(o, sess.DefaultTags()), Deleting: true})
	if t, ok := managed.AsTerminal(err); ok && t.Reason == condition.ReasonAlreadyExists && managed.ExternalName(o) == "" {
		// The name this object's interrupted create would have used belongs to another owner:
		// the object never created anything.
		return r.release(ctx, p, fmt.Sprintf("nothing of this object's to delete: %v", err))
	}
	if err != nil {
		return r.fail(p, fmt.Errorf("observe before delete: %w", err))
	}
	if !obs.Exists {
		if started, ok := r.createPendingSince(o); ok && r.opts.Now().Sub(started) < r.opts.CreateGrace {
			// Created moments ago and not shown by AWS yet (eventual consistency): releasing
			// the object now would leak the resource once it appears.
			setCondition(o, condition.TypeReady, metav1.ConditionFalse, condition.ReasonDeleting, "waiting for the resource created moments ago to appear in AWS before deleting it")
			setCondition(o, condition.TypeSynced, metav1.ConditionTrue, condition.ReasonReconcileSuccess, "")
			p.result = "deleting"
			return ctrl.Result{RequeueAfter: r.polls.next(p.o, r.opts.WaitInterval)}, nil
		}
		return r.release(ctx, p, fmt.Sprintf("deleted %s %s from AWS", r.kind.Name, managed.ExternalName(o)))
	}
	if why := r.leaveAlone(o, obs.Tags, sess.InstallID()); why != "" {
		// Never delete, nor untag, what another object or install owns, nor what o was not
		// allowed to adopt.
		return r.release(ctx, p, fmt.Sprintf("left %s %s in AWS untouched: %s", r.kind.Name, managed.ExternalName(o), why))
	}
	if policy == v1alpha1.DeletionPolicyOrphan {
		if err := drv.ReleaseOwnership(ctx, o, obs); err != nil {
			return r.fail(p, fmt.Errorf("remove ownership tags: %w", err))
		}
		return r.release(ctx, p, fmt.Sprintf("orphaned %s %s in AWS (deletionPolicy Orphan)", r.kind.Name, managed.ExternalName(o)))
	}
	if err := drv.Delete(ctx, o, obs); err != nil {
		return r.fail(p, fmt.Errorf("delete: %w", err))
	}
	if r.kind.ReadyIn == 0 {
		// A resource AWS makes available at once is usually gone at once too (a bucket, a
		// topic): look again in this pass, so that the object goes without another.
		if again, err := drv.Observe(ctx, o, managed.Request{Tags: desiredTags(o, sess.DefaultTags()), Deleting: true}); err == nil && !again.Exists {
			return r.release(ctx, p, fmt.Sprintf("deleted %s %s from AWS", r.kind.Name, managed.ExternalName(o)))
		}
	}
	setCondition(o, condition.TypeReady, metav1.ConditionFalse, condition.ReasonDeleting, "the AWS resource is being deleted")
	setCondition(o, condition.TypeSynced, metav1.ConditionTrue, condition.ReasonReconcileSuccess, "")
	p.result = "deleting"
	return ctrl.Result{RequeueAfter: r.polls.next(p.o, r.opts.WaitInterval)}, nil
}

// release removes the finalizer so the API server can finish deleting the object.
func (r *Reconciler[O, S]) release(ctx context.Context, p *pass[O], what string) (ctrl.Result, error) {
	if err := r.removeFinalizer(ctx, p.o); err != nil {
		return r.fail(p, err)
	}
	r.progress.done(p.o)
	r.polls.done(p.o)
	r.refs.forget(p.o)
	what = scrubText(p.secrets, what)
	log.FromContext(ctx).Info("released", "what", what)
	r.event(p.o, corev1.EventTypeNormal, "Released", "Delete", "%s", what)
	p.result = "deleted"
	return ctrl.Result{}, nil
}
