package engine

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// firstPoll is how soon an object is looked at again after a write to AWS, or when it first
// waits for AWS: most results (S3, SQS, SNS, tags, attributes) are there at once, so the next
// look usually finds the resource Ready.
const firstPoll = 200 * time.Millisecond

// polling paces the looks at objects that wait for AWS: short after a write, then doubling
// toward the wait interval while the object keeps waiting, so that a resource AWS answers at
// once is Ready in a moment and one with a lifecycle of minutes costs few reads. It also
// remembers when each object created its resource, until AWS first shows it, so that a
// resource AWS does not show yet (eventual consistency) is waited for rather than created
// again, while one that disappears later (deleted outside, or replaced) is created again.
type polling struct {
	mu      sync.Mutex
	waits   map[types.UID]time.Duration
	created map[types.UID]time.Time
}

func newPolling() *polling {
	return &polling{waits: map[types.UID]time.Duration{}, created: map[types.UID]time.Time{}}
}

// wrote restarts o's pacing after a write to AWS and returns how soon to look again: after
// first, the time the kind's quickest lifecycle step takes (at least firstPoll), and never
// later than interval.
func (p *polling) wrote(o v1alpha1.Managed, first, interval time.Duration) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := min(max(first, firstPoll), interval)
	p.waits[o.GetUID()] = d
	return d
}

// next returns how soon to look again at o, which still waits for AWS: the last wait doubled,
// from firstPoll up to interval.
func (p *polling) next(o v1alpha1.Managed, interval time.Duration) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := firstPoll
	if last, ok := p.waits[o.GetUID()]; ok {
		d = 2 * last
	}
	d = min(d, interval)
	p.waits[o.GetUID()] = d
	return d
}

// createdAt records that o created its resource at t.
func (p *polling) createdAt(o v1alpha1.Managed, t time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.created[o.GetUID()] = t
}

// seen forgets o's create: AWS shows the resource.
func (p *polling) seen(o v1alpha1.Managed) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.created, o.GetUID())
}

// createdSince reports whether o created its resource after t, in this process, and AWS has
// not shown it since.
func (p *polling) createdSince(o v1alpha1.Managed, t time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	at, ok := p.created[o.GetUID()]
	return ok && at.After(t)
}

// done forgets o's pacing: it is Ready and matches the spec, or it is gone.
func (p *polling) done(o v1alpha1.Managed) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.waits, o.GetUID())
	delete(p.created, o.GetUID())
}
