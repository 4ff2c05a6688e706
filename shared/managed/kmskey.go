package managed

import "strings"

// SameKMSKey reports whether got, the KMS key id or ARN that AWS reports for a resource, is
// the key want names by id or by ARN (AWS reports an ARN for a key the spec names by id).
func SameKMSKey(want, got string) bool {
	return got == want || strings.HasSuffix(got, "/"+want)
}
