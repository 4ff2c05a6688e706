//go:build !unix

package testenv

// lockFile does not lock where flock is missing: concurrent first builds of the control
// plane are then the caller's to avoid.
func lockFile(string) (func(), error) { return func() {}, nil }
