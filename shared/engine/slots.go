package engine

import (
	"context"
	"sync"
	"time"

	"github.com/runner-codes/infra-operator/shared/metrics"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// slotWait is how long a worker waits for a slot of a provider or namespace whose slots are all
// taken before it puts the object back in the queue: long enough that the objects of one
// provider answering quickly take turns without going round the queue, short enough that a
// provider whose endpoint answers slowly delays the other providers' objects by no more than
// that.
const slotWait = 100 * time.Millisecond

// providerSlots limits how many of a kind's workers reconcile objects of one provider at once,
// and how many reconcile objects of one namespace at once, each to half of them (at least
// one): a provider whose endpoint answers slowly never holds every worker, and neither does a
// namespace, whatever number of slow providers it has, so the other namespaces keep going.
type providerSlots struct {
	kind  string
	limit int
	mu    sync.Mutex
	slots map[slotKey]chan struct{}
}

// slotKey names one set of slots: a provider's, or a namespace's (provider left zero).
type slotKey struct {
	provider  provider.Key
	namespace string
}

// newProviderSlots returns the slots of kind's workers, and publishes their limit in
// metrics.ProviderSlots.
func newProviderSlots(kind string, workers int) *providerSlots {
	s := &providerSlots{kind: kind, limit: max(1, (workers+1)/2), slots: map[slotKey]chan struct{}{}}
	metrics.ProviderSlots.WithLabelValues(kind).Set(float64(s.limit))
	return s
}

// acquire takes a slot of namespace ns, the object's, and one of provider key, waiting up to
// slotWait in all for them to be released, and reports false when it did not get both (it then
// holds neither).
func (s *providerSlots) acquire(ctx context.Context, key provider.Key, ns string) bool {
	ctx, cancel := context.WithTimeout(ctx, slotWait)
	defer cancel()
	namespace := s.of(slotKey{namespace: ns})
	if !take(ctx, namespace) {
		return false
	}
	if !take(ctx, s.of(slotKey{provider: key})) {
		<-namespace
		return false
	}
	metrics.ProviderSlotsInUse.WithLabelValues(s.kind, key.Namespace, key.Name).Inc()
	return true
}

// take takes a slot of slots, waiting until ctx ends for one to be released.
func take(ctx context.Context, slots chan struct{}) bool {
	select {
	case slots <- struct{}{}:
		return true
	default:
	}
	select {
	case slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// release gives back the slots of provider key and namespace ns that acquire took.
func (s *providerSlots) release(key provider.Key, ns string) {
	metrics.ProviderSlotsInUse.WithLabelValues(s.kind, key.Namespace, key.Name).Dec()
	<-s.of(slotKey{provider: key})
	<-s.of(slotKey{namespace: ns})
}

// of returns the slots of k, a channel that holds one value per slot taken.
func (s *providerSlots) of(k slotKey) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	slots, ok := s.slots[k]
	if !ok {
		slots = make(chan struct{}, s.limit)
		s.slots[k] = slots
	}
	return slots
}
