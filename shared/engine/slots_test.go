package engine

import (
	"context"
	"testing"
	"time"

	"github.com/runner-codes/infra-operator/shared/provider"
)

// TestProviderSlots checks that one provider takes at most half of the workers, that a worker
// waiting for a slot gets the one released meanwhile, and that another provider's slots are
// its own.
func TestProviderSlots(t *testing.T) {
	ctx := context.Background()
	s := newProviderSlots(4)
	a, b := provider.Key{Namespace: "a", Name: "aws"}, provider.Key{Namespace: "b", Name: "aws"}
	if !s.acquire(ctx, a) || !s.acquire(ctx, a) {
		t.Fatal("a provider does not get half of four workers")
	}
	start := time.Now()
	if s.acquire(ctx, a) {
		t.Fatal("a provider gets more than half of the workers")
	}
	if waited := time.Since(start); waited < slotWait {
		t.Errorf("gave up on a slot after %v, want %v", waited, slotWait)
	}
	if !s.acquire(ctx, b) {
		t.Error("another provider's slots are taken by the first")
	}
	go func() {
		time.Sleep(slotWait / 4)
		s.release(a)
	}()
	if !s.acquire(ctx, a) {
		t.Error("a slot released while a worker waited was not handed to it")
	}
}
