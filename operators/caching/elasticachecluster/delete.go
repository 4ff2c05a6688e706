package elasticachecluster

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/caching/internal/ectags"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the cluster or replication group, after a final snapshot when the spec names
// one, and returns while ElastiCache deletes it (the engine looks again); once it is gone, it
// deletes the subnet group the operator made for it. A cluster busy with something else
// (modifying, snapshotting) is left until it is available again.
func (d *driver) Delete(ctx context.Context, c *v1alpha1.ElastiCacheCluster, obs managed.Observation[State]) error {
	st := obs.State
	if st.Cluster == nil {
		return d.deleteSubnetGroup(ctx, c, st)
	}
	switch st.status() {
	case statusDeleting:
		return nil
	case statusAvailable:
	default:
		return managed.Waiting(condition.ReasonDeleting, "cluster is %s; it is deleted once it is available", st.status())
	}
	snapshot := optional(c.Spec.FinalSnapshotIdentifier)
	var err error
	var what string
	if g := st.Group; g != nil {
		what = "replication group " + aws.ToString(g.ReplicationGroupId)
		_, err = d.api.DeleteReplicationGroup(ctx, &elasticache.DeleteReplicationGroupInput{ReplicationGroupId: g.ReplicationGroupId, FinalSnapshotIdentifier: snapshot})
	} else {
		what = "cache cluster " + aws.ToString(st.Cluster.CacheClusterId)
		_, err = d.api.DeleteCacheCluster(ctx, &elasticache.DeleteCacheClusterInput{CacheClusterId: st.Cluster.CacheClusterId, FinalSnapshotIdentifier: snapshot})
	}
	switch {
	case err == nil, awserr.IsNotFound(err):
		return nil
	case awserr.Code(err) == "SnapshotAlreadyExistsFault":
		return managed.Terminal(condition.ReasonFinalSnapshotExists, "a snapshot named %s already exists, so %s cannot take its final snapshot under that name; "+
			"set spec.finalSnapshotIdentifier to another name, or remove it to delete without one", c.Spec.FinalSnapshotIdentifier, what)
	}
	return fmt.Errorf("delete %s: %w", what, err)
}

// deleteSubnetGroup deletes the subnet group the operator made for the cluster, once the
// cluster is gone (see managed.Companion.Delete).
func (d *driver) deleteSubnetGroup(ctx context.Context, c *v1alpha1.ElastiCacheCluster, st *State) error {
	if st.SubnetGroup == nil {
		return nil
	}
	companion := d.subnetGroupCompanion(c, aws.ToString(st.SubnetGroup.CacheSubnetGroupName), nil)
	return companion.Delete(ctx, func(ctx context.Context) error {
		_, err := d.api.DeleteCacheSubnetGroup(ctx, &elasticache.DeleteCacheSubnetGroupInput{CacheSubnetGroupName: aws.String(companion.Name)})
		return err
	})
}

// ReleaseOwnership removes the ownership tags of the cluster (or replication group) and of the
// subnet group the operator made, for deletionPolicy Orphan (see ectags.Release).
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.ElastiCacheCluster, obs managed.Observation[State]) error {
	if obs.State.Cluster != nil {
		if err := ectags.Release(ctx, d.api, obs.State.arn(), obs.Tags); err != nil {
			return err
		}
	}
	if g := obs.State.SubnetGroup; g != nil {
		arn := aws.ToString(g.ARN)
		tags, err := ectags.Read(ctx, d.api, arn)
		if err != nil {
			return err
		}
		return ectags.Release(ctx, d.api, arn, tags)
	}
	return nil
}
