package ecsservice

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/containers/ecsutil"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// plan adds to p one UpdateService for every field of the spec that differs from the service
// (each shown with ECS's value and the spec's), and the calls that bring its tags in line with
// desired. A desired count the spec leaves unset belongs to whoever scales the service and is
// not compared; a namespace, platform version or network the spec leaves unset neither.
func (d *driver) plan(p *managed.Plan, s *v1alpha1.ECSService, svc types.Service, observed, desired map[string]string) {
	in := &ecs.UpdateServiceInput{Cluster: svc.ClusterArn, Service: svc.ServiceName}
	var fields []string
	values := map[string]managed.Values{}
	differ := func(field string, current, want any, differs bool, set func()) {
		if differs {
			fields = append(fields, field)
			values[field] = managed.ValuesOf(current, want)
			set()
		}
	}
	td := aws.ToString(svc.TaskDefinition)
	differ("taskDefinition", td, s.Spec.TaskDefinition, !sameRevision(td, s.Spec.TaskDefinition), func() { in.TaskDefinition = aws.String(s.Spec.TaskDefinition) })
	if n := s.Spec.DesiredCount; n != nil {
		differ("desiredCount", svc.DesiredCount, *n, svc.DesiredCount != *n, func() { in.DesiredCount = n })
	}
	if len(s.Spec.CapacityProviderStrategy) > 0 {
		have, want := ecsutil.StrategyKeys(svc.CapacityProviderStrategy), ecsutil.StrategyKeys(ecsutil.Strategy(s.Spec.CapacityProviderStrategy))
		differ("capacityProviderStrategy", have, want, !managed.SameSet(have, want), func() {
			in.CapacityProviderStrategy, in.ForceNewDeployment = ecsutil.Strategy(s.Spec.CapacityProviderStrategy), true
		})
	}
	if v := s.Spec.PlatformVersion; v != "" {
		differ("platformVersion", aws.ToString(svc.PlatformVersion), v, aws.ToString(svc.PlatformVersion) != v, func() { in.PlatformVersion = aws.String(v) })
	}
	if want := network(s); want != nil {
		have := networkKey(svc.NetworkConfiguration)
		differ("network", have, networkKey(want), have != networkKey(want), func() { in.NetworkConfiguration = want })
	}
	have, want := loadBalancerKeys(svc.LoadBalancers), loadBalancerKeys(loadBalancers(s))
	differ("loadBalancers", have, want, !managed.SameSet(have, want), func() { in.LoadBalancers = loadBalancers(s) })
	if g := s.Spec.HealthCheckGracePeriodSeconds; g != nil {
		current := aws.ToInt32(svc.HealthCheckGracePeriodSeconds)
		differ("healthCheckGracePeriodSeconds", current, *g, current != *g, func() { in.HealthCheckGracePeriodSeconds = g })
	}
	haveDep, wantDep := deploymentKey(svc.DeploymentConfiguration), deploymentKey(deployment(s))
	differ("deployment", haveDep, wantDep, haveDep != wantDep, func() { in.DeploymentConfiguration = deployment(s) })
	if sc := serviceConnect(s); sc != nil {
		named := s.Spec.ServiceConnect.Namespace != ""
		have, want := serviceConnectKey(primaryServiceConnect(svc), named), serviceConnectKey(sc, named)
		differ("serviceConnect", have, want, have != want, func() { in.ServiceConnectConfiguration = sc })
	}
	differ("enableExecuteCommand", svc.EnableExecuteCommand, s.Spec.EnableExecuteCommand, svc.EnableExecuteCommand != s.Spec.EnableExecuteCommand,
		func() { in.EnableExecuteCommand = aws.Bool(s.Spec.EnableExecuteCommand) })
	differ("propagateTags", svc.PropagateTags, propagateTags(s), svc.PropagateTags != propagateTags(s), func() { in.PropagateTags = propagateTags(s) })
	p.AddFieldValues(fields, values, func(ctx context.Context) error {
		out, err := d.api.UpdateService(ctx, in)
		if err != nil {
			return managed.Wrap(err, "update service %s", aws.ToString(svc.ServiceName))
		}
		fillStatus(s, *out.Service)
		return nil
	})
	ecsutil.PlanTags(p, d.api, svc.ServiceArn, "service "+aws.ToString(svc.ServiceName), desired, observed)
}

// primaryServiceConnect returns the Service Connect configuration of the service's primary
// deployment, where ECS reports it, or nil.
func primaryServiceConnect(svc types.Service) *types.ServiceConnectConfiguration {
	for _, dep := range svc.Deployments {
		if aws.ToString(dep.Status) == primary {
			return dep.ServiceConnectConfiguration
		}
	}
	return nil
}
