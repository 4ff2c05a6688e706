package ec2util

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Find returns o's resource. One served by the provider's listing is returned as listed.
// Otherwise the resources that carry o's ownership tag are read: o's resource is the one whose
// id is recorded on o, or, when none is recorded, the one Choose picks, else the one with the
// lowest id, so that every reconcile picks the same (its id is then recorded). A recorded
// resource that does not carry the tag (adopted by its id, or untagged outside the operator)
// is read by its id. Every other resource that carries o's ownership tag is a duplicate, left
// by a create call whose answer was lost after AWS had done the work (EC2 creates VPCs,
// internet gateways and Elastic IPs without an idempotency token); Find names them in a
// Warning event on o and leaves them alone.
func (d Describer[T]) Find(ctx context.Context, listing *managed.Listing[T], o shared.Managed) (T, bool, error) {
	item, found, others, err := d.find(ctx, listing, o)
	if len(others) > 0 {
		managed.Warn(ctx, condition.ReasonDuplicateResources, "%s", duplicatesMessage(d.What, managed.ExternalName(o), found, others))
	}
	return item, found, err
}

// find is Find without the warning: it returns the ids of the duplicates.
func (d Describer[T]) find(ctx context.Context, listing *managed.Listing[T], o shared.Managed) (item T, found bool, others []string, err error) {
	id := managed.ExternalName(o)
	if id != "" {
		if listed, ok, err := listing.Get(ctx, id); err != nil || ok {
			return listed, ok, nil, err
		}
	}
	owned, err := d.read(ctx, nil, OwnerFilter(o))
	if err != nil {
		return item, false, nil, fmt.Errorf("describe the %ss of owner %s: %w", d.What, o.GetUID(), err)
	}
	item, found, others = d.pick(id, owned)
	if !found && id != "" {
		recorded, err := d.read(ctx, []string{id}, nil)
		if err != nil {
			return item, false, nil, fmt.Errorf("describe %s %s: %w", d.What, id, err)
		}
		if len(recorded) > 0 {
			item, found = recorded[0], true
		}
	}
	if found && id == "" {
		managed.SetExternalName(o, d.ID(item))
	}
	return item, found, others, nil
}

// read returns the first page of the resources with ids, or that filters select; a resource
// that does not exist is no error.
func (d Describer[T]) read(ctx context.Context, ids []string, filters []types.Filter) ([]T, error) {
	items, _, err := d.Describe(ctx, ids, filters, "")
	if awserr.IsNotFound(err) {
		return nil, nil
	}
	return items, err
}

// pick returns, among the resources that carry an object's ownership tag, the object's: the
// one recorded as id, or, with no id recorded, the one Choose picks or the lowest id. others
// are the ids of the duplicates, sorted: the rest, except those that are gone.
func (d Describer[T]) pick(id string, owned []T) (item T, found bool, others []string) {
	slices.SortFunc(owned, func(a, b T) int { return strings.Compare(d.ID(a), d.ID(b)) })
	switch {
	case id != "":
		if i := slices.IndexFunc(owned, func(t T) bool { return d.ID(t) == id }); i >= 0 {
			item, found = owned[i], true
		}
	case len(owned) == 0:
	case d.Choose != nil:
		item, found = d.Choose(owned), true
	default:
		item, found = owned[0], true
	}
	for _, t := range owned {
		if other := d.ID(t); (!found || other != d.ID(item)) && d.counts(t) {
			others = append(others, other)
		}
	}
	slices.Sort(others)
	return item, found, others
}

// duplicated reports whether resources that carry one object's ownership tag hold duplicates:
// more than one that counts.
func (d Describer[T]) duplicated(owned []T) bool {
	n := 0
	for _, t := range owned {
		if d.counts(t) {
			n++
		}
	}
	return n > 1
}

// counts reports whether resource t counts as one of its owner's: it is not gone, and its kind
// does not keep several resources per owner by design (Choose without Gone).
func (d Describer[T]) counts(t T) bool {
	if d.Gone != nil {
		return !d.Gone(t)
	}
	return d.Choose == nil
}

// duplicatesMessage says which resources of type what carry an object's ownership tag besides
// the one it manages (id; found tells whether that one exists) and how to clean them up.
func duplicatesMessage(what, id string, found bool, others []string) string {
	own := fmt.Sprintf("this object manages %s %s only", what, id)
	if !found {
		own = fmt.Sprintf("this object's %s %s no longer exists", what, id)
	}
	return fmt.Sprintf("duplicate %ss carry this object's ownership tag %s: %s (left by a create call whose answer was lost); "+
		"%s, and the operator neither updates nor deletes the others: delete them in AWS, or remove their tag to keep them",
		what, shared.TagOwnerUID, strings.Join(others, ", "), own)
}
