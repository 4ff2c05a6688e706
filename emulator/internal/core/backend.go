package core

import (
	"iter"
	"sync"
)

// Backend is what every service backend holds: the mutex that guards all of the service's state
// and the state of each account and region (a pointer to the service's region struct), made on
// first use. A service keeps whatever else it has (tags by ARN, a clock) beside it and reaches
// that too under the same mutex, from inside the functions it passes here.
type Backend[R any] struct {
	mu      sync.Mutex
	regions *Regions[R]
	global  bool
}

// NewBackend returns a backend whose state of an account and region is made by newState when
// first used.
func NewBackend[R any](newState func(Scope) R) *Backend[R] {
	return &Backend[R]{regions: NewRegions(newState)}
}

// NewGlobalBackend returns the backend of a global service (CloudFront, IAM): its state is one
// an account, made by newState when first used, whatever region a call is signed for.
func NewGlobalBackend[R any](newState func(Scope) R) *Backend[R] {
	return &Backend[R]{regions: NewRegions(newState), global: true}
}

// scopeOf returns the scope whose state serves call: its account and region, or its account
// alone in a global service.
func (b *Backend[R]) scopeOf(call *Call) Scope {
	if b.global {
		return Scope{Account: call.Account}
	}
	return call.Scope()
}

// Lock locks the backend's mutex. With Unlock it makes the backend a sync.Locker, the Lock of
// the service's Tagging.
func (b *Backend[R]) Lock() { b.mu.Lock() }

// Unlock unlocks the backend's mutex.
func (b *Backend[R]) Unlock() { b.mu.Unlock() }

// Of returns the state that serves call (its account and region, or its account alone in a
// global service). The caller holds the backend's mutex: it is for the Find of the service's
// Tagging, which runs under it.
func (b *Backend[R]) Of(call *Call) R { return b.regions.For(b.scopeOf(call)) }

// Locked runs an operation's handler f on the state of the call's account and region (account
// alone in a global service), holding the backend's mutex, and returns what f returns.
func Locked[R, T any](b *Backend[R], call *Call, f func(r R) (T, error)) (T, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return f(b.Of(call))
}

// With runs f on the state of scope, holding the backend's mutex, and returns what f returns:
// the form for what other services ask of this one, outside any call of its own. A global
// service's state is its account's, whatever the scope's region.
func With[R, T any](b *Backend[R], scope Scope, f func(r R) T) T {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.global {
		scope.Region = ""
	}
	return f(b.regions.For(scope))
}

// All yields every state made so far with its scope, ordered by account and then region,
// holding the backend's mutex until the loop ends: the form for a service's debugging dump.
// The loop's body must not call back into the backend.
func (b *Backend[R]) All() iter.Seq2[Scope, R] {
	return func(yield func(Scope, R) bool) {
		b.mu.Lock()
		defer b.mu.Unlock()
		for scope, r := range b.regions.All() {
			if !yield(scope, r) {
				return
			}
		}
	}
}

// Search returns the first value f finds in a state of account made so far, looking region by
// region in order, holding the backend's mutex; ok is false when none has one. It is the form
// for what another service asks of every region of an account (Route 53's alias targets).
func Search[R, T any](b *Backend[R], account string, f func(r R) (T, bool)) (v T, ok bool) {
	for scope, r := range b.All() {
		if scope.Account != account {
			continue
		}
		if v, ok = f(r); ok {
			return v, true
		}
	}
	return v, false
}
