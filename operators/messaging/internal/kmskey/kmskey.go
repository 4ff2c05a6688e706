// Package kmskey holds what the messaging family's kinds share about references to KMSKeys,
// a kind of the security family that does not exist yet.
package kmskey

import (
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// RefUnavailable returns the terminal error for ref, a reference to a KMSKey in the field
// named field, while the KMSKey kind does not exist; nil when ref is not set. Kinds return it
// before any AWS call.
func RefUnavailable(field string, ref *shared.Reference) error {
	if ref == nil {
		return nil
	}
	return managed.Terminal(condition.ReasonKMSKeyKindUnavailable, "%s names KMSKey %s, but the KMSKey kind (security family) is not "+
		"available yet; give the key as kmsKeyID instead", field, ref.Name)
}
