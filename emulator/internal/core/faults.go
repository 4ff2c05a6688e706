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
	// ErrorRate is the fraction of calls (0..1) answered with HTTP 500 InternalFailure.
	ErrorRate float64 `json:"errorRate,omitempty"`
	// ReadAfterCreateDelay is how long a newly created resource stays invisible to reads, as
	// with AWS's eventual consistency. Services that support it consult ReadDelay.
	ReadAfterCreateDelay Duration `json:"readAfterCreateDelay,omitempty"`
}

// Faults holds the faults in force, keyed "Service" or "Service.Operation"; an operation's
// entry wins over its service's.
type Faults struct {
	mu     sync.RWMutex
	faults map[string]Fault
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

// Roll reports whether an event of probability p happens.
func Roll(p float64) bool {
	return p > 0 && rand.Float64() < p
}
