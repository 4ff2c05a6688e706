package core

import "testing"

// TestIdentifier checks RDS's and ElastiCache's identifier rules and the lowercasing.
func TestIdentifier(t *testing.T) {
	for id, want := range map[string]bool{"My-DB1": true, "a": true, "1db": false, "db-": false, "d--b": false, "db_1": false, "abcdef": false} {
		got, ok := Identifier(id, 5)
		if id == "My-DB1" {
			got, ok = Identifier(id, 6)
			if got != "my-db1" {
				t.Fatalf("Identifier(%q) = %q, want it lowercased", id, got)
			}
		}
		if ok != want {
			t.Errorf("Identifier(%q) ok = %v, want %v", id, ok, want)
		}
	}
}

// TestRecordsPage checks the MaxRecords limits and the markers of RecordsPage.
func TestRecordsPage(t *testing.T) {
	items := make([]int, 30)
	size := int32(20)
	page, next, err := RecordsPage(items, nil, &size)
	if err != nil || len(page) != 20 || next == nil {
		t.Fatalf("first page: %d items, next %v, %v", len(page), next, err)
	}
	if page, next, err = RecordsPage(items, next, &size); err != nil || len(page) != 10 || next != nil {
		t.Fatalf("last page: %d items, next %v, %v", len(page), next, err)
	}
	small := int32(19)
	if _, _, err := RecordsPage(items, nil, &small); err == nil {
		t.Fatal("MaxRecords 19 was accepted")
	}
	bad := "bogus"
	if _, _, err := RecordsPage(items, &bad, nil); err == nil {
		t.Fatal("an unknown marker was accepted")
	}
}
