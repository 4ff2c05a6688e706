package core

import (
	"crypto/rand"
	"fmt"
)

// lowerAlnum is the alphabet of LowerAlnumID.
const lowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789"

// LowerAlnumID returns n random lower-case letters and digits, the form of API Gateway's
// identifiers (ten of them for an API, six for a resource).
func LowerAlnumID(n int) string {
	buf := make([]byte, n)
	_, _ = rand.Read(buf)
	for i, b := range buf {
		buf[i] = lowerAlnum[int(b)%len(lowerAlnum)]
	}
	return string(buf)
}

// NewUUID returns a random version 4 UUID in its canonical form, such as the ids of Secrets
// Manager's versions, ACM's certificates and EKS's updates.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
