package managed

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// valueHashIterations stretches a value's hash, so that guessing a value from it costs each
// guess this many SHA-256 rounds.
const valueHashIterations = 4096

// ValueHash returns a salted, stretched hash of a secret value as 32 hex digits: PBKDF2 with
// SHA-256 over value, salted with salt (an object's UID, so that equal values of two objects
// hash apart). A driver keeps it in status to see a Secret's value change without reading the
// value back from AWS, which never returns it; the hash does not reveal the value.
func ValueHash(value, salt string) (string, error) {
	key, err := pbkdf2.Key(sha256.New, value, []byte(salt), valueHashIterations, 16)
	if err != nil {
		return "", fmt.Errorf("hash a secret value: %w", err)
	}
	return hex.EncodeToString(key), nil
}
