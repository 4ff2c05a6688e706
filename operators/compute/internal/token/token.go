// Package token derives the idempotency tokens of the compute family's create calls from an
// object's UID, so that a create repeated after a lost answer gets what the first call made.
package token

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// UUID returns a UUID-shaped digest of parts (an object's UID first, then what tells its
// creates apart), short enough for every API's token limit.
func UUID(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "/")))
	h := hex.EncodeToString(sum[:16])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Replacing returns the token of a create that makes uid's resource: uid itself for the first,
// and after that a digest of uid and replaced, the identifier of the resource made before (one
// deleted outside the operator), so that AWS does not answer the new create with the deleted
// resource the UID alone would name.
func Replacing(uid, replaced string) string {
	if replaced == "" {
		return uid
	}
	return UUID(uid, replaced)
}
