package core

import (
	"sync"
	"time"
)

// Clock is the simulation clock. It follows real time, shifted by whatever Advance added, or
// stands still while frozen.
type Clock struct {
	mu     sync.Mutex
	offset time.Duration
	frozen *time.Time
}

// Now returns the simulated time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frozen != nil {
		return *c.frozen
	}
	return time.Now().Add(c.offset)
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frozen != nil {
		t := c.frozen.Add(d)
		c.frozen = &t
		return
	}
	c.offset += d
}

// Freeze stops the clock at its current time, until Advance moves it or Thaw releases it.
func (c *Clock) Freeze() {
	now := c.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frozen = &now
}

// Thaw lets a frozen clock run again from where it stands.
func (c *Clock) Thaw() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frozen != nil {
		c.offset = time.Until(*c.frozen)
		c.frozen = nil
	}
}
