package core

import (
	"math/rand/v2"
	"sync"
)

// Fault is what to inject into calls of one service, or one operation of it.
type Fault struct {
	// Latency is added to every call.
	Latency Duration `json:"latency,omitempty"`
	// ThrottleRate is the fraction of calls (0..1) answered with the service's throttling
	// error.
	ThrottleRate float64 `json:"throttleRate,omitempty"`
	// ErrorRate is the fraction of calls (0..1) answered with HTTP 500 InternalFailure
	// instead of being done.
	ErrorRate float64 `json:"errorRate,omitempty"`
	// ErrorAfterRate is the fraction of calls (0..1) that are done and then answered with
	// HTTP 500 InternalFailure, as when AWS fails after doing the work: the caller does not
	// learn the result (a created resource's id, for example), and a retry repeats the call.
	ErrorAfterRate float64 `json:"errorAfterRate,omitempty"`
	// ReadAfterCreateDelay is how long a newly created resource stays invisible to reads, as
	// with AWS's eventual consistency. Services that support it consult ReadDelay.
	ReadAfterCreateDelay Duration `json:"readAfterCreateDelay,omitempty"`
}

// Faults holds the faults in force, keyed "Service" or "Service.Operation"; an operation's
// entry wins over its service's.
type Faults struct {
	mu     sync.RWMutex
	faults map[string]Fault

	rollMu sync.Mutex
	rng    *rand.Rand
}

// Set replaces the fault for key ("SQS" or "SQS.CreateQueue"); a zero Fault removes it.
func (f *Faults) Set(key string, fault Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.faults == nil {
		f.faults = map[string]Fault{}
	}
	if fault == (Fault{}) {
		delete(f.faults, key)
		return
	}
	f.faults[key] = fault
}

// All returns a copy of the faults in force.
func (f *Faults) All() map[string]Fault {
	f.mu.RLock()
	defer f.mu.RUnlock()
	out := make(map[string]Fault, len(f.faults))
	for k, v := range f.faults {
		out[k] = v
	}
	return out
}

// For returns the fault for an operation of a service.
func (f *Faults) For(service, operation string) Fault {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if fault, ok := f.faults[service+"."+operation]; ok {
		return fault
	}
	return f.faults[service]
}

// Seed makes the faults' dice follow the pseudo-random sequence of seed, so that a run can be
// repeated with the same rolls (calls made concurrently draw in the order they arrive).
// Without a seed the dice are random.
func (f *Faults) Seed(seed uint64) {
	f.rollMu.Lock()
	defer f.rollMu.Unlock()
	f.rng = rand.New(rand.NewPCG(seed, seed))
}

// Roll reports whether an event of probability p happens.
func (f *Faults) Roll(p float64) bool {
	if p <= 0 {
		return false
	}
	f.rollMu.Lock()
	defer f.rollMu.Unlock()
	if f.rng == nil {
		return rand.Float64() < p
	}
	return f.rng.Float64() < p
}
