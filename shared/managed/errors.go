package managed

import (
	"errors"
	"fmt"
	"time"
)

// TerminalError is an error that retrying cannot fix: the spec must change. The reconciler
// reports it with Synced=False, the given reason and a Warning event, and does not requeue.
type TerminalError struct {
	// Reason is a CamelCase condition reason, for example "InvalidSpec".
	Reason string
	// Err explains what is wrong and what to do.
	Err error
}

// Error returns the explanation.
func (e *TerminalError) Error() string { return e.Err.Error() }

// Unwrap returns the explanation's error.
func (e *TerminalError) Unwrap() error { return e.Err }

// Terminal returns a TerminalError with the given reason and formatted explanation.
func Terminal(reason, format string, args ...any) error {
	return &TerminalError{Reason: reason, Err: fmt.Errorf(format, args...)}
}

// WaitingError says the resource cannot proceed until something else is ready, for example a
// referenced VPC. The reconciler reports it with Ready=False and the given reason and checks
// again after After (or sooner, when a watched object changes).
type WaitingError struct {
	// Reason is a CamelCase condition reason, for example "ReferenceNotReady".
	Reason string
	// Message says what is awaited.
	Message string
	// After is how long to wait before checking again; zero means the reconciler's default.
	After time.Duration
}

// Error returns the message.
func (e *WaitingError) Error() string { return e.Message }

// Waiting returns a WaitingError with the given reason and formatted message.
func Waiting(reason, format string, args ...any) error {
	return &WaitingError{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// AsTerminal returns the TerminalError in err's chain, if any.
func AsTerminal(err error) (*TerminalError, bool) {
	var t *TerminalError
	ok := errors.As(err, &t)
	return t, ok
}

// AsWaiting returns the WaitingError in err's chain, if any.
func AsWaiting(err error) (*WaitingError, bool) {
	var w *WaitingError
	ok := errors.As(err, &w)
	return w, ok
}
