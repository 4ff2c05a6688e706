package ec2

import (
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Instance returns the VPC of an instance and its state at now ("running", "stopped", ...),
// for ELBv2's RegisterTargets; ok is false for an instance EC2 does not know or no longer shows.
func (b *Backend) Instance(scope core.Scope, id string, now time.Time) (vpc, state string, ok bool) {
	b.scoped(scope, func(r *region) {
		if i := r.instances[id]; i != nil && !i.expired(now) {
			vpc, state, ok = i.vpc, string(i.state(now)), true
		}
	})
	return vpc, state, ok
}
