package managed

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTagCalls checks that TagCalls adds before it removes, skips a call with nothing to do,
// and stops at the first failure.
func TestTagCalls(t *testing.T) {
	cases := map[string]struct {
		set    map[string]string
		remove []string
		tagErr error
		want   []string
	}{
		"Both":       {set: map[string]string{"a": "1"}, remove: []string{"b"}, want: []string{"tag", "untag"}},
		"OnlyAdd":    {set: map[string]string{"a": "1"}, want: []string{"tag"}},
		"OnlyRemove": {remove: []string{"b"}, want: []string{"untag"}},
		"TagFails":   {set: map[string]string{"a": "1"}, remove: []string{"b"}, tagErr: errors.New("refused"), want: []string{"tag"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var calls []string
			apply := TagCalls(
				func(context.Context, map[string]string) error { calls = append(calls, "tag"); return tc.tagErr },
				func(context.Context, []string) error { calls = append(calls, "untag"); return nil },
			)
			if err := apply(context.Background(), tc.set, tc.remove); !errors.Is(err, tc.tagErr) {
				t.Errorf("apply: %v, want %v", err, tc.tagErr)
			}
			if diff := cmp.Diff(tc.want, calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}
