package engine

import (
	"context"
	"fmt"
	"maps"
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/runner-codes/infra-operator/shared/api/targets"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// referenceKeys returns the reference index keys of o: one per occurrence of a declared
// reference, "Kind/ns/name", or "Kind/ns/*" for a selector.
func referenceKeys[O v1alpha1.Managed](refs []managed.Ref[O], o O) []string {
	var keys []string
	for _, ref := range refs {
		for _, site := range ref.Sites(o) {
			keys = append(keys, referenceKey(ref.Target.Kind, o.GetNamespace(), site.Name))
		}
	}
	return keys
}

// watchTargets adds to b a watch of every kind the kind's references name, so that an object
// is looked at again when what it refers to becomes usable. A kind of the same family is
// watched through the typed cache; a kind of another family is watched as unstructured
// objects when its CRD is installed, and otherwise not at all (references to it are retried).
func (r *Reconciler[O, S]) watchTargets(ctx context.Context, mgr ctrl.Manager, b *builder.Builder) (*builder.Builder, error) {
	byKind := map[string][]targets.Target{}
	for _, ref := range r.kind.References {
		byKind[ref.Target.Kind] = append(byKind[ref.Target.Kind], ref.Target)
	}
	seen := map[string]bool{}
	for _, ref := range r.kind.References {
		t := ref.Target
		if seen[t.Kind] {
			continue
		}
		seen[t.Kind] = true
		obj, ok := newTarget(mgr.GetScheme(), t, false).(client.Object)
		if !ok {
			return nil, fmt.Errorf("%s refers to %s, which is not an object kind", r.kind.Name, t.Kind)
		}
		if _, foreign := obj.(*unstructured.Unstructured); foreign && !installed(mgr, t) {
			log.FromContext(ctx).Info("not watching a kind that is not installed; references to it are retried",
				"kind", r.kind.Name, "target", t.Kind, "family", t.Family)
			continue
		}
		b = b.Watches(obj, handler.EnqueueRequestsFromMapFunc(r.requestsForReferenced(t.Kind)),
			builder.WithPredicates(referenceUsabilityChanged(byKind[t.Kind])))
	}
	return b, nil
}

// installed reports whether the API server serves the target kind.
func installed(mgr ctrl.Manager, t targets.Target) bool {
	gvk := t.GroupVersionKind()
	_, err := mgr.GetRESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version)
	return err == nil
}

// requestsForReferenced returns a map function that requests a reconcile of every object of
// the kind that refers to the changed object of kind target, by name or by a selector.
func (r *Reconciler[O, S]) requestsForReferenced(target string) handler.MapFunc {
	return func(ctx context.Context, changed client.Object) []reconcile.Request {
		reqs := r.requestsFor(ctx, referenceIndex, referenceKey(target, changed.GetNamespace(), changed.GetName()))
		return append(reqs, r.requestsFor(ctx, referenceIndex, referenceKey(target, changed.GetNamespace(), ""))...)
	}
}

// referenceKey is the index key of a reference: "Kind/ns/name", or "Kind/ns/*" for a selector.
func referenceKey(kind, namespace, name string) string {
	if name == "" {
		name = "*"
	}
	return kind + "/" + namespace + "/" + name
}

// referenceUsabilityChanged passes events of referenced objects that can change what a
// reference resolves to: creation, deletion, a change of the Ready condition's status, of the
// external name, of the labels (selectors), or of an identifier one of ts (the targets of the
// kind its references name) resolves to (a task definition's latest revision). Routine status
// writes wake nobody.
func referenceUsabilityChanged(ts []targets.Target) predicate.Predicate {
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			oldO, newO := e.ObjectOld, e.ObjectNew
			return readyOf(oldO) != readyOf(newO) || !maps.Equal(oldO.GetLabels(), newO.GetLabels()) ||
				oldO.GetAnnotations()[v1alpha1.AnnotationExternalName] != newO.GetAnnotations()[v1alpha1.AnnotationExternalName] ||
				identifiersChanged(ts, oldO, newO)
		},
	}
}

// identifiersChanged reports whether an identifier one of ts resolves to differs between the
// two versions of a referenced object.
func identifiersChanged(ts []targets.Target, oldO, newO client.Object) bool {
	oldF, errOld := fieldsOf(oldO)
	newF, errNew := fieldsOf(newO)
	if errOld != nil || errNew != nil {
		return true
	}
	for _, t := range ts {
		a, _, _ := unstructured.NestedFieldNoCopy(oldF, t.ID...)
		b, _, _ := unstructured.NestedFieldNoCopy(newF, t.ID...)
		if !reflect.DeepEqual(a, b) {
			return true
		}
	}
	return false
}
