package managed

import (
	"context"
	"sync"
	"time"
)

// ListingTTL is how old a listing of a kind's resources may be before it is read again. The
// periodic syncs of many resources of one kind share one paginated read per ListingTTL; drift
// is seen at the first sync of a resource after a listing newer than the change.
const ListingTTL = time.Minute

// Listing serves the periodic observations of one kind under one AWSProvider from one
// paginated read of every resource the operator owns (for example DescribeSubnets filtered by
// the ownership tag), instead of one Describe per resource per sync. A listing is read again
// when it is older than TTL. Each listed resource is served once per listing: a second look at
// the same resource before the next listing (a spec change, a resync, a wait after a write)
// and a resource the listing does not hold are reported as not listed, for the driver to read
// directly, so that event-driven reconciles always see AWS's current state.
type Listing[T any] struct {
	// TTL is how old a listing may be before it is read again.
	TTL time.Duration
	// List reads every resource of the kind the operator owns, by id.
	List func(ctx context.Context) (map[string]T, error)
	// Now returns the current time; nil means time.Now.
	Now func() time.Time

	mu     sync.Mutex
	at     time.Time
	items  map[string]T
	served map[string]bool
}

// Get returns the listed state of the resource id. ok is false when the listing does not
// hold it or already served it: the caller then reads the resource directly.
func (l *Listing[T]) Get(ctx context.Context, id string) (state T, ok bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	if l.items == nil || now().Sub(l.at) >= l.TTL {
		items, err := l.List(ctx)
		if err != nil {
			return state, false, err
		}
		l.items, l.at, l.served = items, now(), map[string]bool{}
	}
	state, ok = l.items[id]
	if !ok || l.served[id] {
		var zero T
		return zero, false, nil
	}
	l.served[id] = true
	return state, true, nil
}
