package elasticachecluster

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// failoverOn reports whether automatic failover of the replication group is on or being
// turned on.
func failoverOn(g *types.ReplicationGroup) bool {
	return g.AutomaticFailover == types.AutomaticFailoverStatusEnabled || g.AutomaticFailover == types.AutomaticFailoverStatusEnabling
}

// wantFailover returns the automatic failover (with Multi-AZ) the replication group should have
// now, and whether it differs from what it has: on once the group has the replicas the spec
// asks for (AWS refuses failover without a replica), off when the spec asks for a single node
// (AWS refuses to remove the last replica while failover is on).
func wantFailover(s *v1alpha1.ElastiCacheClusterSpec, g *types.ReplicationGroup) (want, differs bool) {
	on := failoverOn(g)
	switch {
	case s.NumCacheNodes == 1:
		return false, on
	case len(g.MemberClusters) > 1:
		return true, !on
	}
	return on, false
}

// planReplicas plans the change of a replication group's member count to spec.numCacheNodes:
// IncreaseReplicaCount or DecreaseReplicaCount, always applied at once (AWS does not support
// waiting for the maintenance window). It is planned only when no ModifyReplicationGroup is
// (fields empty): the group is modifying after either call and takes no other change until it
// is available again, and automatic failover must be off before the last replica goes.
func (d *driver) planReplicas(changes *managed.Plan, s *v1alpha1.ElastiCacheClusterSpec, g *types.ReplicationGroup, fields []string) {
	have := int32(len(g.MemberClusters))
	if len(fields) > 0 || have == s.NumCacheNodes {
		return
	}
	id := aws.ToString(g.ReplicationGroupId)
	replicas := aws.Int32(s.NumCacheNodes - 1)
	changes.AddValue("numCacheNodes", have, s.NumCacheNodes, func(ctx context.Context) error {
		if s.NumCacheNodes > have {
			_, err := d.api.IncreaseReplicaCount(ctx, &elasticache.IncreaseReplicaCountInput{ReplicationGroupId: aws.String(id), NewReplicaCount: replicas, ApplyImmediately: aws.Bool(true)})
			return managed.Wrap(err, "add replicas to replication group %s (%d nodes to %d)", id, have, s.NumCacheNodes)
		}
		_, err := d.api.DecreaseReplicaCount(ctx, &elasticache.DecreaseReplicaCountInput{ReplicationGroupId: aws.String(id), NewReplicaCount: replicas, ApplyImmediately: aws.Bool(true)})
		return managed.Wrap(err, "remove replicas from replication group %s (%d nodes to %d)", id, have, s.NumCacheNodes)
	})
}
