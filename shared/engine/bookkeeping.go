package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// bookkeepingKeys are the annotations the reconciler writes on its own account.
var bookkeepingKeys = []string{v1alpha1.AnnotationExternalName, v1alpha1.AnnotationCreatePending}

// persistBookkeeping writes the external-name and create-pending annotations when the driver
// or the reconciler changed them in memory, so that the AWS identifier is recorded the moment
// it is known; with finalizer set it also adds the finalizer when o lacks it, in the same
// patch. Only those fields are sent, so the status built in memory is left alone. A patch that
// adds the finalizer carries o's resourceVersion (a merge patch replaces the finalizer list
// whole), so it fails with a conflict rather than drop another writer's finalizer.
func (r *Reconciler[O, S]) persistBookkeeping(ctx context.Context, p *pass[O], finalizer bool) error {
	if p.persisted == nil {
		p.persisted = copyAnnotations(p.orig)
	}
	cur := p.o.GetAnnotations()
	changes := map[string]any{}
	for _, key := range bookkeepingKeys {
		v, ok := cur[key]
		pv, pok := p.persisted[key]
		switch {
		case ok && (!pok || v != pv):
			changes[key] = v
		case !ok && pok:
			changes[key] = nil
		}
	}
	md := map[string]any{}
	if len(changes) > 0 {
		md["annotations"] = changes
	}
	if finalizer && !controllerutil.ContainsFinalizer(p.o, v1alpha1.Finalizer) {
		controllerutil.AddFinalizer(p.o, v1alpha1.Finalizer)
		md["finalizers"] = p.o.GetFinalizers()
		md["resourceVersion"] = p.o.GetResourceVersion()
	}
	if len(md) == 0 {
		return nil
	}
	patch, err := json.Marshal(map[string]any{"metadata": md})
	if err != nil {
		return fmt.Errorf("encode bookkeeping: %w", err)
	}
	target := p.o.DeepCopyObject().(client.Object)
	if err := r.client.Patch(ctx, target, client.RawPatch(types.MergePatchType, patch)); err != nil {
		return fmt.Errorf("record the bookkeeping of %s %s/%s: %w", r.kind.Name, p.o.GetNamespace(), p.o.GetName(), err)
	}
	p.o.SetResourceVersion(target.GetResourceVersion())
	p.persisted = copyAnnotations(p.o)
	return nil
}

func copyAnnotations(o v1alpha1.Managed) map[string]string {
	out := map[string]string{}
	for k, v := range o.GetAnnotations() {
		out[k] = v
	}
	return out
}

// removeFinalizer lets the API server finish deleting o.
func (r *Reconciler[O, S]) removeFinalizer(ctx context.Context, o O) error {
	if !controllerutil.ContainsFinalizer(o, v1alpha1.Finalizer) {
		return nil
	}
	return r.patchMetaLocked(ctx, o, func() { controllerutil.RemoveFinalizer(o, v1alpha1.Finalizer) })
}

// patchMetaLocked applies mutate to o and writes the metadata change with optimistic locking,
// for list fields such as finalizers that a merge patch replaces whole.
func (r *Reconciler[O, S]) patchMetaLocked(ctx context.Context, o O, mutate func()) error {
	base := o.DeepCopyObject().(client.Object)
	mutate()
	target := o.DeepCopyObject().(client.Object)
	if err := r.client.Patch(ctx, target, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("patch finalizers of %s %s/%s: %w", r.kind.Name, o.GetNamespace(), o.GetName(), err)
	}
	o.SetResourceVersion(target.GetResourceVersion())
	return nil
}

// mightExist reports whether an AWS resource may exist for o: it has an identifier, or a
// create call was started for it.
func mightExist(o v1alpha1.Managed) bool {
	a := o.GetAnnotations()
	return a[v1alpha1.AnnotationExternalName] != "" || a[v1alpha1.AnnotationCreatePending] != ""
}

// mayHaveCreated reports whether a failed create call may still have created the resource:
// any attempt that AWS did not clearly answer (uncertain counts them: a transport failure, a
// server error) may have, whatever the SDK's last error says after its retries; otherwise only
// a clear refusal by AWS, or a driver that says it must wait or cannot proceed, rules it out.
func mayHaveCreated(err error, uncertain int) bool {
	if err == nil || uncertain > 0 {
		return true
	}
	if _, ok := managed.AsTerminal(err); ok {
		return false
	}
	if _, ok := managed.AsWaiting(err); ok {
		return false
	}
	switch awserr.Classify(err) {
	case awserr.ClassInvalidInput, awserr.ClassAccessDenied, awserr.ClassQuotaExceeded, awserr.ClassThrottling, awserr.ClassNotFound:
		// A create refused because something it names does not exist (a VPC, a subnet) made
		// nothing either.
		return false
	}
	return true
}
