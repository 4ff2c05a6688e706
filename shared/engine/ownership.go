package engine

import (
	"fmt"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// checkOwnership refuses to manage an AWS resource whose ownership tags (tags, as Observe read
// them; nil when the driver reports none) name another object, or another install than
// installID, unless o carries the takeover annotation. Resources without ownership tags, made
// outside the operator or released by deletionPolicy Orphan, may be adopted.
func (r *Reconciler[O, S]) checkOwnership(o O, tags map[string]string, installID string) error {
	owner := r.otherOwner(o, tags, installID)
	if owner == "" || o.GetAnnotations()[v1alpha1.AnnotationTakeover] == "true" {
		return nil
	}
	return managed.Terminal(condition.ReasonOwnedByAnother, "%s %s belongs to %s; nothing was changed. To take it over, set the annotation %s=true "+
		"(the other owner must stop managing it), or point %s at another resource",
		r.kind.Name, managed.ExternalName(o), owner, v1alpha1.AnnotationTakeover, v1alpha1.AnnotationExternalName)
}

// otherOwner describes the owner that tags name when it is not o (another object's UID) or not
// this install (another install id), and returns "" otherwise. A takeover annotation makes o
// the owner.
func (r *Reconciler[O, S]) otherOwner(o O, tags map[string]string, installID string) string {
	if o.GetAnnotations()[v1alpha1.AnnotationTakeover] == "true" {
		return ""
	}
	if uid := tags[v1alpha1.TagOwnerUID]; uid != "" && uid != string(o.GetUID()) {
		return fmt.Sprintf("the %s %s/%s (UID %s)", tags[v1alpha1.TagOwnerKind], tags[v1alpha1.TagOwnerNamespace], tags[v1alpha1.TagOwnerName], uid)
	}
	if id := tags[v1alpha1.TagInstallID]; id != "" && installID != "" && id != installID {
		return fmt.Sprintf("another install of the operator (install id %s, this one is %s)", id, installID)
	}
	return ""
}
