package core

import "time"

// Readable is when a newly created resource becomes visible to reads. AWS's eventual consistency
// can hide a resource for a while after the call that created it succeeded (reads and calls
// that name it answer the service's not-found error); the ReadAfterCreateDelay fault in force on
// that call sets how long. A resource embeds it; the zero value is always visible.
type Readable struct{ readableAt time.Time }

// ReadableAfter returns the visibility of a resource the call creates.
func ReadableAfter(call *Call) Readable {
	return Readable{readableAt: call.Now.Add(time.Duration(call.Fault.ReadAfterCreateDelay))}
}

// Visible reports whether the resource is visible to the call.
func (r Readable) Visible(call *Call) bool { return !call.Now.Before(r.readableAt) }
