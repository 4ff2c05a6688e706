package ec2util

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Describer reads resources of one EC2 type: by ids, or by filters when ids is empty, one page
// at a time (next is the page token; "" for the first page).
type Describer[T any] struct {
	// What names the resource type in errors, for example "subnet".
	What string
	// Describe reads one page.
	Describe func(ctx context.Context, ids []string, filters []types.Filter, next string) (items []T, token string, err error)
	// ID returns a resource's id.
	ID func(T) string
	// Choose picks o's resource when several carry its ownership tag and none is recorded on o
	// (a NAT gateway that was replaced stays visible for a while, for example); nil takes the
	// lowest id. A kind that sets Choose keeps several resources per owner by design: Find
	// reports duplicates for it only when Gone is set too.
	Choose func([]T) T
	// Gone reports a resource that is deleted or being deleted but still visible; such a
	// resource is never reported as a duplicate. Nil means every resource counts.
	Gone func(T) bool
}

// Listing returns a listing of every resource of the type the operator owns. Resources that
// share their owner with a duplicate are left out, so that their object reads them directly
// at every sync and Find reports the duplicates.
func (d Describer[T]) Listing() *managed.Listing[T] {
	return &managed.Listing[T]{TTL: managed.ListingTTL, List: func(ctx context.Context) (map[string]T, error) {
		byOwner := map[string][]T{}
		next := ""
		for {
			items, token, err := d.Describe(ctx, nil, OwnedFilter(), next)
			if err != nil {
				return nil, fmt.Errorf("list the operator's %ss: %w", d.What, err)
			}
			for _, item := range items {
				owner := Tags(resourceTags(item))[shared.TagOwnerUID]
				byOwner[owner] = append(byOwner[owner], item)
			}
			if next = token; next == "" {
				break
			}
		}
		out := map[string]T{}
		for owner, items := range byOwner {
			if owner != "" && d.duplicated(items) {
				continue
			}
			for _, item := range items {
				out[d.ID(item)] = item
			}
		}
		return out, nil
	}}
}
