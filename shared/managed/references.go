package managed

import (
	"context"
	"fmt"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// referenceRetry is how soon an object waiting for a reference is looked at again without a
// change of the referenced object; such a change wakes it at once through the reference watch.
const referenceRetry = time.Minute

// Reasons of the waiting condition of an object whose reference cannot be used yet.
const (
	// ReasonReferenceNotFound says a referenced object does not exist (yet).
	ReasonReferenceNotFound = "ReferenceNotFound"
	// ReasonReferenceNotReady says a referenced object exists and is not Ready yet.
	ReasonReferenceNotReady = "ReferenceNotReady"
)

// Ref is one reference of an object's spec, for the watches that wake the object when what it
// refers to changes.
type Ref struct {
	// Kind is the referenced kind, for example "VPC".
	Kind string
	// Name is the referenced object's name; empty for a label selector, which may match any
	// object of the kind in the namespace.
	Name string
}

// ReferenceTarget is a kind that other kinds refer to: how to make an empty object of it, and
// which AWS identifier of it a reference resolves to.
type ReferenceTarget[T v1alpha1.Managed] struct {
	// Kind is the kind's name, for example "VPC".
	Kind string
	// New returns an empty object of the kind.
	New func() T
	// NewList returns an empty list of the kind.
	NewList func() client.ObjectList
	// Value returns the identifier a reference resolves to (for example status.vpcID, or an
	// ARN); "" while it is not known.
	Value func(T) string
}

// Resolve returns the identifier that ref (the field named field of from's spec, for
// messages) resolves to: the target's Value once it is Ready. It returns a *WaitingError that
// names the reference while the object is missing or not Ready.
func (t ReferenceTarget[T]) Resolve(ctx context.Context, c client.Reader, from v1alpha1.Managed, field string, ref v1alpha1.Reference) (string, error) {
	o, err := t.get(ctx, c, from, field, ref)
	if err != nil {
		return "", err
	}
	return t.usable(o, field)
}

// ResolveCreated returns the identifier of the object ref names as soon as that object has
// created its AWS resource (recorded its external name), without waiting for it to be Ready.
// It serves references that may form cycles, such as security groups that allow each other's
// traffic: each can be created before the other is Ready. It waits while the object is
// missing or has created nothing yet.
func (t ReferenceTarget[T]) ResolveCreated(ctx context.Context, c client.Reader, from v1alpha1.Managed, field string, ref v1alpha1.Reference) (string, error) {
	o, err := t.get(ctx, c, from, field, ref)
	if err != nil {
		return "", err
	}
	id := ExternalName(o)
	if id == "" {
		return "", &WaitingError{Reason: ReasonReferenceNotReady, After: referenceRetry,
			Message: fmt.Sprintf("%s: %s %s/%s does not exist in AWS yet", field, t.Kind, from.GetNamespace(), ref.Name)}
	}
	return id, nil
}

// get reads the object ref names, in from's namespace; it waits while the object is missing.
func (t ReferenceTarget[T]) get(ctx context.Context, c client.Reader, from v1alpha1.Managed, field string, ref v1alpha1.Reference) (T, error) {
	o := t.New()
	err := c.Get(ctx, types.NamespacedName{Namespace: from.GetNamespace(), Name: ref.Name}, o)
	if apierrors.IsNotFound(err) {
		return o, &WaitingError{Reason: ReasonReferenceNotFound, After: referenceRetry,
			Message: fmt.Sprintf("%s: %s %s/%s does not exist", field, t.Kind, from.GetNamespace(), ref.Name)}
	}
	if err != nil {
		return o, fmt.Errorf("%s: read %s %s/%s: %w", field, t.Kind, from.GetNamespace(), ref.Name, err)
	}
	return o, nil
}

// ResolveInto sets *id to what ref (the field named field of from's spec) resolves to, when
// ref is set; it leaves *id alone when ref is nil, for specs that take an id or a reference.
func (t ReferenceTarget[T]) ResolveInto(ctx context.Context, c client.Reader, from v1alpha1.Managed, field string, ref *v1alpha1.Reference, id *string) error {
	if ref == nil {
		return nil
	}
	v, err := t.Resolve(ctx, c, from, field, *ref)
	*id = v
	return err
}

// Refs returns the watch reference that ref makes to the kind, none when ref is nil.
func (t ReferenceTarget[T]) Refs(ref *v1alpha1.Reference) []Ref {
	if ref == nil {
		return nil
	}
	return []Ref{{Kind: t.Kind, Name: ref.Name}}
}

// ResolveAll appends to *ids the identifiers the references of a list field resolve to (the
// field named field, indexed in messages); it waits while any of them is not Ready.
func (t ReferenceTarget[T]) ResolveAll(ctx context.Context, c client.Reader, from v1alpha1.Managed, field string, refs []v1alpha1.Reference, ids *[]string) error {
	for i, ref := range refs {
		v, err := t.Resolve(ctx, c, from, fmt.Sprintf("%s[%d]", field, i), ref)
		if err != nil {
			return err
		}
		*ids = append(*ids, v)
	}
	return nil
}

// ResolveSelectorInto sets *ids to what sel selects (see ResolveSelector) when sel is set, and
// leaves *ids alone when it is nil, for specs that take ids, references or a selector.
func (t ReferenceTarget[T]) ResolveSelectorInto(ctx context.Context, c client.Reader, from v1alpha1.Managed, field string, sel *v1alpha1.Selector, ids *[]string) error {
	if sel == nil {
		return nil
	}
	v, err := t.ResolveSelector(ctx, c, from, field, *sel)
	if err != nil {
		return err
	}
	*ids = v
	return nil
}

// ListRefs returns the watch references that a list of references and a selector (either may
// be empty) make to the kind; a selector watches every object of the kind.
func (t ReferenceTarget[T]) ListRefs(refs []v1alpha1.Reference, sel *v1alpha1.Selector) []Ref {
	out := make([]Ref, 0, len(refs)+1)
	for _, ref := range refs {
		out = append(out, Ref{Kind: t.Kind, Name: ref.Name})
	}
	if sel != nil {
		out = append(out, Ref{Kind: t.Kind})
	}
	return out
}

// ResolveSelector returns the identifiers of every object of the kind in from's namespace that
// sel selects, sorted. It waits while none matches or any match is not Ready.
func (t ReferenceTarget[T]) ResolveSelector(ctx context.Context, c client.Reader, from v1alpha1.Managed, field string, sel v1alpha1.Selector) ([]string, error) {
	list := t.NewList()
	if err := c.List(ctx, list, client.InNamespace(from.GetNamespace()), client.MatchingLabels(sel.MatchLabels)); err != nil {
		return nil, fmt.Errorf("%s: list %s objects: %w", field, t.Kind, err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, fmt.Errorf("%s: read the %s list: %w", field, t.Kind, err)
	}
	if len(items) == 0 {
		return nil, &WaitingError{Reason: ReasonReferenceNotFound, After: referenceRetry,
			Message: fmt.Sprintf("%s: no %s in namespace %s has the labels %v", field, t.Kind, from.GetNamespace(), sel.MatchLabels)}
	}
	values := make([]string, 0, len(items))
	for _, item := range items {
		v, err := t.usable(item.(T), field)
		if err != nil {
			return nil, err
		}
		values = append(values, v)
	}
	slices.Sort(values)
	return values, nil
}

// usable returns o's identifier once o is Ready, or a waiting error naming it.
func (t ReferenceTarget[T]) usable(o T, field string) (string, error) {
	v := t.Value(o)
	if !isTrue(o.GetManagedStatus().Conditions, TypeReady) || v == "" {
		return "", &WaitingError{Reason: ReasonReferenceNotReady, After: referenceRetry,
			Message: fmt.Sprintf("%s: %s %s/%s is not Ready yet", field, t.Kind, o.GetNamespace(), o.GetName())}
	}
	return v, nil
}
