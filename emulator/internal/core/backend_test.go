package core

import (
	"sync"
	"testing"
)

// TestBackend checks that Locked and With reach the state of the right account and region under
// the backend's mutex, and that All walks every state made.
func TestBackend(t *testing.T) {
	type state struct {
		scope Scope
		n     int
	}
	b := NewBackend(func(s Scope) *state { return &state{scope: s} })
	call := &Call{Account: "111111111111", Region: "us-east-1"}
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = Locked(b, call, func(r *state) (*int, error) {
				r.n++
				return &r.n, nil
			})
		}()
	}
	wg.Wait()
	west := Scope{Account: "111111111111", Region: "us-west-2"}
	if got := With(b, west, func(r *state) Scope { return r.scope }); got != west {
		t.Fatalf("With reached the state of %v, want %v", got, west)
	}
	n, err := Locked(b, call, func(r *state) (*int, error) { return &r.n, nil })
	if err != nil || *n != 50 {
		t.Fatalf("Locked = %d, %v; want 50, nil", *n, err)
	}
	var scopes []Scope
	for scope := range b.All() {
		scopes = append(scopes, scope)
	}
	if len(scopes) != 2 || scopes[0] != call.Scope() || scopes[1] != west {
		t.Fatalf("All yielded %v", scopes)
	}
}

// TestGlobalBackend checks that a global backend keeps one state an account, whatever the region
// of the call.
func TestGlobalBackend(t *testing.T) {
	b := NewGlobalBackend(func(s Scope) *Scope { return &s })
	for _, region := range []string{"us-east-1", "eu-west-1"} {
		got, _ := Locked(b, &Call{Account: "111111111111", Region: region}, func(s *Scope) (*Scope, error) { return s, nil })
		if *got != (Scope{Account: "111111111111"}) {
			t.Fatalf("call in %s reached the state of %v", region, *got)
		}
	}
}
