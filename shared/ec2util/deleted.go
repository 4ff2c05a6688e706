package ec2util

import (
	"fmt"

	"github.com/runner-codes/infra-operator/shared/awserr"
)

// Deleted returns the error of the call that deleted the resource id of type what, with that
// context; a resource that was already gone is no error.
func Deleted(err error, what, id string) error {
	if err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("delete %s %s: %w", what, id, err)
	}
	return nil
}
