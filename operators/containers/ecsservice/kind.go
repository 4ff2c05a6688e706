// Package ecsservice manages ECS services for the ECSService kind: tasks of a task definition
// kept running in a cluster, behind load balancers, rolled out by deployments that the
// circuit breaker stops (and rolls back) when their tasks fail to start.
package ecsservice

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the ECSService kind to the engine. A service is Ready once its deployment
// reached steady state, which takes at least the time its tasks take to start.
func Kind() managed.Kind[*v1alpha1.ECSService, State] {
	return managed.Kind[*v1alpha1.ECSService, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.ECSService) managed.Driver[*v1alpha1.ECSService, State] {
			return &driver{api: provider.Client(s, "ecs", func(c aws.Config) *ecs.Client { return ecs.NewFromConfig(c) })}
		},
		References: []managed.Ref[*v1alpha1.ECSService]{
			managed.One(targets.ECSCluster, "spec.clusterRef", func(s *v1alpha1.ECSService) (*shared.Reference, *string) {
				return s.Spec.ClusterRef, &s.Spec.Cluster
			}),
			managed.One(targets.ECSTaskDefinition, "spec.taskDefinitionRef", func(s *v1alpha1.ECSService) (*shared.Reference, *string) {
				return s.Spec.TaskDefinitionRef, &s.Spec.TaskDefinition
			}),
			managed.List(targets.Subnet, "spec.network.subnetRefs", "", func(s *v1alpha1.ECSService) ([]shared.Reference, *shared.Selector, *[]string) {
				if s.Spec.Network == nil {
					return nil, nil, new([]string)
				}
				return s.Spec.Network.SubnetRefs, nil, &s.Spec.Network.SubnetIDs
			}),
			managed.List(targets.SecurityGroup, "spec.network.securityGroupRefs", "", func(s *v1alpha1.ECSService) ([]shared.Reference, *shared.Selector, *[]string) {
				if s.Spec.Network == nil {
					return nil, nil, new([]string)
				}
				return s.Spec.Network.SecurityGroupRefs, nil, &s.Spec.Network.SecurityGroupIDs
			}),
			managed.Each(targets.ALBTargetGroup, "spec.loadBalancers[%d].albRef", func(s *v1alpha1.ECSService) []managed.Slot {
				return targetGroupSlots(s, func(lb *v1alpha1.ECSServiceLoadBalancer) *shared.Reference { return lb.ALBRef })
			}).Writing(),
			managed.Each(targets.NLBTargetGroup, "spec.loadBalancers[%d].nlbRef", func(s *v1alpha1.ECSService) []managed.Slot {
				return targetGroupSlots(s, func(lb *v1alpha1.ECSServiceLoadBalancer) *shared.Reference { return lb.NLBRef })
			}).Writing(),
		},
		ReadyIn: time.Second,
	}
}

// targetGroupSlots returns, for every load balancer of the spec, the reference ref picks (nil
// for another kind) and the target group it names, resolving into the load balancer's
// targetGroupARN.
func targetGroupSlots(s *v1alpha1.ECSService, ref func(*v1alpha1.ECSServiceLoadBalancer) *shared.Reference) []managed.Slot {
	slots := make([]managed.Slot, len(s.Spec.LoadBalancers))
	for i := range s.Spec.LoadBalancers {
		lb := &s.Spec.LoadBalancers[i]
		slots[i] = managed.Slot{Ref: ref(lb), ID: &lb.TargetGroupARN, Element: lb.TargetGroup}
	}
	return slots
}

// driver manages one provider's ECS services.
type driver struct {
	api *ecs.Client
}

// serviceName returns the service's name: the spec's, else the object's.
func serviceName(s *v1alpha1.ECSService) string {
	if s.Spec.ServiceName != "" {
		return s.Spec.ServiceName
	}
	return s.Name
}

// cluster returns the service's cluster: the spec's (resolved), or while the object is deleted
// (references are not resolved then) the one recorded in the status.
func cluster(s *v1alpha1.ECSService) string {
	if s.Spec.Cluster != "" {
		return s.Spec.Cluster
	}
	return s.Status.ClusterARN
}
