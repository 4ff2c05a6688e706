package core

import "crypto/rand"

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
