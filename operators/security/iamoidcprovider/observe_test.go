package iamoidcprovider

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDifference(t *testing.T) {
	cases := map[string]struct {
		reason string
		a, b   []string
		want   []string
	}{
		"Added":     {reason: "Values of a that b lacks, in a's order.", a: []string{"c", "a", "b"}, b: []string{"a"}, want: []string{"c", "b"}},
		"Same":      {reason: "The same values in another order differ in nothing.", a: []string{"a", "b"}, b: []string{"b", "a"}, want: nil},
		"Repeated":  {reason: "A value given twice is added once.", a: []string{"x", "x"}, b: nil, want: []string{"x"}},
		"EmptyBoth": {reason: "Nothing from nothing.", want: nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, difference(tc.a, tc.b)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSameThumbprints(t *testing.T) {
	upper, lower := "9E99A48A9960B14926BB7F3B02E22DA2B0AB7280", "9e99a48a9960b14926bb7f3b02e22da2b0ab7280"
	other := "ABABABABABABABABABABABABABABABABABABABAB"
	cases := map[string]struct {
		reason string
		a, b   []string
		want   bool
	}{
		"Case":    {reason: "Hex digits compare without regard to case.", a: []string{upper}, b: []string{lower}, want: true},
		"Order":   {reason: "Order does not count.", a: []string{upper, other}, b: []string{other, lower}, want: true},
		"Missing": {reason: "A thumbprint missing is a difference.", a: []string{upper}, b: []string{upper, other}, want: false},
		"Empty":   {reason: "No thumbprints against one differ.", a: nil, b: []string{upper}, want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := sameThumbprints(tc.a, tc.b); got != tc.want {
				t.Errorf("%s: got %v, want %v", tc.reason, got, tc.want)
			}
		})
	}
}
