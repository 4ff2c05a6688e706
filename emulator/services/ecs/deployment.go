package ecs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"
)

// The statuses of a service's deployments: the one the service is moving to, and older ones
// whose tasks still run.
const (
	deploymentPrimary = "PRIMARY"
	deploymentActive  = "ACTIVE"
)

// fargatePlatform is the Fargate platform version LATEST stands for.
const fargatePlatform = "1.4.0"

// The circuit breaker's failure threshold: half the desired count, at least 3 and at most 200
// (ServiceDeploymentCircuitBreaker, threshold).
const (
	minThreshold = 3
	maxThreshold = 200
)

// deployment is one of a service's deployments: what its tasks run, and how its rollout went.
type deployment struct {
	id             string
	status         string
	taskDefinition *taskDefinition
	launchType     types.LaunchType
	strategy       []types.CapacityProviderStrategyItem
	network        *types.NetworkConfiguration
	platform       string
	serviceConnect *types.ServiceConnectConfiguration
	created        time.Time
	updated        time.Time
	rollout        types.DeploymentRolloutState
	reason         string
	// failed counts the deployment's tasks that failed to start.
	failed int32
}

// newDeploymentID returns a deployment ID: "ecs-svc/" and 19 digits.
func newDeploymentID() string {
	return fmt.Sprintf("ecs-svc/%019d", rand.Uint64()%1e19)
}

// threshold returns how many tasks of a deployment to desired tasks may fail to start before the
// circuit breaker fails it: half the desired count, at least 3 and at most 200.
func threshold(desired int32) int32 {
	return min(max((desired+1)/2, minThreshold), maxThreshold)
}

// startDeployment makes a new PRIMARY deployment of the service's configuration at now, reason
// its rolloutStateReason ("" for AWS's "ECS deployment ... in progress."). The former PRIMARY
// stays ACTIVE while it has tasks; deployments left without tasks go.
func (s *service) startDeployment(now time.Time, reason string) *deployment {
	d := &deployment{id: newDeploymentID(), status: deploymentPrimary, taskDefinition: s.taskDefinition, launchType: s.launchType,
		strategy: slices.Clone(s.strategy), network: s.network, platform: s.platform(), serviceConnect: s.serviceConnect,
		created: now, updated: now, rollout: types.DeploymentRolloutStateInProgress}
	d.reason = reason
	if reason == "" {
		d.reason = "ECS deployment " + d.id + " in progress."
	}
	kept := []*deployment{d}
	for _, old := range s.deployments {
		old.status = deploymentActive
		if s.live(old.id) > 0 {
			kept = append(kept, old)
		}
	}
	s.deployments = kept
	return d
}

// platform returns the platform version the service's Fargate tasks run: the one it asks for,
// with LATEST resolved; "" for tasks on EC2.
func (s *service) platform() string {
	if s.kind() != fargate {
		return ""
	}
	if s.platformVersion == "" || s.platformVersion == "LATEST" {
		return fargatePlatform
	}
	return s.platformVersion
}

// primary returns the service's PRIMARY deployment.
func (s *service) primary() *deployment { return s.deployments[0] }

// deploymentOf returns the service's deployment of id, or nil once it is gone.
func (s *service) deploymentOf(id string) *deployment {
	for _, d := range s.deployments {
		if d.id == id {
			return d
		}
	}
	return nil
}

// describeDeployment returns a deployment as DescribeServices answers it at now: its desired
// count is the service's for the PRIMARY, its remaining tasks for an older one.
func (s *service) describeDeployment(d *deployment, now time.Time) types.Deployment {
	running, pending := s.counts(d.id, now)
	desired := s.desired
	if d.status != deploymentPrimary {
		desired = s.live(d.id)
	}
	out := types.Deployment{Id: aws.String(d.id), Status: aws.String(d.status), TaskDefinition: aws.String(d.taskDefinition.arn()),
		DesiredCount: desired, RunningCount: running, PendingCount: pending, FailedTasks: d.failed, LaunchType: d.launchType,
		CapacityProviderStrategy: slices.Clone(d.strategy), NetworkConfiguration: d.network, RolloutState: d.rollout,
		RolloutStateReason: aws.String(d.reason), CreatedAt: aws.Time(d.created), UpdatedAt: aws.Time(d.updated),
		ServiceConnectConfiguration: d.serviceConnect}
	if d.platform != "" {
		out.PlatformVersion, out.PlatformFamily = aws.String(d.platform), aws.String("Linux")
	}
	return out
}
