package engine

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/shared/provider"
)

// TestProviderSlots checks that one provider takes at most half of the workers, that a worker
// waiting for a slot gets the one released meanwhile, and that another provider's slots are
// its own.
func TestProviderSlots(t *testing.T) {
	ctx := context.Background()
	s := newProviderSlots("Test", 4)
	a, b := provider.Key{Namespace: "a", Name: "aws"}, provider.Key{Namespace: "b", Name: "aws"}
	if !s.acquire(ctx, a, "a") || !s.acquire(ctx, a, "a") {
		t.Fatal("a provider does not get half of four workers")
	}
	start := time.Now()
	if s.acquire(ctx, a, "a") {
		t.Fatal("a provider gets more than half of the workers")
	}
	if waited := time.Since(start); waited < slotWait {
		t.Errorf("gave up on a slot after %v, want %v", waited, slotWait)
	}
	if !s.acquire(ctx, b, "b") {
		t.Error("another provider's slots are taken by the first")
	}
	go func() {
		time.Sleep(slotWait / 4)
		s.release(a, "a")
	}()
	if !s.acquire(ctx, a, "a") {
		t.Error("a slot released while a worker waited was not handed to it")
	}
}

// TestNamespaceSlots checks that one namespace takes at most half of the workers whatever
// number of providers it uses, that a provider shared by namespaces (a ClusterAWSProvider) is
// bounded as a whole, and that a refused acquire holds no slot.
func TestNamespaceSlots(t *testing.T) {
	type take struct {
		provider, namespace string
	}
	cases := map[string]struct {
		reason  string
		workers int
		takes   []take
		want    []bool
	}{
		"NamespaceWithManyProviders": {
			reason:  "A namespace with four providers gets half of eight workers, and another namespace still gets its share.",
			workers: 8,
			takes:   []take{{"p1", "a"}, {"p2", "a"}, {"p3", "a"}, {"p4", "a"}, {"p5", "a"}, {"q1", "b"}, {"q2", "b"}},
			want:    []bool{true, true, true, true, false, true, true},
		},
		"SharedProvider": {
			reason:  "A provider that several namespaces share gets half of the workers in all.",
			workers: 4,
			takes:   []take{{"shared", "a"}, {"shared", "b"}, {"shared", "c"}, {"own", "c"}},
			want:    []bool{true, true, false, true},
		},
		"RefusedHoldsNothing": {
			reason:  "A worker refused a provider's slot gives back the namespace's slot it took.",
			workers: 4,
			takes:   []take{{"shared", "a"}, {"shared", "b"}, {"shared", "c"}, {"shared", "c"}, {"own", "c"}, {"own2", "c"}, {"own3", "c"}},
			want:    []bool{true, true, false, false, true, true, false},
		},
		"OneWorker": {
			reason:  "With one worker, a namespace still gets it.",
			workers: 1,
			takes:   []take{{"p1", "a"}, {"p2", "a"}},
			want:    []bool{true, false},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := newProviderSlots("Test", tc.workers)
			var got []bool
			for _, tk := range tc.takes {
				got = append(got, s.acquire(context.Background(), provider.Key{Kind: "ClusterAWSProvider", Name: tk.provider}, tk.namespace))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
