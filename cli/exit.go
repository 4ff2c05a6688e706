package cli

import "fmt"

// ExitError asks main to exit with Code. A command returns it when its outcome, not a
// failure, decides the exit status (`infractl plan` exits 2 when something would change);
// Err, when set, is printed first.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("exit status %d", e.Code)
}

func (e *ExitError) Unwrap() error { return e.Err }
