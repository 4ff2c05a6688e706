package managed

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestListing(t *testing.T) {
	type step struct {
		ID      string
		Advance time.Duration
		Want    string
		OK      bool
	}
	cases := map[string]struct {
		reason string
		steps  []step
		lists  int
	}{
		"PeriodicSyncs": {
			reason: "Resources observed once each within the TTL cost one listing.",
			steps:  []step{{ID: "a", Want: "A1", OK: true}, {ID: "b", Want: "B1", OK: true}, {ID: "c", Want: "C1", OK: true}},
			lists:  1,
		},
		"SecondLook": {
			reason: "A second look at the same resource before the next listing is read directly.",
			steps:  []step{{ID: "a", Want: "A1", OK: true}, {ID: "a"}},
			lists:  1,
		},
		"Unlisted": {
			reason: "A resource the listing does not hold (new, or not tagged) is read directly.",
			steps:  []step{{ID: "z"}},
			lists:  1,
		},
		"Expired": {
			reason: "A listing older than the TTL is read again, and serves every resource once more.",
			steps:  []step{{ID: "a", Want: "A1", OK: true}, {ID: "a", Advance: time.Minute, Want: "A2", OK: true}},
			lists:  2,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			now := time.Unix(0, 0)
			lists := 0
			l := &Listing[string]{TTL: time.Minute, Now: func() time.Time { return now }, List: func(context.Context) (map[string]string, error) {
				lists++
				v := string(rune('0' + lists))
				return map[string]string{"a": "A" + v, "b": "B" + v, "c": "C" + v}, nil
			}}
			for i, s := range tc.steps {
				now = now.Add(s.Advance)
				got, ok, err := l.Get(context.Background(), s.ID)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(s, step{ID: s.ID, Advance: s.Advance, Want: got, OK: ok}); diff != "" {
					t.Errorf("%s\nstep %d (-want +got):\n%s", tc.reason, i, diff)
				}
			}
			if lists != tc.lists {
				t.Errorf("%s\n%d listings, want %d", tc.reason, lists, tc.lists)
			}
		})
	}
}

func TestListingError(t *testing.T) {
	boom := errors.New("throttled")
	l := &Listing[string]{TTL: time.Minute, List: func(context.Context) (map[string]string, error) { return nil, boom }}
	if _, _, err := l.Get(context.Background(), "a"); !errors.Is(err, boom) {
		t.Errorf("want the listing's error, got %v", err)
	}
}
