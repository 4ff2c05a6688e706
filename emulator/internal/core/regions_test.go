package core

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRegions checks that each account and region gets its own state, made once on first use,
// that Lookup makes none, and that All walks them in order.
func TestRegions(t *testing.T) {
	made := 0
	type state struct {
		scope Scope
		n     int
	}
	r := NewRegions(func(s Scope) *state {
		made++
		return &state{scope: s}
	})
	east, west := Scope{"111111111111", "us-east-1"}, Scope{"111111111111", "us-west-2"}
	other := Scope{"000000000000", "us-east-1"}
	if _, ok := r.Lookup(east); ok {
		t.Fatal("Lookup found a state nothing made")
	}
	r.Of(&Call{Account: east.Account, Region: east.Region}).n++
	r.For(east).n++
	r.For(west).n += 10
	r.For(other).n += 100
	if made != 3 {
		t.Errorf("made %d states, want one per scope: 3", made)
	}
	if s, ok := r.Lookup(east); !ok || s.n != 2 || s.scope != east {
		t.Errorf("Lookup(east) = %+v, %v; want the state both calls changed", s, ok)
	}
	var walked []Scope
	for scope, s := range r.All() {
		if s.scope != scope {
			t.Errorf("All paired %v with the state of %v", scope, s.scope)
		}
		walked = append(walked, scope)
	}
	if diff := cmp.Diff([]Scope{other, east, west}, walked); diff != "" {
		t.Errorf("All, by account then region\n-want +got:\n%s", diff)
	}
	for range r.All() {
		break // stopping early must not panic
	}
}
