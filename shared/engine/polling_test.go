package engine

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/shared/internal/testkind"
)

// TestPollingShortAfterWritesThenDoubling checks the pace of the looks at a waiting object:
// short after a write, doubling while it keeps waiting, never beyond the wait interval, and
// short again after the next write or once the object is done.
func TestPollingShortAfterWritesThenDoubling(t *testing.T) {
	p := newPolling()
	o := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{UID: "uid-1"}}
	interval := 5 * time.Second
	got := []time.Duration{p.wrote(o, 0, interval)}
	for range 6 {
		got = append(got, p.next(o, interval))
	}
	want := []time.Duration{200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, 1600 * time.Millisecond,
		3200 * time.Millisecond, interval, interval}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("waits %v, want %v", got, want)
		}
	}
	if d := p.wrote(o, 0, interval); d != firstPoll {
		t.Errorf("after a new write the wait is %v, want %v", d, firstPoll)
	}
	p.done(o)
	if d := p.next(o, interval); d != firstPoll {
		t.Errorf("a done object's first wait is %v, want %v", d, firstPoll)
	}
	if d := p.wrote(o, 0, 100*time.Millisecond); d != 100*time.Millisecond {
		t.Errorf("with a wait interval below the first poll, the wait is %v, want the interval", d)
	}
	if d := p.wrote(o, 2*time.Second, interval); d != 2*time.Second {
		t.Errorf("a kind whose quickest step takes 2s first waits %v after a write", d)
	}
	if d := p.next(o, interval); d != 4*time.Second {
		t.Errorf("after a first look at 2s the next wait is %v, want 4s", d)
	}
}

// TestCreatedSince checks that only a create recorded in this process after the given time
// counts, until AWS shows the resource or the object is done.
func TestCreatedSince(t *testing.T) {
	p := newPolling()
	o := &testkind.Widget{ObjectMeta: metav1.ObjectMeta{UID: "uid-1"}}
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	if p.createdSince(o, now.Add(-time.Minute)) {
		t.Error("an object that created nothing counts as created")
	}
	p.createdAt(o, now)
	if !p.createdSince(o, now.Add(-time.Minute)) || p.createdSince(o, now.Add(time.Second)) {
		t.Error("createdSince does not compare with the create's time")
	}
	p.seen(o)
	if p.createdSince(o, now.Add(-time.Minute)) {
		t.Error("a resource AWS showed still counts as waited for")
	}
	p.createdAt(o, now)
	p.done(o)
	if p.createdSince(o, now.Add(-time.Minute)) {
		t.Error("done did not forget the create")
	}
}
