package ecs

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// service is one ECS service and the tasks it keeps, counted on the simulation clock.
type service struct {
	name, arn, clusterARN, deploymentID string
	status                              string
	taskDefinition                      *taskDefinition
	launchType                          types.LaunchType
	strategy                            []types.CapacityProviderStrategyItem
	network                             *types.NetworkConfiguration
	scheduling                          types.SchedulingStrategy
	created                             time.Time
	// desired is the desired count; from is how many tasks ran when it last changed, at
	// changed, and the change takes transition.
	desired, from int32
	changed       time.Time
	transition    time.Duration
}

// serviceNamePattern is the form of a service name: up to 255 letters, digits, hyphens and
// underscores.
var serviceNamePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,255}$`)

// serviceRef matches a service ARN, in the long form with the cluster's name or the short one;
// its group is the service's name.
var serviceRef = regexp.MustCompile(`^arn:aws[a-z-]*:ecs:[a-z0-9-]+:[0-9]{12}:service/(?:[A-Za-z0-9_-]+/)?([A-Za-z0-9_-]{1,255})$`)

// serviceName returns the name of the service a request names by name or ARN.
func serviceName(ref *string) string {
	s := aws.ToString(ref)
	if m := serviceRef.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return s
}

// kind returns the launch type the service's tasks count under: FARGATE for a Fargate launch
// type or a strategy of Fargate capacity providers, EC2 otherwise.
func (s *service) kind() string {
	if s.launchType == types.LaunchTypeFargate || len(s.strategy) > 0 {
		return fargate
	}
	return ec2
}

// placeable reports whether the service's tasks can be placed at all: only on Fargate, as the
// emulator has no container instances, and not for the DAEMON strategy, which runs a task on
// each container instance.
func (s *service) placeable() bool {
	return s.kind() == fargate && s.scheduling != types.SchedulingStrategyDaemon
}

// tasks returns how many of the service's tasks run and how many are pending at now: after a
// change of its desired count, new tasks are pending and stopping ones still run until the
// change's transition has passed.
func (s *service) tasks(now time.Time) (running, pending int32) {
	if !s.placeable() {
		return 0, 0
	}
	if !now.Before(s.changed.Add(s.transition)) {
		return s.desired, 0
	}
	if s.desired > s.from {
		return s.from, s.desired - s.from
	}
	return s.from, 0
}

// scale sets the service's desired count at now; the change takes transition.
func (s *service) scale(desired int32, now time.Time, transition time.Duration) {
	s.from, _ = s.tasks(now)
	s.desired, s.changed, s.transition = desired, now, transition
}

// settle makes a DRAINING service INACTIVE once its tasks have stopped.
func (s *service) settle(now time.Time) {
	if running, _ := s.tasks(now); s.status == statusDraining && running == 0 {
		s.status = statusInactive
	}
}

// describe returns the service as ECS describes it at now.
func (b *Backend) describe(s *service, now time.Time, withTags bool) types.Service {
	s.settle(now)
	running, pending := s.tasks(now)
	rollout := types.DeploymentRolloutStateCompleted
	if running != s.desired || pending > 0 {
		rollout = types.DeploymentRolloutStateInProgress
	}
	out := types.Service{
		ServiceName: aws.String(s.name), ServiceArn: aws.String(s.arn), ClusterArn: aws.String(s.clusterARN), Status: aws.String(s.status),
		DesiredCount: s.desired, RunningCount: running, PendingCount: pending, LaunchType: s.launchType,
		CapacityProviderStrategy: slices.Clone(s.strategy), TaskDefinition: aws.String(s.taskDefinition.arn()),
		NetworkConfiguration: s.network, SchedulingStrategy: s.scheduling, CreatedAt: aws.Time(s.created),
		DeploymentController: &types.DeploymentController{Type: types.DeploymentControllerTypeEcs},
		Deployments: []types.Deployment{{Id: aws.String(s.deploymentID), Status: aws.String("PRIMARY"), TaskDefinition: aws.String(s.taskDefinition.arn()),
			DesiredCount: s.desired, RunningCount: running, PendingCount: pending, LaunchType: s.launchType,
			CapacityProviderStrategy: slices.Clone(s.strategy), NetworkConfiguration: s.network, RolloutState: rollout,
			CreatedAt: aws.Time(s.created), UpdatedAt: aws.Time(s.changed)}},
	}
	if s.kind() == fargate {
		out.PlatformVersion = aws.String("LATEST")
	}
	if withTags {
		out.Tags = core.TagList(b.tags, s.arn, tag)
	}
	return out
}

// serviceNotFound and serviceNotActive are AWS's answers to a service that does not exist and to
// one that is DRAINING or INACTIVE.
var (
	serviceNotFound  = core.Errorf("ServiceNotFoundException", "Service not found.")
	serviceNotActive = core.Errorf("ServiceNotActiveException", "Service was not ACTIVE.")
)

// activeService returns the ACTIVE service a request names in an ACTIVE cluster. The caller
// holds the backend's mutex.
func (r *region) activeService(call *core.Call, clusterRef, ref *string) (*service, error) {
	c, err := r.activeCluster(clusterRef)
	if err != nil {
		return nil, err
	}
	s, ok := c.services[serviceName(ref)]
	if !ok {
		return nil, serviceNotFound
	}
	s.settle(call.Now)
	if s.status != statusActive {
		return nil, serviceNotActive
	}
	return s, nil
}

// usableTaskDefinition returns the ACTIVE task definition revision a request names.
func (r *region) usableTaskDefinition(ref *string) (*taskDefinition, error) {
	t, ok := r.taskDefinitionOf(aws.ToString(ref))
	if !ok {
		return nil, invalidParameter("TaskDefinition not found.")
	}
	if t.def.Status != types.TaskDefinitionStatusActive {
		return nil, invalidParameter("TaskDefinition is inactive")
	}
	return t, nil
}

// checkNetwork returns the InvalidParameterException AWS gives a service whose network
// configuration does not fit its task definition's network mode: awsvpc needs one with 1 to 16
// subnets and at most 5 security groups, all of which exist in one VPC of the emulated EC2;
// other modes take none.
func (b *Backend) checkNetwork(call *core.Call, t *taskDefinition, cfg *types.NetworkConfiguration) error {
	if t.def.NetworkMode != types.NetworkModeAwsvpc {
		if cfg != nil {
			return invalidParameter("Network Configuration is not valid for the given networkMode of this task definition.")
		}
		return nil
	}
	if cfg == nil || cfg.AwsvpcConfiguration == nil {
		return invalidParameter("Network Configuration must be provided when networkMode 'awsvpc' is specified.")
	}
	vpcCfg := cfg.AwsvpcConfiguration
	if n := len(vpcCfg.Subnets); n < 1 || n > 16 {
		return invalidParameter("subnets can not be empty and can have at most 16 elements.")
	}
	if len(vpcCfg.SecurityGroups) > 5 {
		return invalidParameter("securityGroups can have at most 5 elements.")
	}
	vpcs := map[string]bool{}
	for _, id := range vpcCfg.Subnets {
		vpc, _, ok := b.network.Subnet(call.Scope(), id)
		if !ok {
			return invalidParameter("Error retrieving subnet information for [%s]: The subnet ID '%s' does not exist (ErrorCode: InvalidSubnetID.NotFound)", id, id)
		}
		vpcs[vpc] = true
	}
	for _, id := range vpcCfg.SecurityGroups {
		vpc, ok := b.network.SecurityGroup(call.Scope(), id)
		if !ok {
			return invalidParameter("Error retrieving security group information for [%s]: The security group '%s' does not exist (ErrorCode: InvalidGroup.NotFound)", id, id)
		}
		vpcs[vpc] = true
	}
	if len(vpcs) > 1 {
		return invalidParameter("Security groups and subnets must all belong to the same VPC.")
	}
	return nil
}

// createService creates a service in a cluster, with its launch type or capacity provider
// strategy (the cluster's default strategy when it gives neither and the cluster has one, else
// the EC2 launch type).
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
	tags, err := core.RequestTags(tagRules, in.Tags, tagPair)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.CreateServiceOutput, error) {
		c, err := r.activeCluster(in.Cluster)
		if err != nil {
			return nil, err
		}
		t, err := r.usableTaskDefinition(in.TaskDefinition)
		if err != nil {
			return nil, err
		}
		if s, ok := c.services[name]; ok {
			if s.settle(call.Now); s.status != statusInactive {
				return nil, invalidParameter("Creation of service was not idempotent.")
			}
		}
		s := &service{name: name, arn: call.Scope().ARN("ecs", "service/"+c.name+"/"+name), clusterARN: c.arn, status: statusActive,
			deploymentID: fmt.Sprintf("ecs-svc/%019d", rand.Uint64()%1e19), taskDefinition: t, launchType: in.LaunchType,
			strategy: slices.Clone(in.CapacityProviderStrategy), network: in.NetworkConfiguration, scheduling: in.SchedulingStrategy, created: call.Now}
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
		if s.kind() == fargate && !t.fargate() {
			return nil, invalidParameter("Task definition does not support launch_type FARGATE.")
		}
		if s.kind() == fargate && s.scheduling == types.SchedulingStrategyDaemon {
			return nil, invalidParameter("The DAEMON scheduling strategy is not supported with the FARGATE launch type.")
		}
		if err := b.checkNetwork(call, t, in.NetworkConfiguration); err != nil {
			return nil, err
		}
		if err := b.tags.Replace(s.arn, tags); err != nil {
			return nil, err
		}
		s.scale(desired, call.Now, call.Transition)
		c.services[name] = s
		return &ecs.CreateServiceOutput{Service: ptr(b.describe(s, call.Now, true))}, nil
	})
}

// updateService changes an ACTIVE service's desired count or task definition.
func (b *Backend) updateService(call *core.Call, in *ecs.UpdateServiceInput) (*ecs.UpdateServiceOutput, error) {
	if in.DesiredCount != nil && *in.DesiredCount < 0 {
		return nil, invalidParameter("Desired count must be 0 or more.")
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.UpdateServiceOutput, error) {
		s, err := r.activeService(call, in.Cluster, in.Service)
		if err != nil {
			return nil, err
		}
		if in.TaskDefinition != nil {
			t, err := r.usableTaskDefinition(in.TaskDefinition)
			if err != nil {
				return nil, err
			}
			if s.kind() == fargate && !t.fargate() {
				return nil, invalidParameter("Task definition does not support launch_type FARGATE.")
			}
			s.taskDefinition = t
		}
		if in.DesiredCount != nil {
			s.scale(*in.DesiredCount, call.Now, call.Transition)
		}
		return &ecs.UpdateServiceOutput{Service: ptr(b.describe(s, call.Now, false))}, nil
	})
}

// deleteService deletes a service scaled to 0, or any service when forced: it is DRAINING until
// its tasks have stopped, then INACTIVE.
func (b *Backend) deleteService(call *core.Call, in *ecs.DeleteServiceInput) (*ecs.DeleteServiceOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ecs.DeleteServiceOutput, error) {
		s, err := r.activeService(call, in.Cluster, in.Service)
		if err != nil {
			return nil, err
		}
		if s.desired > 0 && !aws.ToBool(in.Force) && s.scheduling == types.SchedulingStrategyReplica {
			return nil, invalidParameter("The service cannot be stopped while it is scaled above 0.")
		}
		s.scale(0, call.Now, call.Transition)
		s.status = statusDraining
		return &ecs.DeleteServiceOutput{Service: ptr(b.describe(s, call.Now, false))}, nil
	})
}

// describeServices describes up to 10 services of a cluster; each it cannot find is a MISSING
// failure.
func (b *Backend) describeServices(call *core.Call, in *ecs.DescribeServicesInput) (*ecs.DescribeServicesOutput, error) {
	if n := len(in.Services); n < 1 || n > 10 {
		return nil, invalidParameter("services can have at most 10 items and cannot be empty.")
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.DescribeServicesOutput, error) {
		c, err := r.activeCluster(in.Cluster)
		if err != nil {
			return nil, err
		}
		out := &ecs.DescribeServicesOutput{Services: []types.Service{}, Failures: []types.Failure{}}
		withTags := slices.Contains(in.Include, types.ServiceFieldTags)
		for _, ref := range in.Services {
			name := serviceName(&ref)
			s, ok := c.services[name]
			if !ok {
				out.Failures = append(out.Failures, types.Failure{Arn: aws.String(call.Scope().ARN("ecs", "service/"+c.name+"/"+name)), Reason: aws.String("MISSING")})
				continue
			}
			out.Services = append(out.Services, b.describe(s, call.Now, withTags))
		}
		return out, nil
	})
}

// listServices lists the ARNs of a cluster's ACTIVE and DRAINING services, by pages of 10 unless
// the request asks for up to 100, filtered by launch type and scheduling strategy.
func (b *Backend) listServices(call *core.Call, in *ecs.ListServicesInput) (*ecs.ListServicesOutput, error) {
	size, err := pageSize(in.MaxResults, 10)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.ListServicesOutput, error) {
		c, err := r.activeCluster(in.Cluster)
		if err != nil {
			return nil, err
		}
		var arns []string
		for _, name := range core.SortedKeys(c.services) {
			s := c.services[name]
			s.settle(call.Now)
			if s.status == statusInactive || (in.LaunchType != "" && in.LaunchType != s.launchType) ||
				(in.SchedulingStrategy != "" && in.SchedulingStrategy != s.scheduling) {
				continue
			}
			arns = append(arns, s.arn)
		}
		page, next, err := paginate(arns, in.NextToken, size)
		if err != nil {
			return nil, err
		}
		return &ecs.ListServicesOutput{ServiceArns: append([]string{}, page...), NextToken: next}, nil
	})
}
