package ecscluster

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/containers/ecsutil"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the cluster with its settings, capacity providers, default strategy, Service
// Connect namespace and tags, and records its name. CreateCluster is idempotent by name: for a
// name taken by an ACTIVE cluster it answers that cluster unchanged, which is this object's
// only when its ownership tags say so (a create of this object's that was lost); any other is
// refused and left alone.
func (d *driver) Create(ctx context.Context, c *v1alpha1.ECSCluster, req managed.Request) error {
	name := clusterName(c)
	in := &ecs.CreateClusterInput{
		ClusterName:                     aws.String(name),
		Settings:                        settings(insights(c)),
		CapacityProviders:               c.Spec.CapacityProviders,
		DefaultCapacityProviderStrategy: ecsutil.Strategy(c.Spec.DefaultCapacityProviderStrategy),
		Tags:                            ecsutil.TagList(req.Tags),
	}
	ns := namespace(c)
	if ns != "" {
		in.ServiceConnectDefaults = &types.ClusterServiceConnectDefaultsRequest{Namespace: aws.String(ns)}
	}
	out, err := d.api.CreateCluster(ctx, in)
	if err != nil {
		return managed.Wrap(err, "create cluster %s", name)
	}
	if tags := ecsutil.TagMap(out.Cluster.Tags); !managed.OwnedBy(c, tags) {
		return managed.Terminal(condition.ReasonAlreadyExists, "ECS cluster %s already exists in AWS and is not this object's; choose another clusterName", name)
	}
	managed.SetExternalName(c, name)
	recordNamespace(c, out.Cluster)
	return nil
}
