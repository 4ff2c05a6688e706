package engine

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckTags checks which tags CheckTags refuses, and that it never repeats a value.
func TestCheckTags(t *testing.T) {
	cases := map[string]struct {
		reason string
		tags   map[string]string
		want   string // the error; empty for none
	}{
		"Fine": {
			reason: "Letters of any script, digits, spaces and AWS's punctuation are fine; values may be empty.",
			tags:   map[string]string{"team": "data", "Cost Center": "RD 42", "app.kubernetes.io/name": "web", "проект": "склад", "empty": "", "k=+-@:_": "v=+-@:_/"},
		},
		"EmptyKey": {
			reason: "AWS needs a key.",
			tags:   map[string]string{"": "v"},
			want:   "a tag has an empty key; AWS needs tag keys of 1 to 128 characters",
		},
		"LongKey": {
			reason: "Keys are at most 128 characters.",
			tags:   map[string]string{strings.Repeat("k", 129): "v"},
			want:   `tag key "kkkkkkkkkkkkkkkkkkkk"... is 129 characters long; AWS takes at most 128`,
		},
		"KeyCharacters": {
			reason: "A comma is not allowed in a key.",
			tags:   map[string]string{"a,b": "v"},
			want:   `tag key "a,b" holds a character AWS refuses; use letters, digits, spaces and _ . : / = + - @`,
		},
		"LongValue": {
			reason: "Values are at most 256 characters, counted as characters, not bytes.",
			tags:   map[string]string{"k": strings.Repeat("é", 257)},
			want:   `the value of tag "k" is 257 characters long; AWS takes at most 256`,
		},
		"LongMultibyteValue": {
			reason: "256 two-byte characters are 256 characters.",
			tags:   map[string]string{"k": strings.Repeat("é", 256)},
		},
		"ValueCharacters": {
			reason: "An ampersand is not allowed in a value, and the error does not repeat it.",
			tags:   map[string]string{"owner": "alice&bob"},
			want:   `the value of tag "owner" holds a character AWS refuses; use letters, digits, spaces and _ . : / = + - @`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ""
			if err := CheckTags(tc.tags); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nCheckTags -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
