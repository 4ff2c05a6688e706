package cloudfront

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// versioned is a resource whose updates and deletes name its current ETag in their IfMatch.
type versioned interface {
	// currentETag returns the resource's current ETag.
	currentETag() string
}

// withFound runs f on the resource of the call's account that find returns for id, holding the
// backend's mutex, and returns f's answer or find's error (the resource's NoSuch… error): the
// scaffold of the operations that read or change one resource.
func withFound[R, O any](b *Backend, call *core.Call, id *string, find func(a *account, id *string) (R, error), f func(a *account, r R) (*O, error)) (*O, error) {
	return core.Locked(b.state, call, func(a *account) (*O, error) {
		r, err := find(a, id)
		if err != nil {
			return nil, err
		}
		return f(a, r)
	})
}

// withMatched is withFound for the operations that change or delete a resource given its current
// ETag: it runs f only when ifMatch is that ETag, and returns checkIfMatch's error otherwise.
func withMatched[R versioned, O any](b *Backend, call *core.Call, id, ifMatch *string, find func(a *account, id *string) (R, error), f func(a *account, r R) (*O, error)) (*O, error) {
	return withFound(b, call, id, find, func(a *account, r R) (*O, error) {
		if err := checkIfMatch(ifMatch, r.currentETag()); err != nil {
			return nil, err
		}
		return f(a, r)
	})
}
