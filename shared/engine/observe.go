package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// observeOnly is the pass of an object with managementPolicy ObserveOnly: it finds the AWS
// resource (by the external-name annotation, or by the name in the spec: the kit's Claim
// adopts it), fills the status, reports how the resource differs from the spec, and writes
// nothing to AWS. A resource of another object of the namespace, or one without ownership
// tags, may be observed; one that another namespace's object or another install owns only
// when the administrator lets the namespace take over such resources (Boundary.
// TakeoverNamespaces): observing is reading, and another tenant's resource is not the
// namespace's to read through the operator. The object gets no finalizer: deleting it never
// touches AWS. installID is this install's identity.
func (r *Reconciler[O, S]) observeOnly(ctx context.Context, p *pass[O], drv managed.Driver[O, S], req managed.Request, installID string) (ctrl.Result, error) {
	o := p.o
	obs, err := drv.Observe(ctx, o, req)
	if perr := r.persistBookkeeping(ctx, p, false); perr != nil {
		return r.fail(p, perr)
	}
	if err != nil {
		return r.fail(p, fmt.Errorf("observe: %w", err))
	}
	if owner, foreign := r.otherOwner(o, obs.Tags, installID); obs.Exists && foreign && !r.opts.Boundary.MayTakeOver(o.GetNamespace()) {
		if err := restoreStatus(p.orig, o); err != nil {
			return r.fail(p, err)
		}
		return r.fail(p, managed.Terminal(condition.ReasonTakeoverNotAllowed, "%s %s belongs to %s, outside namespace %s; managementPolicy ObserveOnly "+
			"observes only resources of this namespace's objects or resources without ownership tags. To observe it, the cluster administrator "+
			"must allow namespace %s (operator flag --takeover-namespaces, chart value tenancy.takeoverNamespaces)",
			r.kind.Name, managed.ExternalName(o), owner, o.GetNamespace(), o.GetNamespace()))
	}
	now := metav1.NewTime(r.opts.Now())
	o.GetManagedStatus().LastSyncTime = &now
	o.GetManagedStatus().ObservedGeneration = o.GetGeneration()
	setCondition(o, condition.TypeSynced, metav1.ConditionTrue, condition.ReasonReconcileSuccess, "")
	if !obs.Exists {
		o.GetManagedStatus().Drift = nil
		setCondition(o, condition.TypeReady, metav1.ConditionFalse, condition.ReasonNotFoundInAWS, fmt.Sprintf(
			"managementPolicy ObserveOnly: no %s %sfound in AWS, and the operator never creates one; name an existing resource "+
				"with the annotation %s, or set managementPolicy to Manage", r.kind.Name, nameOrEmpty(managed.ExternalName(o)), v1alpha1.AnnotationExternalName))
		p.result = "wait"
		return ctrl.Result{RequeueAfter: r.opts.ProviderRetry}, nil
	}
	fields := observedDrift(o, obs, req.Tags)
	leaving := "managementPolicy ObserveOnly never writes to AWS"
	switch {
	case obs.Conflict != nil:
		r.markDrift(p, append(fields, "spec"), condition.ReasonDriftReported, obs.Conflict.Error()+"; "+leaving)
	case len(fields) > 0:
		r.markDrift(p, fields, condition.ReasonDriftReported, driftMessage(r.kind.Name, fields, leaving))
	default:
		r.clearDrift(p)
	}
	if !obs.Ready {
		msg := obs.Message
		if msg == "" {
			msg = "the AWS resource is not available"
		}
		setCondition(o, condition.TypeReady, metav1.ConditionFalse, condition.ReasonUnavailable, msg)
		p.result = "wait"
		return ctrl.Result{RequeueAfter: r.polls.next(o, r.opts.WaitInterval)}, nil
	}
	r.polls.done(o)
	if err := r.writeOutputs(ctx, o); err != nil {
		return r.fail(p, err)
	}
	setCondition(o, condition.TypeReady, metav1.ConditionTrue, condition.ReasonObserved, "managementPolicy ObserveOnly: the operator reports this resource and never writes to it")
	p.result = "observed"
	return ctrl.Result{RequeueAfter: r.jitter(r.opts.SyncPeriod)}, nil
}

// observedDrift returns the spec fields an observed resource differs in. The driver names
// them in its plan; its "tags" change (which would also strip tags the spec does not name, and
// add the ownership tags) is replaced by one field per tag of the spec whose value differs,
// when the driver reports the resource's tags: an observed resource may carry any tags of its
// own.
func observedDrift[O v1alpha1.Managed, S any](o O, obs managed.Observation[S], desired map[string]string) []string {
	var fields []string
	for _, f := range obs.Changes.Fields() {
		if f != "tags" {
			fields = append(fields, f)
		}
	}
	if obs.Tags == nil {
		return fields
	}
	for _, k := range slices.Sorted(maps.Keys(desired)) {
		if v, ok := obs.Tags[k]; !ok || v != desired[k] {
			fields = append(fields, "tags."+k)
		}
	}
	return fields
}

// nameOrEmpty returns id followed by a space, or "" when id is empty.
func nameOrEmpty(id string) string {
	if id == "" {
		return ""
	}
	return id + " "
}

// observedTags returns the tags an observed resource is compared with: the provider's default
// tags and the spec's, without the ownership tags, which an observed resource need not carry.
func observedTags(desired map[string]string) map[string]string {
	out := maps.Clone(desired)
	maps.DeleteFunc(out, func(k, _ string) bool { return managed.IsOwnershipTag(k) })
	return out
}
