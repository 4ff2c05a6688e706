package managed

import (
	"context"
	"fmt"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
)

// Claim decides whether an AWS resource found under the name o's spec gives it (a bucket,
// table or DB instance name) belongs to o, for kinds whose AWS identifier is chosen by the user.
// It does when its ownership tags name o, or when a create call of o's was started and not
// confirmed and the resource names no other owner (a crash between the create and the
// recording of its identifier, before the resource was tagged; a resource tagged for another
// object was never created by o). Claim records the identifier and returns nil, or returns a
// terminal error that says how to adopt the resource. An object with managementPolicy
// ObserveOnly claims any resource found under its name: it only reads it, and the engine then
// refuses one that another namespace's object or another install owns unless the administrator
// allows it (Boundary.TakeoverNamespaces). Once o records an identifier Claim does nothing: the
// engine checks the ownership tags of a recorded resource itself, against the administrator's
// Boundary (adoption of a resource without ownership tags, takeover of another's).
func Claim(o v1alpha1.Managed, kind, id string, tags map[string]string) error {
	if ExternalName(o) != "" {
		return nil
	}
	pending := o.GetAnnotations()[v1alpha1.AnnotationCreatePending] != "" && tags[v1alpha1.TagOwnerUID] == ""
	if OwnedBy(o, tags) || pending || v1alpha1.ObserveOnly(o) {
		SetExternalName(o, id)
		return nil
	}
	owner := "no infra-operator object"
	if uid := tags[v1alpha1.TagOwnerUID]; uid != "" {
		owner = "the " + tags[v1alpha1.TagOwnerKind] + " " + tags[v1alpha1.TagOwnerNamespace] + "/" + tags[v1alpha1.TagOwnerName]
	}
	return Terminal(condition.ReasonAlreadyExists, "%s %s already exists in AWS and is owned by %s; choose another name, "+
		"or adopt it by setting the annotation %s=%s", kind, id, owner, v1alpha1.AnnotationExternalName, id)
}

// Predecessor reports whether tags, the ownership tags an AWS resource carries, name an earlier
// object of the same kind, namespace and name as desired (the tags a pass asks for, Request.Tags)
// in the same install: an object deleted and created again, whose resource outlived it waiting
// for its deletion (a secret in its recovery window, a key pending deletion). Such a resource
// may be restored and reused instead of leaked or duplicated; any other owner's may not.
func Predecessor(desired, tags map[string]string) bool {
	if tags[v1alpha1.TagOwnerUID] == "" || tags[v1alpha1.TagOwnerUID] == desired[v1alpha1.TagOwnerUID] {
		return false
	}
	for _, k := range []string{v1alpha1.TagOwnerKind, v1alpha1.TagOwnerNamespace, v1alpha1.TagOwnerName, v1alpha1.TagInstallID} {
		if tags[k] != desired[k] {
			return false
		}
	}
	return true
}

// ReadClaimed reads the resource of kind whose identifier is id with get, and its tags with
// tags, and claims it for o (see Claim), as the Observe of a kind whose resources have names
// of their own starts. found is false, with no error, when get reports that the resource does
// not exist.
func ReadClaimed[T any](ctx context.Context, o v1alpha1.Managed, kind, id string, get func(context.Context) (T, error),
	tags func(context.Context) (map[string]string, error)) (res T, resTags map[string]string, found bool, err error) {
	res, err = get(ctx)
	if awserr.IsNotFound(err) {
		return res, nil, false, nil
	}
	if err != nil {
		return res, nil, false, fmt.Errorf("get %s %s: %w", kind, id, err)
	}
	if resTags, err = tags(ctx); err != nil {
		return res, nil, false, err
	}
	if err := Claim(o, kind, id, resTags); err != nil {
		return res, nil, false, err
	}
	return res, resTags, true, nil
}
