package operator

import (
	"sync"
	"time"
)

// reviewCache keeps the results of API server reviews for a while, at most size of them: when
// it is full, the expired entries go, and when none has expired, all of them, so that a
// client sending ever new tokens costs reviews but never memory.
type reviewCache[V any] struct {
	mu      sync.Mutex
	size    int
	now     func() time.Time
	entries map[string]reviewEntry[V]
}

// reviewEntry is a cached result and when it stops counting.
type reviewEntry[V any] struct {
	value   V
	expires time.Time
}

// newReviewCache returns an empty cache of at most size entries.
func newReviewCache[V any](size int) *reviewCache[V] {
	return &reviewCache[V]{size: size, now: time.Now, entries: map[string]reviewEntry[V]{}}
}

// get returns the unexpired value under key, and whether there is one.
func (c *reviewCache[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || !c.now().Before(e.expires) {
		var zero V
		return zero, false
	}
	return e.value, true
}

// put keeps value under key for ttl.
func (c *reviewCache[V]) put(key string, value V, ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if _, ok := c.entries[key]; !ok && len(c.entries) >= c.size {
		for k, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= c.size {
			clear(c.entries)
		}
	}
	c.entries[key] = reviewEntry[V]{value: value, expires: now.Add(ttl)}
}
