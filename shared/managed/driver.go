// Package managed is the generic reconciler every infra-operator kind uses. A kind supplies a
// small Driver that talks to AWS; this package owns everything else: the finalizer, the
// AWSProvider lookup, ownership tags, the never-create-twice guard, deletion policies,
// conditions and status, events, requeue and backoff, and metrics.
package managed

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Driver manages one AWS kind through one provider Session. Every call is idempotent and
// returns quickly; none blocks waiting for AWS to finish.
type Driver[O v1alpha1.Managed, S any] interface {
	// Observe reads AWS and never writes to it. When o has no external name yet, Observe
	// looks the resource up by its ownership tags or idempotency token and, when found,
	// records its identifier with SetExternalName. Observe fills o's kind-specific status.
	Observe(ctx context.Context, o O) (Observation[S], error)
	// Create creates the AWS resource with the ownership tags of DesiredTags and, where the
	// API has one, an idempotency token derived from o's UID. It records the identifier with
	// SetExternalName as soon as AWS returns it, even when a later step of Create fails. A
	// *WaitingError or *TerminalError from Create says that nothing was created.
	Create(ctx context.Context, o O) error
	// Update changes the AWS resource to match o's spec, calling only what differs from obs.
	Update(ctx context.Context, o O, obs Observation[S]) error
	// Delete starts deleting the AWS resource. A resource that is already gone is success.
	Delete(ctx context.Context, o O, obs Observation[S]) error
}

// OwnershipReleaser is implemented by drivers that can remove the ownership tags from their
// resources; the Orphan deletion policy uses it.
type OwnershipReleaser[O v1alpha1.Managed, S any] interface {
	ReleaseOwnership(ctx context.Context, o O, obs Observation[S]) error
}

// Observation is what Observe learned about the AWS resource.
type Observation[S any] struct {
	// Exists is true when the AWS resource exists (and is not being deleted).
	Exists bool
	// UpToDate is true when every managed field matches the spec.
	UpToDate bool
	// Ready is true when the resource is usable.
	Ready bool
	// Busy is true when AWS accepts no change to the resource now (it is being created or
	// changed). The reconciler then waits instead of calling Update, and does not count the
	// spec as applied unless UpToDate is true as well.
	Busy bool
	// State is what AWS said, handed to Update and Delete so they need no second read.
	State *S
	// Diff names the fields that differ from the spec, for events and logs, for example
	// "tags, versioning.enabled".
	Diff string
	// Message explains why a resource that exists is not ready, for example
	// "state is pending".
	Message string
	// Tags are the resource's tags as AWS reports them. When set, the reconciler checks its
	// ownership tags before it changes or deletes anything: a resource that names another
	// object or another install as its owner is refused with OwnedByAnother (unless the object
	// carries the takeover annotation), and is never deleted.
	Tags map[string]string
	// Conflict is a difference from the spec that no update can fix, for example a VPC whose
	// CIDR block is not the spec's. While the object is applied it is reported like a terminal
	// error (the spec must change); while the object is deleted it is ignored, so that a
	// comparison never keeps an object from being deleted. Use Terminal to build it.
	Conflict error
}

// Kind describes one managed kind to the generic reconciler.
type Kind[O v1alpha1.Managed, S any] struct {
	// Name is the kind's name, for example "VPC".
	Name string
	// New returns an empty object of the kind.
	New func() O
	// NewList returns an empty list of the kind.
	NewList func() client.ObjectList
	// Connect returns a Driver that uses the session's AWS configuration and reads objects
	// its spec refers to (Secrets, for example) through kube, which reads the API server
	// directly (Secrets are not cached).
	Connect func(s *provider.Session, kube client.Reader) Driver[O, S]
	// Secrets returns the names of the Secrets in o's namespace that o's spec refers to, for
	// example a database password. The reconciler looks at o again whenever one of them is
	// created or changes, so a resource waiting for a missing Secret recovers by itself.
	// Optional.
	Secrets func(o O) []string
	// Validate checks the spec beyond what admission checks. An error is terminal and no AWS
	// call is made. Optional.
	Validate func(o O) error
	// ResolveReferences fills AWS identifiers from referenced objects in the cluster (see
	// ReferenceTarget). It returns a *WaitingError while a reference is not ready. Optional.
	ResolveReferences func(ctx context.Context, c client.Reader, o O) error
	// References returns what o's spec refers to, so that o is looked at again as soon as a
	// referenced object becomes Ready, changes its identifier or (for selectors) its labels.
	// Optional; the kinds it names must be in Referenced.
	References func(o O) []Ref
	// Referenced are empty objects of the kinds References may name, for example &VPC{}.
	Referenced []client.Object
}
