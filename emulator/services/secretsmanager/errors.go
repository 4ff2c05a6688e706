package secretsmanager

import (
	"regexp"
	"unicode/utf8"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// notFound is Secrets Manager's answer for a secret that does not exist in the region.
func notFound() error {
	return core.Errorf("ResourceNotFoundException", "Secrets Manager can't find the specified secret.")
}

// invalidParameter is Secrets Manager's InvalidParameterException: a parameter name or value is
// not valid.
func invalidParameter(format string, args ...any) error {
	return core.Errorf("InvalidParameterException", format, args...)
}

// invalidRequest is Secrets Manager's InvalidRequestException: a parameter value is not valid
// for the current state of the secret.
func invalidRequest(format string, args ...any) error {
	return core.Errorf("InvalidRequestException", format, args...)
}

// resourceExists is Secrets Manager's ResourceExistsException.
func resourceExists(format string, args ...any) error {
	return core.Errorf("ResourceExistsException", format, args...)
}

// validation is the ValidationException AWS answers a request that breaks a constraint of the
// API model, such as a length.
func validation(format string, args ...any) error {
	return core.Errorf("ValidationException", "1 validation error detected: "+format, args...)
}

// markedForDeletion is the answer to an operation on a secret scheduled for deletion (the
// InvalidRequestException of the Secrets Manager API Reference: "The secret is scheduled for
// deletion").
func markedForDeletion() error {
	return invalidRequest("You can't perform this operation on the secret because it was marked for deletion.")
}

// onReplica is the answer to a change of a replica, which only its primary region may change.
func onReplica() error {
	return invalidParameter("Operation not permitted on a replica secret. Call must be made in primary secret's region.")
}

// secretName is the pattern of secret names: 1 to 512 ASCII letters, digits and /_+=.@-
// (CreateSecret, Name).
var secretName = regexp.MustCompile(`^[A-Za-z0-9/_+=.@-]{1,512}$`)

// checkName returns the error for a name CreateSecret refuses, or nil.
func checkName(name string) error {
	if !secretName.MatchString(name) {
		return invalidParameter("Invalid name. Must be a valid name containing alphanumeric characters, or any of the following: -/_+=.@!")
	}
	return nil
}

// maxValue is the largest SecretString (in characters) and SecretBinary (in bytes): 65,536.
const maxValue = 65536

// checkValue returns the error for a secret value a request may not carry: both a string and a
// binary value, or one larger than Secrets Manager stores. required is true for PutSecretValue,
// which must carry one of them.
func checkValue(str *string, bin []byte, required bool) error {
	if str != nil && bin != nil {
		return invalidParameter("You can't specify both a binary secret value and a string secret value in the same secret.")
	}
	if required && str == nil && bin == nil {
		return invalidRequest("You must provide either SecretString or SecretBinary.")
	}
	if str != nil && utf8.RuneCountInString(*str) > maxValue {
		return validation("Value at 'secretString' failed to satisfy constraint: Member must have length less than or equal to %d", maxValue)
	}
	if len(bin) > maxValue {
		return validation("Value at 'secretBinary' failed to satisfy constraint: Member must have length less than or equal to %d", maxValue)
	}
	return nil
}

// checkToken returns the error for a ClientRequestToken that is not 32 to 64 characters long;
// an absent token (the SDKs always send one) is fine.
func checkToken(token *string) error {
	if token != nil && (len(*token) < 32 || len(*token) > 64) {
		return invalidParameter("ClientRequestToken must be 32-64 characters long.")
	}
	return nil
}

// checkDescription returns the error for a description longer than 2,048 characters.
func checkDescription(d *string) error {
	if d != nil && utf8.RuneCountInString(*d) > 2048 {
		return validation("Value at 'description' failed to satisfy constraint: Member must have length less than or equal to 2048")
	}
	return nil
}

// checkContent returns the error for the first of a secret's value, description and
// ClientRequestToken that Secrets Manager refuses, as CreateSecret and UpdateSecret check them.
func checkContent(str *string, bin []byte, description, token *string) error {
	if err := checkValue(str, bin, false); err != nil {
		return err
	}
	if err := checkDescription(description); err != nil {
		return err
	}
	return checkToken(token)
}
