package core

import "testing"

func TestAnyMatch(t *testing.T) {
	equal := func(p, v string) bool { return p == v }
	if !AnyMatch([]string{"a", "b"}, []string{"c", "b"}, equal) {
		t.Fatal("AnyMatch missed the shared value b")
	}
	if AnyMatch([]string{"a"}, []string{"c"}, equal) || AnyMatch(nil, []string{"c"}, equal) || AnyMatch([]string{"a"}, nil, equal) {
		t.Fatal("AnyMatch matched with no shared value")
	}
}
