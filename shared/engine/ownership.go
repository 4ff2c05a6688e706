package engine

import (
	"fmt"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// checkOwnership refuses to manage an AWS resource that is not o's, as its ownership tags
// (tags, as Observe read them; nil when the driver reports none) say, unless the rules let o
// have it:
//   - a resource of another object of o's namespace is taken over with the takeover
//     annotation alone: the namespace's objects are one team's;
//   - a resource of another namespace's object, or of another install, needs the annotation
//     and the administrator's leave for o's namespace (Boundary.TakeoverNamespaces, operator
//     flag --takeover-namespaces; none by default): the annotation is the tenant's own choice
//     and never reaches into another tenant's resources;
//   - a resource without ownership tags (made outside the operator, or released by
//     deletionPolicy Orphan) is adopted when the administrator lets o's namespace adopt
//     (Boundary.AdoptionNamespaces, operator flag --adoption-namespaces; every namespace by
//     default). created says that o made a create call whose resource this is (its
//     create-pending marker was still set when it was found): a resource o made before it
//     could tag it is o's own.
func (r *Reconciler[O, S]) checkOwnership(o O, tags map[string]string, installID string, created bool) error {
	ns := o.GetNamespace()
	owner, foreign := r.otherOwner(o, tags, installID)
	takeover := o.GetAnnotations()[v1alpha1.AnnotationTakeover] == "true"
	switch {
	case owner != "" && !takeover:
		how := fmt.Sprintf("set the annotation %s=true (the other owner must stop managing it)", v1alpha1.AnnotationTakeover)
		if foreign {
			how += fmt.Sprintf(", which for another namespace's or install's resource also needs the cluster administrator to allow namespace %s "+
				"(operator flag --takeover-namespaces, chart value tenancy.takeoverNamespaces)", ns)
		}
		return managed.Terminal(condition.ReasonOwnedByAnother, "%s %s belongs to %s; nothing was changed. To take it over, %s, or point %s at another resource",
			r.kind.Name, managed.ExternalName(o), owner, how, v1alpha1.AnnotationExternalName)
	case owner != "" && foreign && !r.opts.Boundary.MayTakeOver(ns):
		return managed.Terminal(condition.ReasonTakeoverNotAllowed, "%s %s belongs to %s; the %s annotation takes over only resources of this namespace's objects, "+
			"and nothing was changed. To take it over, the cluster administrator must allow namespace %s (operator flag --takeover-namespaces, "+
			"chart value tenancy.takeoverNamespaces)", r.kind.Name, managed.ExternalName(o), owner, v1alpha1.AnnotationTakeover, ns)
	case owner == "" && unowned(tags) && !created && !r.opts.Boundary.MayAdopt(ns):
		return managed.Terminal(condition.ReasonAdoptionNotAllowed, "%s %s carries no ownership tags: the operator did not create it, and namespace %s "+
			"may not adopt such resources; nothing was changed. Ask the cluster administrator to allow namespace %s (operator flag --adoption-namespaces, "+
			"chart value tenancy.adoptionNamespaces), or remove the annotation %s to create a resource of this object's own",
			r.kind.Name, managed.ExternalName(o), ns, ns, v1alpha1.AnnotationExternalName)
	}
	return nil
}

// unowned reports whether tags, as Observe read them, show a resource without an owner: the
// driver reported the tags, and no ownership tag names an object.
func unowned(tags map[string]string) bool {
	return tags != nil && tags[v1alpha1.TagOwnerUID] == ""
}

// otherOwner describes the owner that tags name when it is not o (another object's UID) or not
// this install (another install id), and returns "" otherwise. foreign says that the owner is
// outside o's namespace: an object of another namespace, or another install.
func (r *Reconciler[O, S]) otherOwner(o O, tags map[string]string, installID string) (owner string, foreign bool) {
	otherInstall := tags[v1alpha1.TagInstallID] != "" && installID != "" && tags[v1alpha1.TagInstallID] != installID
	if uid := tags[v1alpha1.TagOwnerUID]; uid != "" && uid != string(o.GetUID()) {
		return fmt.Sprintf("the %s %s/%s (UID %s)", tags[v1alpha1.TagOwnerKind], tags[v1alpha1.TagOwnerNamespace], tags[v1alpha1.TagOwnerName], uid),
			otherInstall || tags[v1alpha1.TagOwnerNamespace] != o.GetNamespace()
	}
	if otherInstall {
		return fmt.Sprintf("another install of the operator (install id %s, this one is %s)", tags[v1alpha1.TagInstallID], installID), true
	}
	return "", false
}

// leaveAlone returns why o's deletion must leave its AWS resource untouched, or "": the
// resource belongs to another object or install that o did not take over, as checkOwnership
// decides, so o never deletes nor untags it.
func (r *Reconciler[O, S]) leaveAlone(o O, tags map[string]string, installID string) string {
	err := r.checkOwnership(o, tags, installID, o.GetAnnotations()[v1alpha1.AnnotationCreatePending] != "")
	if err == nil {
		return ""
	}
	if owner, _ := r.otherOwner(o, tags, installID); owner != "" {
		return "it belongs to " + owner
	}
	return "it carries no ownership tags, and namespace " + o.GetNamespace() + " may not adopt such resources (operator flag --adoption-namespaces)"
}
