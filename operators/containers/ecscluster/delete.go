package ecscluster

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// How soon the deletion of a cluster that is not empty looks again: as long as it has waited
// so far, so that the looks come at doubling intervals, between these bounds.
const (
	notEmptyFirstWait = 2 * time.Second
	notEmptyMaxWait   = 10 * time.Minute
)

// Delete deletes the cluster. ECS refuses a cluster with active services, running tasks or
// container instances: while DescribeClusters counts any, no DeleteCluster is sent, and the
// object waits with the condition ClusterNotEmpty, looked at again after a wait that doubles
// (see notEmptyWait) until they are gone or the deletion policy changes.
func (d *driver) Delete(ctx context.Context, c *v1alpha1.ECSCluster, obs managed.Observation[State]) error {
	cl := obs.State.Cluster
	if cl.ActiveServicesCount+cl.RunningTasksCount+cl.PendingTasksCount+cl.RegisteredContainerInstancesCount > 0 {
		return notEmpty(c, cl, time.Now())
	}
	_, err := d.api.DeleteCluster(ctx, &ecs.DeleteClusterInput{Cluster: cl.ClusterArn})
	switch code := awserr.Code(err); {
	case err == nil, awserr.IsNotFound(err):
		return nil
	case code == "ClusterContainsServicesException", code == "ClusterContainsTasksException",
		code == "ClusterContainsContainerInstancesException", code == "ClusterContainsCapacityProviderException":
		return notEmpty(c, cl, time.Now())
	}
	return managed.Wrap(err, "delete cluster %s", aws.ToString(cl.ClusterName))
}

// notEmpty is the wait of a cluster that ECS does not delete because something runs in it,
// saying what and the way out.
func notEmpty(c *v1alpha1.ECSCluster, cl types.Cluster, now time.Time) error {
	return &managed.WaitingError{Reason: condition.ReasonClusterNotEmpty, After: notEmptyWait(c, now),
		Message: fmt.Sprintf("cluster %s is not empty (%d active services, %d running and %d pending tasks, %d container instances): "+
			"delete them, or set deletionPolicy to Retain or Orphan to keep the cluster", aws.ToString(cl.ClusterName),
			cl.ActiveServicesCount, cl.RunningTasksCount, cl.PendingTasksCount, cl.RegisteredContainerInstancesCount)}
}

// notEmptyWait returns how soon to look again at a cluster whose deletion waits for it to be
// empty: as long as the deletion has waited so far (the looks come at doubling intervals), at
// least notEmptyFirstWait and at most notEmptyMaxWait.
func notEmptyWait(c *v1alpha1.ECSCluster, now time.Time) time.Duration {
	waited := time.Duration(0)
	if t := c.GetDeletionTimestamp(); t != nil {
		waited = now.Sub(t.Time)
	}
	return min(max(waited, notEmptyFirstWait), notEmptyMaxWait)
}

// ReleaseOwnership removes the ownership tags from the cluster.
func (d *driver) ReleaseOwnership(ctx context.Context, c *v1alpha1.ECSCluster, obs managed.Observation[State]) error {
	_, err := d.api.UntagResource(ctx, &ecs.UntagResourceInput{ResourceArn: obs.State.Cluster.ClusterArn, TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "untag cluster %s", clusterName(c))
}
