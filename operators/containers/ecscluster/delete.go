package ecscluster

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the cluster. ECS refuses a cluster with active services or running tasks:
// the cluster is kept and the object waits with the condition ClusterNotEmpty, looked at again
// after the operator's wait interval, until they are gone or the deletion policy changes.
func (d *driver) Delete(ctx context.Context, c *v1alpha1.ECSCluster, obs managed.Observation[State]) error {
	cl := obs.State.Cluster
	_, err := d.api.DeleteCluster(ctx, &ecs.DeleteClusterInput{Cluster: cl.ClusterArn})
	switch code := awserr.Code(err); {
	case err == nil, awserr.IsNotFound(err):
		return nil
	case code == "ClusterContainsServicesException", code == "ClusterContainsTasksException",
		code == "ClusterContainsContainerInstancesException", code == "ClusterContainsCapacityProviderException":
		return managed.Waiting(condition.ReasonClusterNotEmpty, "cluster %s is not empty (%d active services, %d running and %d pending tasks, "+
			"%d container instances): delete them, or set deletionPolicy to Retain or Orphan to keep the cluster", aws.ToString(cl.ClusterName),
			cl.ActiveServicesCount, cl.RunningTasksCount, cl.PendingTasksCount, cl.RegisteredContainerInstancesCount)
	}
	return managed.Wrap(err, "delete cluster %s", aws.ToString(cl.ClusterName))
}

// ReleaseOwnership removes the ownership tags from the cluster.
func (d *driver) ReleaseOwnership(ctx context.Context, c *v1alpha1.ECSCluster, obs managed.Observation[State]) error {
	_, err := d.api.UntagResource(ctx, &ecs.UntagResourceInput{ResourceArn: obs.State.Cluster.ClusterArn, TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "untag cluster %s", clusterName(c))
}
