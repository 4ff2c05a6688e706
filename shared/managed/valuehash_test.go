package managed

import "testing"

// TestValueHash checks that a value's hash is stable, differs with the value and with the salt,
// and does not hold the value.
func TestValueHash(t *testing.T) {
	hash := func(value, salt string) string {
		t.Helper()
		h, err := ValueHash(value, salt)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	a := hash("s3cret-value", "uid-1")
	switch {
	case len(a) != 32:
		t.Errorf("hash %q is not 32 hex digits", a)
	case a != hash("s3cret-value", "uid-1"):
		t.Errorf("the hash of one value and salt changes")
	case a == hash("s3cret-value", "uid-2"):
		t.Errorf("two salts give one hash")
	case a == hash("other-value", "uid-1"):
		t.Errorf("two values give one hash")
	}
}
