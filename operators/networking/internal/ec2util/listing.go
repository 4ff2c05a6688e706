package ec2util

import (
	"context"
	"fmt"
	"github.com/aws/aws-sdk-go-v2/aws"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// ListingTTL is how old a listing of owned resources may be. Periodic syncs of many resources
// of one kind share one paginated Describe per ListingTTL; drift is seen at the first sync of a
// resource after a listing newer than the change.
const ListingTTL = time.Minute

// Describer reads resources of one EC2 type: by ids, or by filters when ids is empty, one page
// at a time (next is the page token; "" for the first page).
type Describer[T any] struct {
	// What names the resource type in errors, for example "subnet".
	What string
	// Describe reads one page.
	Describe func(ctx context.Context, ids []string, filters []types.Filter, next string) (items []T, token string, err error)
	// ID returns a resource's id.
	ID func(T) string
	// Choose picks o's resource when several carry its ownership tag (a NAT gateway that was
	// replaced stays visible for a while, for example); nil takes the first.
	Choose func([]T) T
}

// Listing returns a listing of every resource of the type the operator owns.
func (d Describer[T]) Listing() *managed.Listing[T] {
	return &managed.Listing[T]{TTL: ListingTTL, List: func(ctx context.Context) (map[string]T, error) {
		out := map[string]T{}
		next := ""
		for {
			items, token, err := d.Describe(ctx, nil, OwnedFilter(), next)
			if err != nil {
				return nil, fmt.Errorf("list the operator's %ss: %w", d.What, err)
			}
			for _, item := range items {
				out[d.ID(item)] = item
			}
			if next = token; next == "" {
				return out, nil
			}
		}
	}}
}

// Find returns o's resource: from the listing, else by its recorded id, else by its ownership
// tag (then recording its id).
func (d Describer[T]) Find(ctx context.Context, listing *managed.Listing[T], o shared.Managed) (T, bool, error) {
	var zero T
	id := managed.ExternalName(o)
	if id != "" {
		if item, ok, err := listing.Get(ctx, id); err != nil || ok {
			return item, ok, err
		}
	}
	var ids []string
	filters := OwnerFilter(o)
	if id != "" {
		ids, filters = []string{id}, nil
	}
	items, _, err := d.Describe(ctx, ids, filters, "")
	if awserr.IsNotFound(err) {
		return zero, false, nil
	}
	if err != nil {
		return zero, false, fmt.Errorf("describe %s %s: %w", d.What, id, err)
	}
	if len(items) == 0 {
		return zero, false, nil
	}
	item := items[0]
	if d.Choose != nil {
		item = d.Choose(items)
	}
	if id == "" {
		managed.SetExternalName(o, d.ID(item))
	}
	return item, true, nil
}

// Paging returns the MaxResults and NextToken of one Describe request: pages of max when
// listing by filters (EC2 refuses MaxResults together with ids), and the token of the page
// after next ("" for the first).
func Paging(ids []string, max int32, next string) (maxResults *int32, token *string) {
	if ids == nil {
		maxResults = aws.Int32(max)
	}
	if next != "" {
		token = aws.String(next)
	}
	return maxResults, token
}
