package core

import (
	"testing"
	"time"
)

// TestLifecycle checks that steps end in order at their times, telling of each, that Start
// replaces the steps to go, that a copy is independent, and that the lifecycle rests once its
// steps have ended.
func TestLifecycle(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := NewLifecycle("available")
	if l.Status() != "available" || l.Busy() {
		t.Fatalf("new lifecycle: %q, busy %v", l.Status(), l.Busy())
	}
	l.Start("creating", t0, 2*time.Second).Then("backing-up", 2*time.Second)
	var ended []string
	steps := []struct {
		at   time.Duration
		want string
	}{{0, "creating"}, {time.Second, "creating"}, {2 * time.Second, "backing-up"}, {4 * time.Second, "available"}}
	for _, s := range steps {
		if got := l.Settle(t0.Add(s.at), func(s Step[string]) { ended = append(ended, s.Status) }); got != s.want {
			t.Fatalf("at %v: %q, want %q", s.at, got, s.want)
		}
	}
	if len(ended) != 2 || ended[0] != "creating" || ended[1] != "backing-up" {
		t.Fatalf("ended %v", ended)
	}
	copied := l
	l.Start("deleting", t0.Add(5*time.Second), time.Second)
	if !l.Busy() || copied.Busy() {
		t.Fatalf("busy %v, copy busy %v", l.Busy(), copied.Busy())
	}
	if got := l.Settle(t0.Add(5*time.Second), nil); got != "deleting" {
		t.Fatalf("deleting: %q", got)
	}
	if got := l.Settle(t0.Add(6*time.Second), nil); got != "available" || l.Busy() {
		t.Fatalf("after deleting: %q, busy %v", got, l.Busy())
	}
}

// TestReady checks the one-step lifecycle: pending before its time, ready from it on.
func TestReady(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if got := Ready(t0, t0.Add(time.Second), "provisioning", "active"); got != "provisioning" {
		t.Fatalf("before: %q", got)
	}
	if got := Ready(t0.Add(time.Second), t0.Add(time.Second), "provisioning", "active"); got != "active" {
		t.Fatalf("at: %q", got)
	}
}
