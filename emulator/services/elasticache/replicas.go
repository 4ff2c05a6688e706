package elasticache

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxReplicas is how many read replicas a replication group with cluster mode disabled has at
// most (6 member clusters).
const maxReplicas = 5

// replicaChange is what IncreaseReplicaCount and DecreaseReplicaCount both take.
type replicaChange struct {
	group       *string
	count       *int32
	shards      []types.ConfigureShard
	immediately *bool
}

// replicaGroup checks a replica count change of AWS's rules that do not depend on its
// direction and returns the group and the replica count asked for: ApplyImmediately must be
// true (AWS does not support false), NewReplicaCount is required (ReplicaConfiguration is for
// cluster mode enabled, which is not emulated), and the group must be available. The caller
// holds the backend's mutex.
func (b *Backend) replicaGroup(r *region, in replicaChange) (*group, int, error) {
	g, err := r.lookupGroup(in.group)
	if err != nil {
		return nil, 0, err
	}
	switch {
	case in.immediately == nil || !*in.immediately:
		return nil, 0, invalidValue("ApplyImmediately=false is not currently supported: replica counts change at once.")
	case len(in.shards) > 0:
		return nil, 0, invalidCombination("ReplicaConfiguration is for replication groups with cluster mode enabled, which are not emulated; give NewReplicaCount.")
	case in.count == nil:
		return nil, 0, invalidValue("NewReplicaCount must be provided for a replication group with cluster mode disabled.")
	case g.life.Status() != statusAvailable:
		return nil, 0, invalidGroupState(g)
	}
	return g, int(*in.count), nil
}

// increaseReplicaCount adds read replicas to a replication group, <id>-00n for the next free
// numbers; the group is modifying for its transition time.
func (b *Backend) increaseReplicaCount(call *core.Call, in *elasticache.IncreaseReplicaCountInput) (*elasticache.IncreaseReplicaCountOutput, error) {
	return settled(b, call, func(r *region) (*elasticache.IncreaseReplicaCountOutput, error) {
		g, n, err := b.replicaGroup(r, replicaChange{group: in.ReplicationGroupId, count: in.NewReplicaCount, shards: in.ReplicaConfiguration, immediately: in.ApplyImmediately})
		if err != nil {
			return nil, err
		}
		have := len(g.members) - 1
		switch {
		case n > maxReplicas:
			return nil, core.Errorf("NodeQuotaForClusterExceeded", "A replication group with cluster mode disabled has at most %d replicas, not %d.", maxReplicas, n)
		case n <= have:
			return nil, invalidValue("The new replica count (%d) must be greater than the current replica count (%d) of replication group %s.", n, have, g.id)
		}
		for next := 1; len(g.members)-1 < n; next++ {
			id := fmt.Sprintf("%s-%03d", g.id, next)
			if _, ok := r.clusters[id]; ok {
				continue
			}
			r.clusters[id] = b.member(r, g, id, false, call.Now)
			g.members = append(g.members, id)
		}
		g.life.enter(statusModifying, call.Now)
		return &elasticache.IncreaseReplicaCountOutput{ReplicationGroup: ptr(b.describeGroup(r, g))}, nil
	})
}

// decreaseReplicaCount removes read replicas from a replication group: those ReplicasToRemove
// names, else the newest. A group with automatic failover keeps at least one replica; the
// primary is never removed. The group is modifying for its transition time.
func (b *Backend) decreaseReplicaCount(call *core.Call, in *elasticache.DecreaseReplicaCountInput) (*elasticache.DecreaseReplicaCountOutput, error) {
	return settled(b, call, func(r *region) (*elasticache.DecreaseReplicaCountOutput, error) {
		count := in.NewReplicaCount
		if count == nil && len(in.ReplicasToRemove) > 0 {
			count = aws.Int32(int32(len(r.groupMembers(in.ReplicationGroupId)) - 1 - len(in.ReplicasToRemove)))
		}
		g, n, err := b.replicaGroup(r, replicaChange{group: in.ReplicationGroupId, count: count, shards: in.ReplicaConfiguration, immediately: in.ApplyImmediately})
		if err != nil {
			return nil, err
		}
		have := len(g.members) - 1
		switch {
		case n < 0:
			return nil, invalidValue("NewReplicaCount cannot be negative.")
		case n >= have:
			return nil, invalidValue("The new replica count (%d) must be less than the current replica count (%d) of replication group %s.", n, have, g.id)
		case n < 1 && (g.failover || g.multiAZ):
			return nil, invalidValue("Must have at least 1 replica when cluster mode is disabled with auto failover enabled.")
		}
		remove, err := replicasToRemove(r, g, in.ReplicasToRemove, have-n)
		if err != nil {
			return nil, err
		}
		for _, id := range remove {
			g.members = slices.DeleteFunc(g.members, func(m string) bool { return m == id })
			b.tags.Delete(r.clusters[id].arn)
			delete(r.clusters, id)
		}
		g.life.enter(statusModifying, call.Now)
		return &elasticache.DecreaseReplicaCountOutput{ReplicationGroup: ptr(b.describeGroup(r, g))}, nil
	})
}

// groupMembers returns the member clusters of the replication group id, nil when the region
// has no such group. The caller holds the backend's mutex.
func (r *region) groupMembers(id *string) []string {
	g, err := r.lookupGroup(id)
	if err != nil {
		return nil
	}
	return g.members
}

// replicasToRemove returns the n replicas of g to remove: those named (each a replica of g, and
// exactly n of them), else the newest n.
func replicasToRemove(r *region, g *group, named []string, n int) ([]string, error) {
	if len(named) == 0 {
		var out []string
		for i := len(g.members) - 1; i >= 0 && len(out) < n; i-- {
			if !r.clusters[g.members[i]].primary {
				out = append(out, g.members[i])
			}
		}
		return out, nil
	}
	if len(named) != n {
		return nil, invalidCombination("ReplicasToRemove names %d replicas, but NewReplicaCount removes %d.", len(named), n)
	}
	for _, id := range named {
		c, ok := r.clusters[id]
		if !ok || c.group != g.id {
			return nil, invalidValue("Cache cluster %s is not a member of replication group %s.", id, g.id)
		}
		if c.primary {
			return nil, invalidValue("Cache cluster %s is the primary of replication group %s and cannot be removed.", id, g.id)
		}
	}
	return named, nil
}
