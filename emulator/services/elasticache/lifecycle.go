package elasticache

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The statuses of clusters, groups and snapshots.
const (
	statusCreating  = "creating"
	statusAvailable = "available"
	statusModifying = "modifying"
	statusDeleting  = "deleting"
)

// life is the status of a cluster or a replication group on the simulation clock: a transitional
// status (creating, modifying, deleting) lasts the resource's transition time, then it is
// available, or gone once deleted. A group shares its life with its member clusters.
type life struct {
	core.Lifecycle[string]
	transition time.Duration
	gone       bool
}

// newLife returns the life of an available resource whose transitions take transition.
func newLife(transition time.Duration) *life {
	return &life{Lifecycle: core.NewLifecycle(statusAvailable), transition: transition}
}

// enter puts the resource into a transitional status for its transition time from now.
func (l *life) enter(status string, now time.Time) {
	l.Start(status, now, l.transition)
}

// startDeletion takes the final snapshot a deletion asks for (final, when not nil) of cluster c,
// or of group g when it is not nil, and starts the deletion of the resource whose life is l. The
// caller holds the backend's mutex.
func (b *Backend) startDeletion(call *core.Call, r *region, l *life, final *string, c *cluster, g *group) error {
	if final != nil {
		if _, err := b.snapshotOf(call, r, *final, c, g); err != nil {
			return err
		}
	}
	l.enter(statusDeleting, call.Now)
	return nil
}

// pending are the changes that wait for the maintenance window: node type, engine version and
// (Memcached) number of nodes.
type pending struct {
	nodeType, version *string
	numNodes          *int32
}

// empty reports whether nothing is pending.
func (p pending) empty() bool { return p.nodeType == nil && p.version == nil && p.numNodes == nil }

// report returns the pending changes as PendingModifiedValues reports them.
func (p pending) report() *types.PendingModifiedValues {
	return &types.PendingModifiedValues{CacheNodeType: p.nodeType, EngineVersion: p.version, NumCacheNodes: p.numNodes}
}

// config is what a standalone cluster, or a replication group and its members, run with: the
// settings, the number of nodes, the changes pending until pendingAt, and encryption at rest.
type config struct {
	settings
	numNodes  int32
	pending   pending
	pendingAt time.Time
	atRest    bool
	kmsKey    string
	// applyingParams is true from a change of the parameter group until the resource is
	// available again.
	applyingParams bool
}

// apply makes the pending changes current.
func (c *config) apply() {
	if p := c.pending; p.nodeType != nil {
		c.nodeType = *p.nodeType
	}
	if p := c.pending; p.version != nil {
		c.version = *p.version
	}
	if p := c.pending; p.numNodes != nil {
		c.numNodes = *p.numNodes
	}
	c.pending = pending{}
}

// settle brings a cluster's or group's life and configuration up to now: a transitional status
// that has lasted its time ends, and pending changes whose window has come apply, the resource
// modifying for its transition time from then. It reports whether a deletion has finished.
func settle(l *life, c *config, now time.Time) (gone bool) {
	l.Settle(now, func(s core.Step[string]) { l.gone = l.gone || s.Status == statusDeleting })
	if l.gone {
		return true
	}
	if l.Status() == statusAvailable {
		c.applyingParams = false
	}
	if l.Status() == statusAvailable && !c.pending.empty() && !now.Before(c.pendingAt) {
		c.apply()
		l.Start(statusModifying, c.pendingAt, l.transition).Settle(now, nil)
	}
	return false
}

// stage records a change of a setting whose current value is cur: pending until the maintenance
// window, or nothing when it equals the current value.
func stage[T comparable](slot **T, cur, v T) {
	if v == cur {
		*slot = nil
		return
	}
	*slot = &v
}
