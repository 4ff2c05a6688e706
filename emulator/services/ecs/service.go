package ecs

import (
	"regexp"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// service is one ECS service: its configuration, its deployments (the PRIMARY first), the tasks
// they started and the events of its rollouts, all moved on along the simulation clock by settle.
type service struct {
	name, arn, clusterARN string
	status                string
	scheduling            types.SchedulingStrategy
	created               time.Time
	desired               int32
	// transition is how long the service's tasks take to start, or to stop once scaled in, as
	// the call that last changed the service said.
	transition time.Duration
	// images tells which container images can be pulled.
	images Registry
	// The configuration new deployments take.
	taskDefinition  *taskDefinition
	launchType      types.LaunchType
	strategy        []types.CapacityProviderStrategyItem
	network         *types.NetworkConfiguration
	platformVersion string
	serviceConnect  *types.ServiceConnectConfiguration
	// The rest of the configuration, stored and returned.
	loadBalancers        []types.LoadBalancer
	config               types.DeploymentConfiguration
	gracePeriod          *int32
	executeCommand       bool
	managedTags          bool
	propagateTags        types.PropagateTags
	placementConstraints []types.PlacementConstraint
	placementStrategy    []types.PlacementStrategy
	registries           []types.ServiceRegistry
	// clientToken and request are CreateService's client token and request (as JSON), which a
	// repeated creation must match.
	clientToken, request string
	// deployments are the service's deployments, the PRIMARY first; completed is the last one
	// that COMPLETED, which the circuit breaker rolls back to.
	deployments []*deployment
	completed   *deployment
	// tasks are the tasks that have not stopped; stopped the last maxStopped that have, for
	// stoppedRetention.
	tasks, stopped []*task
	// events are the service's events, the newest first, at most maxEvents.
	events []types.ServiceEvent
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

// describe returns the service as ECS describes it at now.
func (b *Backend) describe(s *service, now time.Time, withTags bool) types.Service {
	s.settle(now)
	running, pending := s.counts("", now)
	out := types.Service{
		ServiceName: aws.String(s.name), ServiceArn: aws.String(s.arn), ClusterArn: aws.String(s.clusterARN), Status: aws.String(s.status),
		DesiredCount: s.desired, RunningCount: running, PendingCount: pending, LaunchType: s.launchType,
		CapacityProviderStrategy: slices.Clone(s.strategy), TaskDefinition: aws.String(s.taskDefinition.arn()),
		NetworkConfiguration: s.network, SchedulingStrategy: s.scheduling, CreatedAt: aws.Time(s.created),
		DeploymentController:    &types.DeploymentController{Type: types.DeploymentControllerTypeEcs},
		DeploymentConfiguration: ptr(s.config), LoadBalancers: slices.Clone(s.loadBalancers), HealthCheckGracePeriodSeconds: s.gracePeriod,
		EnableExecuteCommand: s.executeCommand, EnableECSManagedTags: s.managedTags, PropagateTags: s.propagateTags,
		PlacementConstraints: slices.Clone(s.placementConstraints), PlacementStrategy: slices.Clone(s.placementStrategy),
		ServiceRegistries: slices.Clone(s.registries), Events: slices.Clone(s.events),
	}
	if out.PropagateTags == "" {
		out.PropagateTags = types.PropagateTagsNone
	}
	for _, d := range s.deployments {
		out.Deployments = append(out.Deployments, s.describeDeployment(d, now))
	}
	if s.kind() == fargate {
		out.PlatformVersion, out.PlatformFamily = aws.String("LATEST"), aws.String("Linux")
		if s.platformVersion != "" {
			out.PlatformVersion = aws.String(s.platformVersion)
		}
	}
	if withTags {
		out.Tags = core.TagList(b.tags, s.arn, core.NewTag[types.Tag])
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

// describeServices describes up to 10 services of a cluster; each it cannot find is a MISSING
// failure.
func (b *Backend) describeServices(call *core.Call, in *ecs.DescribeServicesInput) (*ecs.DescribeServicesOutput, error) {
	if n := len(in.Services); n < 1 || n > 10 {
		return nil, invalidParameter("services can have at most 10 items and cannot be empty.")
	}
	return withCluster(b, call, in.Cluster, func(r *region, c *cluster) (*ecs.DescribeServicesOutput, error) {
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
	return withCluster(b, call, in.Cluster, func(r *region, c *cluster) (*ecs.ListServicesOutput, error) {
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
