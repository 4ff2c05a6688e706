package core

import (
	"errors"
	"sync"
	"testing"
)

// TestHolding checks that Holding runs f on what find found, holding the lock, and answers
// find's error without running f.
func TestHolding(t *testing.T) {
	var mu sync.Mutex
	got, err := Holding(&mu, func() (int, error) { return 2, nil }, func(n int) (string, error) {
		if mu.TryLock() {
			t.Error("f ran without the lock held")
		}
		return string(rune('a' + n)), nil
	})
	if got != "c" || err != nil {
		t.Errorf("Holding = %q, %v; want c", got, err)
	}
	missing := errors.New("missing")
	got, err = Holding(&mu, func() (int, error) { return 0, missing }, func(int) (string, error) {
		t.Error("f ran after find failed")
		return "x", nil
	})
	if got != "" || !errors.Is(err, missing) {
		t.Errorf("Holding = %q, %v; want find's error", got, err)
	}
	if !mu.TryLock() {
		t.Error("Holding left the lock held")
	}
}
