package core

import "testing"

// TestFill checks that Fill copies the fields two structs share by name and type, and only
// those.
func TestFill(t *testing.T) {
	type from struct {
		Name  string
		Count int
		Extra bool
	}
	type to struct {
		Name  string
		Count int64
		Other string
	}
	dst := to{Count: 7, Other: "kept"}
	Fill(&dst, &from{Name: "api", Count: 3, Extra: true})
	if dst != (to{Name: "api", Count: 7, Other: "kept"}) {
		t.Fatalf("Fill gave %+v", dst)
	}
	if id := LowerAlnumID(10); len(id) != 10 {
		t.Fatalf("LowerAlnumID(10) = %q", id)
	}
	for _, c := range LowerAlnumID(200) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			t.Fatalf("LowerAlnumID gave %q", c)
		}
	}
}
