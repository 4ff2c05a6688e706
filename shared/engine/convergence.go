package engine

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// notConvergingAfter is how many updates that left the same difference in place make the
// reconciler say that the resource does not converge and back off.
const notConvergingAfter = 3

// convergence remembers, per object, the difference its last update was made for, to tell an
// update that did not take (AWS keeps the value in another form) from progress.
type convergence struct {
	mu   sync.Mutex
	last map[types.UID]attempt
}

// attempt is one object's last update: the generation and difference it was made for, and how
// many updates in a row left that same difference.
type attempt struct {
	generation int64
	diff       string
	repeats    int
}

func newConvergence() *convergence { return &convergence{last: map[types.UID]attempt{}} }

// repeats returns how many updates in a row were already made for o's current generation and
// this same difference.
func (c *convergence) repeats(o v1alpha1.Managed, diff string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.last[o.GetUID()]
	if !ok || a.generation != o.GetGeneration() || a.diff != diff {
		return 0
	}
	return a.repeats
}

// updated records an update made for o's current generation and diff.
func (c *convergence) updated(o v1alpha1.Managed, diff string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.last[o.GetUID()]
	if a.generation != o.GetGeneration() || a.diff != diff {
		a = attempt{generation: o.GetGeneration(), diff: diff}
	}
	a.repeats++
	c.last[o.GetUID()] = a
}

// done forgets o's updates: it matches the spec (or is gone).
func (c *convergence) done(o v1alpha1.Managed) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.last, o.GetUID())
}

// backoff returns how soon to look again after an update that found the same difference
// repeats times before: wait at first, then doubling, up to limit.
func (c *convergence) backoff(repeats int, wait, limit time.Duration) time.Duration {
	if repeats < notConvergingAfter-1 {
		return wait
	}
	d := wait << min(repeats-notConvergingAfter+2, 20)
	return min(d, limit)
}
