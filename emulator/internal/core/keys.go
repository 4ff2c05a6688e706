package core

import "errors"

// Keys is what a service that encrypts with a customer's KMS key needs of the emulated KMS: to
// check the key it is given the way the service's own calls to KMS would, and to name that key
// by its ARN. The KMS backend implements it; a key is named by a key ID, key ARN, alias name or
// alias ARN, in the account and Region of scope.
type Keys interface {
	// Usable returns nil when the key could encrypt now, and otherwise the *APIError KMS
	// answers (NotFoundException, DisabledException, KMSInvalidStateException or
	// InvalidKeyUsageException).
	Usable(scope Scope, keyID string) error
	// KeyARN returns the key ARN of the key, whatever its state, or KMS's NotFoundException.
	KeyARN(scope Scope, keyID string) (string, error)
}

// KeyError returns the KMS error code and message of an error from Keys, for the service to
// wrap in its own error; ok is false for an error that is not KMS's answer.
func KeyError(err error) (code, message string, ok bool) {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		return "", "", false
	}
	return apiErr.Code, apiErr.Message, true
}
