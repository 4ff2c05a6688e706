package ecs

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// notIdempotent is AWS's answer to a service name in use, unless the request repeats the
// clientToken and the parameters of the request that created it.
var notIdempotent = invalidParameter("Creation of service was not idempotent.")

// createService creates a service in a cluster, with its launch type or capacity provider
// strategy (the cluster's default strategy when it gives neither and the cluster has one, else
// the EC2 launch type), and starts its first deployment. A request that repeats the clientToken
// and parameters of the one that created an existing service answers that service.
func (b *Backend) createService(call *core.Call, in *ecs.CreateServiceInput) (*ecs.CreateServiceOutput, error) {
	name := aws.ToString(in.ServiceName)
	if !serviceNamePattern.MatchString(name) {
		return nil, invalidParameter("Service name can only contain letters, numbers, hyphens and underscores, and be 1 to 255 characters long.")
	}
	if in.LaunchType != "" && len(in.CapacityProviderStrategy) > 0 {
		return nil, invalidParameter("Specifying both a launch type and capacity provider strategy is not supported. Remove one and try again.")
	}
	desired := aws.ToInt32(in.DesiredCount)
	if desired < 0 {
		return nil, invalidParameter("Desired count must be 0 or more.")
	}
	tags, err := core.RequestTags(tagRules, in.Tags, core.TagPair[types.Tag])
	if err != nil {
		return nil, err
	}
	request, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("ecs: record the CreateService request: %w", err)
	}
	config, err := deploymentConfiguration(in.DeploymentConfiguration, nil)
	if err != nil {
		return nil, err
	}
	grace, err := gracePeriod(in.HealthCheckGracePeriodSeconds, nil, in.LoadBalancers)
	if err != nil {
		return nil, err
	}
	return withCluster(b, call, in.Cluster, func(r *region, c *cluster) (*ecs.CreateServiceOutput, error) {
		if s, ok := c.services[name]; ok {
			if s.settle(call.Now); s.status != statusInactive {
				if in.ClientToken != nil && aws.ToString(in.ClientToken) == s.clientToken && string(request) == s.request {
					return &ecs.CreateServiceOutput{Service: ptr(b.describe(s, call.Now, true))}, nil
				}
				return nil, notIdempotent
			}
		}
		t, err := r.usableTaskDefinition(in.TaskDefinition)
		if err != nil {
			return nil, err
		}
		s := &service{name: name, arn: call.Scope().ARN("ecs", "service/"+c.name+"/"+name), clusterARN: c.arn, status: statusActive,
			taskDefinition: t, launchType: in.LaunchType, strategy: slices.Clone(in.CapacityProviderStrategy), network: in.NetworkConfiguration,
			scheduling: in.SchedulingStrategy, created: call.Now, desired: desired, transition: call.Transition, images: b.images,
			platformVersion: aws.ToString(in.PlatformVersion), loadBalancers: slices.Clone(in.LoadBalancers), config: config, gracePeriod: grace,
			executeCommand: in.EnableExecuteCommand, managedTags: in.EnableECSManagedTags, propagateTags: in.PropagateTags,
			placementConstraints: slices.Clone(in.PlacementConstraints), placementStrategy: slices.Clone(in.PlacementStrategy),
			registries: slices.Clone(in.ServiceRegistries), clientToken: aws.ToString(in.ClientToken), request: string(request)}
		if s.scheduling == "" {
			s.scheduling = types.SchedulingStrategyReplica
		}
		switch {
		case len(s.strategy) > 0:
			if err := checkStrategy(s.strategy, c.providers); err != nil {
				return nil, err
			}
		case s.launchType == "" && len(c.strategy) > 0:
			s.strategy = slices.Clone(c.strategy)
		case s.launchType == "":
			s.launchType = types.LaunchTypeEc2
		}
		if err := b.checkTaskPlacement(call, s, t, in.NetworkConfiguration); err != nil {
			return nil, err
		}
		if s.serviceConnect, err = r.serviceConnect(call, c, in.ServiceConnectConfiguration); err != nil {
			return nil, err
		}
		if err := b.tags.Replace(s.arn, tags); err != nil {
			return nil, err
		}
		s.startDeployment(call.Now, "")
		if !s.placeable() && desired > 0 {
			s.event(call.Now, "was unable to place a task because no container instance met all of its requirements. Reason: No Container Instances were found in your cluster. "+
				"For more information, see the Troubleshooting section of the Amazon ECS Developer Guide.")
		}
		s.reconcile(call.Now)
		c.services[name] = s
		return &ecs.CreateServiceOutput{Service: ptr(b.describe(s, call.Now, true))}, nil
	})
}

// checkTaskPlacement returns the InvalidParameterException AWS gives a service whose task
// definition cannot run on its launch type or scheduling strategy, whose network configuration
// does not fit the task definition, or whose load balancers name a container or port the task
// definition does not have.
func (b *Backend) checkTaskPlacement(call *core.Call, s *service, t *taskDefinition, network *types.NetworkConfiguration) error {
	if s.kind() == fargate && !t.fargate() {
		return invalidParameter("Task definition does not support launch_type FARGATE.")
	}
	if s.kind() == fargate && s.scheduling == types.SchedulingStrategyDaemon {
		return invalidParameter("The DAEMON scheduling strategy is not supported with the FARGATE launch type.")
	}
	if err := b.checkNetwork(call, t, network); err != nil {
		return err
	}
	return checkLoadBalancers(s.loadBalancers, t)
}

// serviceConnect returns a service's Service Connect configuration with its namespace as an ARN
// (the cluster's default namespace when it names none), or nil when the request gives none.
func (r *region) serviceConnect(call *core.Call, c *cluster, in *types.ServiceConnectConfiguration) (*types.ServiceConnectConfiguration, error) {
	if in == nil {
		return nil, nil
	}
	out := *in
	if out.Enabled && aws.ToString(out.Namespace) == "" {
		if c.namespace == "" {
			return nil, invalidParameter("Service Connect requires a namespace: set one in the service's configuration or as the cluster's default.")
		}
		out.Namespace = aws.String(c.namespace)
		return &out, nil
	}
	ns, err := r.namespace(call, out.Namespace)
	if err != nil {
		return nil, err
	}
	if ns != "" {
		out.Namespace = aws.String(ns)
	}
	return &out, nil
}

// updateService changes an ACTIVE service. A change of its task definition, network
// configuration, load balancers, platform version, capacity provider strategy or Service
// Connect configuration, or forceNewDeployment, starts a new deployment; the desired count and
// the other settings change in place.
func (b *Backend) updateService(call *core.Call, in *ecs.UpdateServiceInput) (*ecs.UpdateServiceOutput, error) {
	if in.DesiredCount != nil && *in.DesiredCount < 0 {
		return nil, invalidParameter("Desired count must be 0 or more.")
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.UpdateServiceOutput, error) {
		s, err := r.activeService(call, in.Cluster, in.Service)
		if err != nil {
			return nil, err
		}
		next := *s
		if in.TaskDefinition != nil {
			if next.taskDefinition, err = r.usableTaskDefinition(in.TaskDefinition); err != nil {
				return nil, err
			}
		}
		if err := b.changeService(call, r, &next, in); err != nil {
			return nil, err
		}
		redeploy := in.ForceNewDeployment || next.taskDefinition != s.taskDefinition || next.platformVersion != s.platformVersion ||
			!reflect.DeepEqual(next.network, s.network) || !reflect.DeepEqual(next.loadBalancers, s.loadBalancers) ||
			!reflect.DeepEqual(next.strategy, s.strategy) || !reflect.DeepEqual(next.serviceConnect, s.serviceConnect)
		*s = next
		s.transition = call.Transition
		if redeploy {
			s.startDeployment(call.Now, "")
		}
		s.reconcile(call.Now)
		return &ecs.UpdateServiceOutput{Service: ptr(b.describe(s, call.Now, false))}, nil
	})
}

// changeService applies an UpdateService request's changes other than the task definition to
// next, a copy of the service, and checks the result as CreateService would.
func (b *Backend) changeService(call *core.Call, r *region, next *service, in *ecs.UpdateServiceInput) error {
	c, err := r.activeCluster(in.Cluster)
	if err != nil {
		return err
	}
	if in.DesiredCount != nil {
		next.desired = *in.DesiredCount
	}
	if in.CapacityProviderStrategy != nil {
		if err := checkStrategy(in.CapacityProviderStrategy, c.providers); err != nil {
			return err
		}
		next.strategy, next.launchType = slices.Clone(in.CapacityProviderStrategy), ""
		if len(next.strategy) == 0 {
			next.launchType = types.LaunchTypeEc2
		}
	}
	if in.NetworkConfiguration != nil {
		next.network = in.NetworkConfiguration
	}
	if in.LoadBalancers != nil {
		next.loadBalancers = slices.Clone(in.LoadBalancers)
	}
	if in.PlatformVersion != nil {
		next.platformVersion = *in.PlatformVersion
	}
	if next.config, err = deploymentConfiguration(in.DeploymentConfiguration, &next.config); err != nil {
		return err
	}
	if next.gracePeriod, err = gracePeriod(in.HealthCheckGracePeriodSeconds, next.gracePeriod, next.loadBalancers); err != nil {
		return err
	}
	if in.ServiceConnectConfiguration != nil {
		if next.serviceConnect, err = r.serviceConnect(call, c, in.ServiceConnectConfiguration); err != nil {
			return err
		}
	}
	if in.EnableExecuteCommand != nil {
		next.executeCommand = *in.EnableExecuteCommand
	}
	if in.EnableECSManagedTags != nil {
		next.managedTags = *in.EnableECSManagedTags
	}
	if in.PropagateTags != "" {
		next.propagateTags = in.PropagateTags
	}
	if in.PlacementConstraints != nil {
		next.placementConstraints = slices.Clone(in.PlacementConstraints)
	}
	if in.PlacementStrategy != nil {
		next.placementStrategy = slices.Clone(in.PlacementStrategy)
	}
	if in.ServiceRegistries != nil {
		next.registries = slices.Clone(in.ServiceRegistries)
	}
	return b.checkTaskPlacement(call, next, next.taskDefinition, next.network)
}

// deleteService deletes a service scaled to 0, or any service when forced: its tasks stop after
// the transition, it is DRAINING until they have, then INACTIVE.
func (b *Backend) deleteService(call *core.Call, in *ecs.DeleteServiceInput) (*ecs.DeleteServiceOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ecs.DeleteServiceOutput, error) {
		s, err := r.activeService(call, in.Cluster, in.Service)
		if err != nil {
			return nil, err
		}
		if s.desired > 0 && !aws.ToBool(in.Force) && s.scheduling == types.SchedulingStrategyReplica {
			return nil, invalidParameter("The service cannot be stopped while it is scaled above 0.")
		}
		s.desired, s.status, s.transition = 0, statusDraining, call.Transition
		s.stopTasks(call.Now, call.Now.Add(call.Transition), "", "Scaling activity initiated by (deployment "+s.primary().id+")")
		return &ecs.DeleteServiceOutput{Service: ptr(b.describe(s, call.Now, false))}, nil
	})
}
