package route53recordset

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/shared/managed"
)

func TestFQDN(t *testing.T) {
	type want struct {
		full     string
		terminal bool
	}
	cases := map[string]struct {
		reason string
		name   string
		want   want
	}{
		"Apex":       {reason: "@ is the zone's apex.", name: "@", want: want{full: "example.com."}},
		"Relative":   {reason: "A name without the zone is relative to it.", name: "WWW", want: want{full: "www.example.com."}},
		"Full":       {reason: "A name that ends with the zone's is full.", name: "api.example.com", want: want{full: "api.example.com."}},
		"ZoneName":   {reason: "The zone's own name is the apex.", name: "example.com", want: want{full: "example.com."}},
		"Absolute":   {reason: "A name with the final dot is full.", name: "a.example.com.", want: want{full: "a.example.com."}},
		"Wildcard":   {reason: "A wildcard is relative like any name.", name: "*.dev", want: want{full: "*.dev.example.com."}},
		"Outside":    {reason: "A full name outside the zone is refused.", name: "www.example.org.", want: want{terminal: true}},
		"Lookalike":  {reason: "A name that merely ends with the zone's letters is relative.", name: "notexample.com", want: want{full: "notexample.com.example.com."}},
		"MarkerLong": {reason: "A name whose marker would be too long is refused.", name: strings.Repeat("a.", 118), want: want{terminal: true}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			full, err := fqdn(tc.name, "example.com.")
			_, terminal := managed.AsTerminal(err)
			if diff := cmp.Diff(tc.want, want{full: full, terminal: terminal}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nfqdn(%q): -want, +got:\n%s", tc.reason, tc.name, diff)
			}
		})
	}
}
