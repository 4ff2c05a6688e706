package core

import (
	"cmp"
	"iter"
	"maps"
	"slices"
	"strings"
)

// Regions holds a service's state of each account and region, made on first use: a pointer to
// the service's region struct, or a map of its resources. It does no locking of its own: the
// backend that owns it holds its mutex around every use, as around the rest of its state.
type Regions[T any] struct {
	newState func(Scope) T
	byScope  map[Scope]T
}

// NewRegions returns an empty set of regional states, each made by newState when first needed.
func NewRegions[T any](newState func(Scope) T) *Regions[T] {
	return &Regions[T]{newState: newState, byScope: map[Scope]T{}}
}

// Of returns the state of the call's account and region, making it on first use.
func (r *Regions[T]) Of(call *Call) T { return r.For(call.Scope()) }

// For returns the state of scope, making it on first use.
func (r *Regions[T]) For(scope Scope) T {
	s, ok := r.byScope[scope]
	if !ok {
		s = r.newState(scope)
		r.byScope[scope] = s
	}
	return s
}

// Lookup returns the state of scope without making it: ok is false when nothing has used the
// scope yet.
func (r *Regions[T]) Lookup(scope Scope) (state T, ok bool) {
	state, ok = r.byScope[scope]
	return state, ok
}

// All yields every state made so far with its scope, ordered by account and then region.
func (r *Regions[T]) All() iter.Seq2[Scope, T] {
	return func(yield func(Scope, T) bool) {
		scopes := slices.SortedFunc(maps.Keys(r.byScope), func(a, b Scope) int {
			return cmp.Or(strings.Compare(a.Account, b.Account), strings.Compare(a.Region, b.Region))
		})
		for _, s := range scopes {
			if !yield(s, r.byScope[s]) {
				return
			}
		}
	}
}
