package managed

import (
	"context"
	"slices"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// Boundary is what the cluster administrator lets a namespace's objects do to AWS resources
// that are not theirs (operator flags, chart values); the object's own annotations never widen
// it. Each list holds namespaces, or "*" for every namespace.
//
// The defaults (DefaultBoundary) keep one team's resources closed to another's: a resource
// that carries no ownership tags (made outside the operator, or released by deletionPolicy
// Orphan) may be adopted by any namespace, as a single-team cluster expects; a resource that
// another namespace's object or another install owns is never taken over, and no field that
// names a resource by ARN writes into it unless its ownership tags name the object's namespace.
type Boundary struct {
	// AdoptionNamespaces may adopt resources that carry no ownership tags, by the
	// external-name annotation (default "*"; operator flag --adoption-namespaces).
	AdoptionNamespaces []string
	// TakeoverNamespaces may take over, with the takeover annotation, or observe with
	// managementPolicy ObserveOnly, a resource whose ownership tags name an object of another
	// namespace, or another install (default none; operator flag --takeover-namespaces). A
	// resource of another object of the same namespace needs only the annotation.
	TakeoverNamespaces []string
	// ForeignWriteNamespaces may write, through a field that names a resource by ARN (an API's
	// lambdaFunctionARN, a topic's queue subscription), into a resource whose ownership tags do
	// not name their namespace (default none; operator flag --foreign-write-namespaces).
	ForeignWriteNamespaces []string
}

// DefaultBoundary returns the boundary of an operator whose administrator changed nothing.
func DefaultBoundary() *Boundary {
	return &Boundary{AdoptionNamespaces: []string{"*"}}
}

// MayAdopt reports whether objects of namespace ns may adopt a resource without ownership tags.
func (b *Boundary) MayAdopt(ns string) bool { return allows(b.AdoptionNamespaces, ns) }

// MayTakeOver reports whether objects of namespace ns may take over or observe a resource
// another namespace's object, or another install, owns.
func (b *Boundary) MayTakeOver(ns string) bool { return allows(b.TakeoverNamespaces, ns) }

// MayWriteForeign reports whether objects of namespace ns may write into a resource, named by
// ARN, whose ownership tags do not name ns.
func (b *Boundary) MayWriteForeign(ns string) bool { return allows(b.ForeignWriteNamespaces, ns) }

// allows reports whether list holds ns or "*".
func allows(list []string, ns string) bool {
	return slices.Contains(list, "*") || slices.Contains(list, ns)
}

type boundaryKey struct{}

// WithBoundary returns ctx carrying b, the boundary the checks of drivers called with the
// returned context apply. The engine sets it for every pass.
func WithBoundary(ctx context.Context, b *Boundary) context.Context {
	return context.WithValue(ctx, boundaryKey{}, b)
}

// BoundaryOf returns the boundary ctx carries, or DefaultBoundary when it carries none.
func BoundaryOf(ctx context.Context) *Boundary {
	if b, ok := ctx.Value(boundaryKey{}).(*Boundary); ok && b != nil {
		return b
	}
	return DefaultBoundary()
}

// CheckForeignWrite decides whether o may write into the AWS resource arn (what names it in
// messages, for example "Lambda function"), which a spec field of o names by ARN rather than
// by reference: tags are the resource's tags, read just before the write. The write is allowed
// when the resource's owner-namespace tag names o's namespace (an object of the namespace made
// it), or when the administrator lets o's namespace write into resources it does not own
// (Boundary.ForeignWriteNamespaces, from ctx). Otherwise it returns a terminal error, before
// any write, that names the rule and the flag.
func CheckForeignWrite(ctx context.Context, o v1alpha1.Managed, what, arn string, tags map[string]string) error {
	ns := o.GetNamespace()
	if tags[v1alpha1.TagOwnerNamespace] == ns || BoundaryOf(ctx).MayWriteForeign(ns) {
		return nil
	}
	owner := "carries no ownership tags (the operator did not create it)"
	if other := tags[v1alpha1.TagOwnerNamespace]; other != "" {
		owner = "belongs to namespace " + other
	}
	return Terminal(condition.ReasonForeignWriteNotAllowed, "%s %s %s; the operator writes into a resource named by ARN only when an object "+
		"of namespace %s made it: refer to an object of this namespace instead, or ask the cluster administrator to allow namespace %s "+
		"(operator flag --foreign-write-namespaces, chart value tenancy.foreignWriteNamespaces); nothing was written", what, arn, owner, ns, ns)
}
