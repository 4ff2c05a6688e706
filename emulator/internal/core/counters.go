package core

import "sync"

// Counters counts calls by service, operation and outcome ("success" or the error code).
type Counters struct {
	mu     sync.Mutex
	counts map[string]map[string]map[string]int
}

// Add counts one call.
func (c *Counters) Add(service, operation, outcome string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil {
		c.counts = map[string]map[string]map[string]int{}
	}
	ops := c.counts[service]
	if ops == nil {
		ops = map[string]map[string]int{}
		c.counts[service] = ops
	}
	outcomes := ops[operation]
	if outcomes == nil {
		outcomes = map[string]int{}
		ops[operation] = outcomes
	}
	outcomes[outcome]++
}

// Snapshot returns a copy of the counts: service -> operation -> outcome -> calls.
func (c *Counters) Snapshot() map[string]map[string]map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]map[string]map[string]int, len(c.counts))
	for svc, ops := range c.counts {
		out[svc] = make(map[string]map[string]int, len(ops))
		for op, outcomes := range ops {
			out[svc][op] = make(map[string]int, len(outcomes))
			for k, v := range outcomes {
				out[svc][op][k] = v
			}
		}
	}
	return out
}

// Total returns the number of calls of one operation of one service, all outcomes together.
func (c *Counters) Total(service, operation string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.counts[service][operation] {
		n += v
	}
	return n
}

// Reset forgets every count.
func (c *Counters) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts = nil
}
