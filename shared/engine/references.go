package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// referenceRetry is how soon an object waiting for a reference is looked at again without a
// change of the referenced object; such a change wakes it at once through the reference watch.
const referenceRetry = time.Minute

// resolveReferences fills o's spec, in memory, with the identifiers its declared references
// resolve to, and returns a digest of them (field by field). It returns a *managed.WaitingError
// that names the field while a referenced object is missing or not usable yet.
func (r *Reconciler[O, S]) resolveReferences(ctx context.Context, o O) (string, error) {
	digest := sha256.New()
	for _, ref := range r.kind.References {
		deferrable := ref.Defer != nil && ref.Defer(o)
		for _, site := range ref.Sites(o) {
			ids, err := r.resolveSite(ctx, o, ref, site)
			if _, waiting := managed.AsWaiting(err); waiting && deferrable {
				continue
			}
			if err != nil {
				return "", err
			}
			site.Set(ids)
			fmt.Fprintf(digest, "%s=%s\n", site.Field, strings.Join(ids, ","))
		}
	}
	return hex.EncodeToString(digest.Sum(nil)), nil
}

// resolveSite returns the identifiers one occurrence of a reference resolves to.
func (r *Reconciler[O, S]) resolveSite(ctx context.Context, from O, ref managed.Ref[O], site managed.Site) ([]string, error) {
	t := ref.Target
	if site.Name == "" {
		return r.resolveSelector(ctx, from, ref, site)
	}
	obj := newTarget(r.client.Scheme(), t, false).(client.Object)
	err := r.client.Get(ctx, types.NamespacedName{Namespace: from.GetNamespace(), Name: site.Name}, obj)
	switch {
	case meta.IsNoMatchError(err):
		return nil, notInstalled(t, site.Field)
	case apierrors.IsNotFound(err):
		return nil, &managed.WaitingError{Reason: condition.ReasonReferenceNotFound, After: referenceRetry,
			Message: fmt.Sprintf("%s: %s %s/%s does not exist", site.Field, t.Kind, from.GetNamespace(), site.Name)}
	case err != nil:
		return nil, fmt.Errorf("%s: read %s %s/%s: %w", site.Field, t.Kind, from.GetNamespace(), site.Name, err)
	}
	if err := writable(ref, t, obj, site.Field); err != nil {
		return nil, err
	}
	if ref.Created {
		id := obj.GetAnnotations()[v1alpha1.AnnotationExternalName]
		if id == "" {
			return nil, &managed.WaitingError{Reason: condition.ReasonReferenceNotReady, After: referenceRetry,
				Message: fmt.Sprintf("%s: %s %s/%s does not exist in AWS yet", site.Field, t.Kind, from.GetNamespace(), site.Name)}
		}
		return []string{id}, nil
	}
	id, err := usableID(t, obj, site.Field, site.Element)
	if err != nil {
		return nil, err
	}
	return []string{id}, nil
}

// resolveSelector returns the identifiers of every object of ref's target kind in from's
// namespace that the site's selector selects, sorted. It waits while none matches, any match
// is not Ready, or, for a reference that writes into its targets, any match only observes.
func (r *Reconciler[O, S]) resolveSelector(ctx context.Context, from O, ref managed.Ref[O], site managed.Site) ([]string, error) {
	t := ref.Target
	list := newTarget(r.client.Scheme(), t, true).(client.ObjectList)
	err := r.client.List(ctx, list, client.InNamespace(from.GetNamespace()), client.MatchingLabels(site.Selector.MatchLabels))
	if meta.IsNoMatchError(err) {
		return nil, notInstalled(t, site.Field)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: list %s objects: %w", site.Field, t.Kind, err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, fmt.Errorf("%s: read the %s list: %w", site.Field, t.Kind, err)
	}
	if len(items) == 0 {
		return nil, &managed.WaitingError{Reason: condition.ReasonReferenceNotFound, After: referenceRetry,
			Message: fmt.Sprintf("%s: no %s in namespace %s has the labels %v", site.Field, t.Kind, from.GetNamespace(), site.Selector.MatchLabels)}
	}
	ids := make([]string, 0, len(items))
	for _, item := range items {
		if err := writable(ref, t, item.(client.Object), site.Field); err != nil {
			return nil, err
		}
		id, err := usableID(t, item.(client.Object), site.Field, "")
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, nil
}

// newTarget returns an empty object (or list) of the target kind: the typed one when the
// scheme knows the kind (a kind of the same family, served from the shared cache), an
// unstructured one otherwise (a kind of another family).
func newTarget(scheme *runtime.Scheme, t targets.Target, list bool) runtime.Object {
	gvk := t.GroupVersionKind()
	if list {
		gvk.Kind += "List"
	}
	if obj, err := scheme.New(gvk); err == nil {
		return obj
	}
	if list {
		l := &unstructured.UnstructuredList{}
		l.SetGroupVersionKind(gvk)
		return l
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u
}

// usableID returns the identifier of obj (of target kind t) once obj is Ready, or a waiting
// error naming the field. For a target with an Element, element names the element of obj's
// list whose identifier it is.
func usableID(t targets.Target, obj client.Object, field, element string) (string, error) {
	fields, err := fieldsOf(obj)
	if err != nil {
		return "", fmt.Errorf("%s: read %s %s/%s: %w", field, t.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	id, _, _ := unstructured.NestedString(fields, t.ID...)
	if t.Element != nil {
		id = elementID(fields, t, element)
	}
	if reason, failed := stalledOf(obj); failed {
		return "", &managed.WaitingError{Reason: condition.ReasonReferenceFailed, After: referenceRetry,
			Message: fmt.Sprintf("%s: %s %s/%s failed (%s): this object goes on once it is fixed", field, t.Kind, obj.GetNamespace(), obj.GetName(), reason)}
	}
	if t.Element != nil && readyOf(obj) && id == "" {
		return "", &managed.WaitingError{Reason: condition.ReasonReferenceNotReady, After: referenceRetry,
			Message: fmt.Sprintf("%s: %s %s/%s has no %q with %s %q (yet)", field, t.Kind, obj.GetNamespace(), obj.GetName(),
				t.ID[len(t.ID)-1], t.Element.Key, element)}
	}
	if !readyOf(obj) || id == "" {
		return "", &managed.WaitingError{Reason: condition.ReasonReferenceNotReady, After: referenceRetry,
			Message: fmt.Sprintf("%s: %s %s/%s is not Ready yet", field, t.Kind, obj.GetNamespace(), obj.GetName())}
	}
	return id, nil
}

// elementID returns the identifier of the element of the target's list (t.ID) whose key is
// element, "" when there is none (yet): a load balancer lists a target group once it made it.
func elementID(fields map[string]any, t targets.Target, element string) string {
	items, _, _ := unstructured.NestedSlice(fields, t.ID...)
	for _, item := range items {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		if key, _ := m[t.Element.Key].(string); key == element && element != "" {
			id, _ := m[t.Element.ID].(string)
			return id
		}
	}
	return ""
}

// writable returns a waiting error naming the field when ref writes into the AWS resource of
// its target obj (of kind t) and obj has managementPolicy ObserveOnly: the operator never
// writes to an observed resource, whoever asks, so that an object cannot reach through an
// observe-only object into a resource its namespace does not manage. It returns nil otherwise.
func writable[O any](ref managed.Ref[O], t targets.Target, obj client.Object, field string) error {
	if !ref.Writes || !observesOnly(obj) {
		return nil
	}
	return &managed.WaitingError{Reason: condition.ReasonReferenceObserveOnly, After: referenceRetry,
		Message: fmt.Sprintf("%s: %s %s/%s has managementPolicy ObserveOnly, and this field writes into its AWS resource, which the operator "+
			"never writes to: refer to an object with managementPolicy Manage", field, t.Kind, obj.GetNamespace(), obj.GetName())}
}

// observesOnly reports whether obj, typed or unstructured, has managementPolicy ObserveOnly.
func observesOnly(obj client.Object) bool {
	if m, ok := obj.(v1alpha1.Managed); ok {
		return v1alpha1.ObserveOnly(m)
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return false
	}
	policy, _, _ := unstructured.NestedString(u.Object, "spec", "managementPolicy")
	return policy == string(v1alpha1.ManagementPolicyObserveOnly)
}

// fieldsOf returns obj's fields as a map, the form in which a target's identifier path is read.
func fieldsOf(obj client.Object) (map[string]any, error) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return u.Object, nil
	}
	return runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
}

// readyOf reports whether a referenced object, typed or unstructured, is Ready.
func readyOf(obj client.Object) bool {
	c := conditionOf(obj, condition.TypeReady)
	return c != nil && c.Status == metav1.ConditionTrue
}

// stalledOf returns the reason of obj's Stalled condition and true when obj failed: nothing
// happens to it until its spec changes.
func stalledOf(obj client.Object) (string, bool) {
	c := conditionOf(obj, condition.TypeStalled)
	if c == nil || c.Status != metav1.ConditionTrue {
		return "", false
	}
	return c.Reason, true
}

// conditionOf returns obj's condition of type typ, typed or read from an unstructured object;
// nil when it has none.
func conditionOf(obj client.Object, typ string) *metav1.Condition {
	if m, ok := obj.(v1alpha1.Managed); ok {
		return meta.FindStatusCondition(m.GetManagedStatus().Conditions, typ)
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil
	}
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == typ {
			status, _ := m["status"].(string)
			reason, _ := m["reason"].(string)
			return &metav1.Condition{Type: typ, Status: metav1.ConditionStatus(status), Reason: reason}
		}
	}
	return nil
}

// notInstalled is the waiting error of a reference to a kind whose family is not installed.
func notInstalled(t targets.Target, field string) error {
	return &managed.WaitingError{Reason: condition.ReasonReferenceKindNotInstalled, After: referenceRetry,
		Message: fmt.Sprintf("%s names a %s, but the %s kind is not installed (install the %s family)", field, t.Kind, t.Kind, t.Family)}
}
