package ecscluster

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/containers/ecsutil"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// The cluster statuses ECS reports.
const (
	statusActive   = "ACTIVE"
	statusInactive = "INACTIVE"
)

// State is what ECS said about a cluster.
type State struct {
	// Cluster is DescribeClusters' answer, with the cluster's settings and tags.
	Cluster types.Cluster
}

// Observe reads the cluster of the spec's name with one DescribeClusters call (its settings
// and tags included; the service and task counts come with every cluster), claims it when its
// ownership tags name this object, fills the status and plans the changes that bring it in
// line with the spec. An INACTIVE cluster (deleted, still listed by ECS for a while) counts as
// gone.
func (d *driver) Observe(ctx context.Context, c *v1alpha1.ECSCluster, req managed.Request) (managed.Observation[State], error) {
	name := clusterName(c)
	out, err := d.api.DescribeClusters(ctx, &ecs.DescribeClustersInput{
		Clusters: []string{name},
		Include:  []types.ClusterField{types.ClusterFieldSettings, types.ClusterFieldTags},
	})
	if err != nil {
		return managed.Observation[State]{}, managed.Wrap(err, "describe cluster %s", name)
	}
	if len(out.Clusters) == 0 || aws.ToString(out.Clusters[0].Status) == statusInactive {
		return managed.Observation[State]{}, nil
	}
	st := &State{Cluster: out.Clusters[0]}
	tags := ecsutil.TagMap(st.Cluster.Tags)
	if err := managed.Claim(c, "ECS cluster", name, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(c, st.Cluster)
	obs := managed.Observation[State]{Exists: true, State: st, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	if status := aws.ToString(st.Cluster.Status); status != statusActive {
		obs.Busy, obs.Message = true, fmt.Sprintf("cluster %s is %s", name, status)
		return obs, nil
	}
	obs.Ready = true
	d.plan(&obs.Changes, c, st.Cluster, tags, req.Tags)
	return obs, nil
}

// fillStatus copies what ECS said about the cluster into the status.
func fillStatus(c *v1alpha1.ECSCluster, cl types.Cluster) {
	s := &c.Status
	s.ClusterName, s.ARN, s.Status = aws.ToString(cl.ClusterName), aws.ToString(cl.ClusterArn), aws.ToString(cl.Status)
	s.ActiveServicesCount, s.RunningTasksCount = cl.ActiveServicesCount, cl.RunningTasksCount
	s.PendingTasksCount, s.RegisteredContainerInstancesCount = cl.PendingTasksCount, cl.RegisteredContainerInstancesCount
}

// recordNamespace records in the status the Service Connect namespace the operator just set,
// as the spec names it, and the ARN ECS resolved it to (cl is ECS's answer): the normal form a
// namespace given by name is compared in (see namespaceDiffers).
func recordNamespace(c *v1alpha1.ECSCluster, cl *types.Cluster) {
	c.Status.ServiceConnectNamespace, c.Status.ServiceConnectNamespaceARN = namespace(c), ""
	if cl != nil {
		c.Status.ServiceConnectNamespaceARN = namespaceOf(*cl)
	}
}

// namespaceOf returns the ARN of the cluster's default Service Connect namespace, or "".
func namespaceOf(cl types.Cluster) string {
	if cl.ServiceConnectDefaults == nil {
		return ""
	}
	return aws.ToString(cl.ServiceConnectDefaults.Namespace)
}
