package engine

import (
	"sync"

	"github.com/runner-codes/infra-operator/shared/provider"
)

// providerSlots limits how many of a kind's workers reconcile objects of one provider at once,
// to half of them (at least one), so that a provider whose endpoint answers slowly never holds
// every worker and the other namespaces keep going.
type providerSlots struct {
	limit int
	mu    sync.Mutex
	busy  map[provider.Key]int
}

func newProviderSlots(workers int) *providerSlots {
	return &providerSlots{limit: max(1, (workers+1)/2), busy: map[provider.Key]int{}}
}

// acquire takes a slot of provider key, and reports false when it has none free.
func (s *providerSlots) acquire(key provider.Key) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy[key] >= s.limit {
		return false
	}
	s.busy[key]++
	return true
}

// release gives back a slot of provider key.
func (s *providerSlots) release(key provider.Key) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy[key]--; s.busy[key] <= 0 {
		delete(s.busy, key)
	}
}
