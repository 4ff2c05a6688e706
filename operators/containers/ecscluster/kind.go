// Package ecscluster manages Amazon ECS clusters for the ECSCluster kind.
package ecscluster

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the ECSCluster kind to the engine.
func Kind() managed.Kind[*v1alpha1.ECSCluster, State] {
	return managed.Kind[*v1alpha1.ECSCluster, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.ECSCluster) managed.Driver[*v1alpha1.ECSCluster, State] {
			return &driver{api: provider.Client(s, "ecs", func(c aws.Config) *ecs.Client { return ecs.NewFromConfig(c) })}
		},
	}
}

// driver manages one provider's ECS clusters.
type driver struct {
	api *ecs.Client
}

// clusterName returns the cluster's name: the spec's, else the object's.
func clusterName(c *v1alpha1.ECSCluster) string {
	if c.Spec.ClusterName != "" {
		return c.Spec.ClusterName
	}
	return c.Name
}
