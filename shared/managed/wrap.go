package managed

import "fmt"

// Wrap returns err with the context that format and args describe, as
// fmt.Errorf(format+": %w", args..., err) does, or nil when err is nil: a driver returns
// the result of one AWS call with Wrap(err, "put policy of bucket %s", name).
func Wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
