package managed

import (
	"context"
	"errors"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// sessionsKey keys, in a context, how the object being reconciled reaches other providers.
type sessionsKey struct{}

// SessionResolver returns the session of a provider that a field of the spec of the object being
// reconciled names, other than its providerRef.
type SessionResolver func(ctx context.Context, ref v1alpha1.ProviderReference) (*provider.Session, error)

// WithSessions returns ctx carrying resolve; the engine calls it for every pass and preview.
func WithSessions(ctx context.Context, resolve SessionResolver) context.Context {
	return context.WithValue(ctx, sessionsKey{}, resolve)
}

// SessionFor returns the session of a second provider the spec names (a VPC peering
// connection's accepter account), resolved exactly as providerRef is: an AWSProvider of the
// object's namespace, or of another namespace or a ClusterAWSProvider that allows it, that the
// administrator's tenancy rules let the namespace use and that was validated. A refusal is a
// *provider.Error (ProviderNotAllowed, RoleNotAllowed, ...) or a *WaitingError, which the engine
// reports as it reports providerRef's. The engine marks only providerRef's provider in use: a
// kind must not need the second one to delete its resource.
func SessionFor(ctx context.Context, ref v1alpha1.ProviderReference) (*provider.Session, error) {
	resolve, ok := ctx.Value(sessionsKey{}).(SessionResolver)
	if !ok {
		return nil, errNoSessions
	}
	return resolve(ctx, ref)
}

// errNoSessions is SessionFor's answer outside a pass of the engine.
var errNoSessions = errors.New("no provider resolver: SessionFor is called outside a reconcile")
