package engine

import (
	"context"
	"sync"
	"time"

	"github.com/runner-codes/infra-operator/shared/provider"
)

// slotWait is how long a worker waits for a slot of a provider whose slots are all taken
// before it puts the object back in the queue: long enough that the objects of one provider
// answering quickly take turns without going round the queue, short enough that a provider
// whose endpoint answers slowly delays the other providers' objects by no more than that.
const slotWait = 100 * time.Millisecond

// providerSlots limits how many of a kind's workers reconcile objects of one provider at once,
// to half of them (at least one), so that a provider whose endpoint answers slowly never holds
// every worker and the other namespaces keep going.
type providerSlots struct {
	limit int
	mu    sync.Mutex
	slots map[provider.Key]chan struct{}
}

func newProviderSlots(workers int) *providerSlots {
	return &providerSlots{limit: max(1, (workers+1)/2), slots: map[provider.Key]chan struct{}{}}
}

// acquire takes a slot of provider key, waiting up to slotWait for one to be released, and
// reports false when none was.
func (s *providerSlots) acquire(ctx context.Context, key provider.Key) bool {
	slots := s.of(key)
	select {
	case slots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(slotWait)
	defer t.Stop()
	select {
	case slots <- struct{}{}:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

// release gives back a slot of provider key.
func (s *providerSlots) release(key provider.Key) {
	<-s.of(key)
}

// of returns the slots of provider key, a channel that holds one value per slot taken.
func (s *providerSlots) of(key provider.Key) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	slots, ok := s.slots[key]
	if !ok {
		slots = make(chan struct{}, s.limit)
		s.slots[key] = slots
	}
	return slots
}
