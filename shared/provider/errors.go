// Package provider turns an AWSProvider into an aws.Config, caches configs and SDK clients per
// provider, and validates providers with STS.
package provider

import (
	"errors"
	"fmt"
)

// Error says why a provider cannot be used. Its message never holds a secret value.
type Error struct {
	// Reason is a CamelCase condition reason, one of the reasons of package condition.
	Reason string
	// Message is a stable, human-readable explanation.
	Message string
	// Err is the underlying error, if any. It must not carry secret values.
	Err error
}

// Error returns the message, with the underlying error when there is one.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Message, e.Err)
	}
	return e.Message
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// AsError returns the *Error in err's chain, if any.
func AsError(err error) (*Error, bool) {
	var pe *Error
	ok := errors.As(err, &pe)
	return pe, ok
}
