// Package managed is the driver kit: what a kind writes to be managed by infra-operator's
// reconcile engine (package engine). A kind declares itself with a Kind (its objects, its
// references, its checks) and supplies a Driver that talks to AWS; the kit also holds the
// helpers drivers share: plans of changes, tags, errors that become conditions, claims of
// named resources, periodic listings. How to add a kind: docs/adding-a-kind.md.
package managed

import (
	"context"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Driver manages one AWS kind through one provider Session. Every call is idempotent and
// returns quickly; none blocks waiting for AWS to finish. The engine calls Observe on every
// pass, then Create when nothing exists, the Observation's Changes when something differs,
// Delete or ReleaseOwnership when the object is deleted.
type Driver[O v1alpha1.Managed, S any] interface {
	// Observe reads AWS and never writes to it. When o has no external name yet, Observe
	// looks the resource up by its ownership tags or idempotency token and, when found,
	// records its identifier with SetExternalName. Observe fills o's kind-specific status and,
	// unless req.Deleting, plans the changes that bring the resource in line with the spec.
	Observe(ctx context.Context, o O, req Request) (Observation[S], error)
	// Create creates the AWS resource with req.Tags and, where the API has one, an
	// idempotency token derived from o's UID. It records the identifier with SetExternalName
	// as soon as AWS returns it, even when a later step of Create fails. A *WaitingError or
	// *TerminalError from Create says that nothing was created.
	Create(ctx context.Context, o O, req Request) error
	// Delete starts deleting the AWS resource. A resource that is already gone is success.
	Delete(ctx context.Context, o O, obs Observation[S]) error
	// ReleaseOwnership removes the ownership tags from the resource, for deletionPolicy
	// Orphan, so that another object or install may adopt it.
	ReleaseOwnership(ctx context.Context, o O, obs Observation[S]) error
}

// Request is what the engine tells a driver about one pass over an object.
type Request struct {
	// Tags are the tags the AWS resource should carry: the provider's default tags, the
	// spec's tags and the ownership tags.
	Tags map[string]string
	// Deleting is true when the object is being deleted: Observe only finds the resource and
	// compares nothing, because the spec no longer matters (its references are not resolved).
	Deleting bool
	// StalledBefore is the reason of the terminal condition reported for an older generation
	// of the spec, "" when there is none: the user changed the spec after the failure was
	// reported, which is how a kind learns that it may replace a failed resource.
	StalledBefore string
}

// Observation is what Observe learned about the AWS resource.
type Observation[S any] struct {
	// Exists is true when the AWS resource exists (and is not being deleted).
	Exists bool
	// Ready is true when the resource is usable.
	Ready bool
	// Busy is true when AWS accepts no change to the resource now (it is being created or
	// changed). The engine then waits instead of carrying out Changes, and does not count the
	// spec as applied unless Changes is empty.
	Busy bool
	// State is what AWS said, handed to Delete and ReleaseOwnership so they need no second
	// read.
	State *S
	// Changes are the differences from the spec and the calls that remove them; empty when
	// the resource matches the spec. The engine carries them out in order; their fields name
	// the differences in events.
	Changes Plan
	// Uncompared names the fields Observe could not compare yet because AWS is busy with the
	// resource (a VPC's attributes cannot be read while it is pending). It goes with Busy: the
	// engine waits, and does not count the spec as applied until an observation compares them.
	Uncompared []string
	// Message explains why a resource that exists is not ready, for example
	// "state is pending".
	Message string
	// ReadyIn, for a resource that is not Ready, is how soon it will be with nothing to wait
	// for but time (an IAM role propagating, a certificate waiting for validation): the engine
	// looks again then instead of polling. It is the same wait as Kind.ReadyIn, known from what
	// AWS said about this resource rather than assumed for every new one.
	ReadyIn time.Duration
	// Tags are the resource's tags as AWS reports them. When set, the engine checks its
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

// UpToDate reports whether the resource is known to match the spec: everything was compared
// and nothing differs.
func (o Observation[S]) UpToDate() bool { return len(o.Changes) == 0 && len(o.Uncompared) == 0 }

// Kind declares one managed kind to the engine: its objects, how to reach AWS, what its spec
// refers to, and the checks made before any AWS call.
type Kind[O v1alpha1.Managed, S any] struct {
	// Name is the kind's name, for example "VPC"; empty means the name of O's Go type.
	Name string
	// New returns an empty object of the kind; nil means a new zero O.
	New func() O
	// NewList returns an empty list of the kind; nil means the list kind the scheme registers
	// next to O's.
	NewList func() client.ObjectList
	// Connect returns a Driver for o that uses the session's AWS configuration and reads
	// objects its spec refers to (Secrets, for example) through kube, which reads the API server
	// directly (Secrets are not cached). Most kinds have one driver and ignore o; a kind that
	// manages different AWS APIs for different specs picks the driver by o's spec (a field
	// that cannot change). The driver serves one pass over o and is not kept.
	Connect func(s *provider.Session, kube client.Reader, o O) Driver[O, S]
	// Secrets returns the names of the Secrets in o's namespace that o's spec refers to, for
	// example a database password. The engine looks at o again whenever one of them is
	// created or changes, so a resource waiting for a missing Secret recovers by itself.
	// Optional.
	Secrets func(o O) []string
	// Validate checks the spec beyond what admission checks, before anything else. An error
	// is terminal (InvalidSpec, unless it is a *TerminalError with its own reason) and no AWS
	// call is made. Optional.
	Validate func(o O) error
	// References declares every field of the spec that names another object. The engine
	// resolves them before each pass (filling the identifiers in memory) and watches their
	// targets, so that o is looked at again as soon as a target becomes Ready or changes.
	References []Ref[O]
	// ReadyIn is how soon a resource just created can be Ready at the earliest: what
	// Observation.ReadyIn would say of every new resource of the kind, assumed before the engine
	// has observed it. Zero (the default) is for resources AWS makes available at once (a
	// bucket, a queue, a topic), which the engine observes again in the same pass, so that they
	// are Ready in the pass that created them, and gone in the pass that deleted them. For kinds
	// with a creation lifecycle (a table, a database, a NAT gateway, a load balancer) it is the
	// time the quickest step takes: the engine looks again then (within the wait interval), and
	// after that with waits that double toward the wait interval. After an update the engine
	// always observes again in the same pass: most changes (tags, attributes) show at once, and
	// one that starts a lifecycle is then waited for the same way.
	ReadyIn time.Duration
	// Guard checks o against the cluster administrator's guardrails (the roles an IAMRole
	// makes, the roles a spec passes to a service) once its references are resolved and
	// before any AWS call; the engine calls it only when the operator has guardrails, and
	// never for an ObserveOnly object, which writes nothing. It may fill in, in memory, what
	// the rules impose (a permissions boundary), as references fill identifiers. A
	// *guardrails.Refusal is terminal with its own reason; any other error is retried.
	// Optional.
	Guard func(ctx context.Context, o O, g Guardrails) error
}
