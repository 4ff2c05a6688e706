package core

import (
	"regexp"
	"testing"
)

// TestNewUUID checks that NewUUID returns distinct version 4 UUIDs in canonical form.
func TestNewUUID(t *testing.T) {
	form := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	a, b := NewUUID(), NewUUID()
	if !form.MatchString(a) || !form.MatchString(b) || a == b {
		t.Errorf("NewUUID = %q, %q; want two distinct version 4 UUIDs", a, b)
	}
}
