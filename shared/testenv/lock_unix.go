//go:build unix

package testenv

import (
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on path, creating it, and waits while another process
// holds it; the returned function releases it. Two test binaries that find the control plane
// missing at once then build it once, one after the other, instead of both writing into the
// same directory.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open the lock file %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing the file releases the lock anyway.
		f.Close()
	}, nil
}
