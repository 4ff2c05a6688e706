package token

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"testing"
)

// TestReplacing checks that a first create's token is the UID itself, that a replacement's is a
// UUID-shaped digest that differs for each replaced resource, and that the digest is stable.
func TestReplacing(t *testing.T) {
	const uid = "0d3c1b5e-4f7a-4b8e-9a51-2f7c3d9e8a10"
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	if got := Replacing(uid, ""); got != uid {
		t.Errorf("Replacing(uid, \"\") = %q, want the UID", got)
	}
	a, b := Replacing(uid, "a-1"), Replacing(uid, "a-2")
	if !uuid.MatchString(a) || a == b || a == uid || a != Replacing(uid, "a-1") {
		t.Errorf("replacement tokens %q and %q: want two stable, distinct UUID-shaped digests", a, b)
	}
	// The first 16 bytes of the SHA-256 of "uid/part/name/generation", as EKSCluster's node
	// groups and add-ons have always been created with: tokens must not change under running
	// objects.
	sum := sha256.Sum256([]byte("u/nodegroup/ng/1"))
	h := hex.EncodeToString(sum[:16])
	if got, want := UUID("u", "nodegroup", "ng", "1"), h[:8]+"-"+h[8:12]+"-"+h[12:16]+"-"+h[16:20]+"-"+h[20:]; got != want {
		t.Errorf("UUID = %q, want %q", got, want)
	}
}
