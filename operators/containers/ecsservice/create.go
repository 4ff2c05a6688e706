package ecsservice

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/containers/ecsutil"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the service, with the object's UID as the idempotency token (a create whose
// answer was lost, sent again, answers the same service), and records its name and ARN at
// once. Before any write it refuses a cluster or a target group named by name or ARN that the
// namespace may not write into. A name taken in the cluster by another service is refused.
func (d *driver) Create(ctx context.Context, s *v1alpha1.ECSService, req managed.Request) error {
	if err := d.checkForeign(ctx, s); err != nil {
		return err
	}
	name := serviceName(s)
	desired := int32(1)
	if s.Spec.DesiredCount != nil {
		desired = *s.Spec.DesiredCount
	}
	in := &ecs.CreateServiceInput{
		ServiceName: aws.String(name), Cluster: aws.String(s.Spec.Cluster), TaskDefinition: aws.String(s.Spec.TaskDefinition),
		DesiredCount: aws.Int32(desired), ClientToken: aws.String(string(s.UID)), NetworkConfiguration: network(s),
		LoadBalancers: loadBalancers(s), HealthCheckGracePeriodSeconds: s.Spec.HealthCheckGracePeriodSeconds,
		DeploymentConfiguration: deployment(s), ServiceConnectConfiguration: serviceConnect(s), EnableExecuteCommand: s.Spec.EnableExecuteCommand,
		PropagateTags: propagateTags(s), Tags: ecsutil.TagList(req.Tags),
	}
	if s.Spec.LaunchType != "" {
		in.LaunchType = types.LaunchType(s.Spec.LaunchType)
	}
	if len(s.Spec.CapacityProviderStrategy) > 0 {
		in.CapacityProviderStrategy = ecsutil.Strategy(s.Spec.CapacityProviderStrategy)
	}
	if s.Spec.PlatformVersion != "" {
		in.PlatformVersion = aws.String(s.Spec.PlatformVersion)
	}
	out, err := d.api.CreateService(ctx, in)
	if awserr.Code(err) == "InvalidParameterException" && strings.Contains(err.Error(), "not idempotent") {
		return managed.Terminal(condition.ReasonAlreadyExists, "ECS service %s already exists in cluster %s and is not this object's; choose another serviceName", name, s.Spec.Cluster)
	}
	if err != nil {
		return managed.Wrap(err, "create service %s in cluster %s", name, s.Spec.Cluster)
	}
	managed.SetExternalName(s, name)
	fillStatus(s, *out.Service)
	return nil
}

// checkForeign refuses, before the service is created, a cluster or a target group named by
// name or ARN that the namespace may not write into (managed.CheckForeignWrite, operator flag
// --foreign-write-namespaces): a service runs tasks in its cluster and registers them with its
// target groups. A clusterRef, albRef or nlbRef names an object of the namespace. A cluster's
// tags are read with one DescribeClusters; a target group's are not (they belong to another
// service's API), so one named by ARN counts as not owned.
func (d *driver) checkForeign(ctx context.Context, s *v1alpha1.ECSService) error {
	for _, lb := range s.Spec.LoadBalancers {
		if lb.ALBRef == nil && lb.NLBRef == nil {
			if err := managed.CheckForeignWrite(ctx, s, "target group", lb.TargetGroupARN, nil); err != nil {
				return err
			}
		}
	}
	if s.Spec.ClusterRef != nil {
		return nil
	}
	out, err := d.api.DescribeClusters(ctx, &ecs.DescribeClustersInput{Clusters: []string{s.Spec.Cluster}, Include: []types.ClusterField{types.ClusterFieldTags}})
	if err != nil {
		return managed.Wrap(err, "read the tags of cluster %s", s.Spec.Cluster)
	}
	var tags map[string]string
	if len(out.Clusters) > 0 {
		tags = ecsutil.TagMap(out.Clusters[0].Tags)
	}
	return managed.CheckForeignWrite(ctx, s, "ECS cluster", s.Spec.Cluster, tags)
}
