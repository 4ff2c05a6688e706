// Package ecs emulates Amazon Elastic Container Service over its JSON protocol (awsJson1_1,
// target prefix AmazonEC2ContainerServiceV20141113): clusters with their Container Insights
// setting, capacity providers (FARGATE and FARGATE_SPOT) and default capacity provider
// strategy, Service Connect default namespace and tags; DeleteCluster refuses a cluster with
// active services (ClusterContainsServicesException) or running tasks
// (ClusterContainsTasksException) and leaves it INACTIVE, as DescribeClusters then reports it;
// task definitions (register, describe, list, deregister, delete) kept as registered; and
// services with their tasks and deployments.
//
// A service keeps its load balancers (checked against its task definition's containers and port
// mappings), deployment configuration, health check grace period, Service Connect
// configuration, ECS Exec, tag propagation and platform version. A change of its task
// definition, network configuration, load balancers, platform version, capacity provider
// strategy or Service Connect configuration, or forceNewDeployment, starts a new PRIMARY
// deployment; the former stays ACTIVE until the new one's tasks run, then its tasks stop and it
// goes, and the PRIMARY is COMPLETED. The deployment configuration's percentages are kept and
// returned, not acted on: a deployment's tasks start beside the old ones, which stop once it
// completes. Service events are written as AWS writes them.
//
// No task is real, and each is derived from the simulation clock: a Fargate task is
// PROVISIONING, PENDING and ACTIVATING for a third of the service's transition time each
// (TransitionTime, 1s by default; Options.Transitions["ECS"] changes it), then RUNNING; a task
// stopped by the scheduler runs for the transition time and then is STOPPED, listable for an
// hour (the last 100 of a service). A container image of a private ECR registry that the
// emulated ECR does not hold cannot be pulled: the task stops with TaskFailedToStart when it
// would have run, and ECS starts another; with the circuit breaker on, the deployment FAILS once
// as many tasks have failed as its threshold (half the desired count, 3 to 200), and rolls back
// to the last COMPLETED deployment's task definition when asked to. Without it, launches are
// throttled after 200 failures (doubling delays up to 15 minutes). There are no container
// instances, so the tasks of an EC2 service are never placed. Tasks cannot be run directly,
// and capacity providers of Auto Scaling groups, container instances, task sets and account
// settings are not emulated. A Service Connect namespace given by name stands for the Cloud
// Map HTTP namespace AWS would create: the emulator gives it an ARN of its own (Cloud Map is
// not emulated), and takes namespace ARNs as they are.
package ecs

import (
	"regexp"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// TransitionTime is how long a service's tasks take by default, on the simulation clock, to go
// from PROVISIONING to RUNNING, or to stop after the service scales in or is deleted.
const TransitionTime = time.Second

// Backend holds the ECS resources of every account and region.
type Backend struct {
	clock   *core.Clock
	network core.Network
	images  Registry
	state   *core.Backend[*region]
	tags    *core.Tags // by resource ARN
}

// region is what one account has in one region: clusters by name (INACTIVE ones included),
// task definitions by family, and the ARNs of the Service Connect namespaces named so far.
type region struct {
	clusters   map[string]*cluster
	families   map[string][]*taskDefinition
	namespaces map[string]string
}

// New returns an empty ECS backend on clock, whose services' subnets and security groups are
// checked against network, and whose tasks pull their ECR images from images.
func New(clock *core.Clock, network core.Network, images Registry) *Backend {
	return &Backend{clock: clock, network: network, images: images, tags: core.NewTags(tagRules), state: core.NewBackend(func(core.Scope) *region {
		return &region{clusters: map[string]*cluster{}, families: map[string][]*taskDefinition{}, namespaces: map[string]string{}}
	})}
}

// Service describes ECS to the router.
func (b *Backend) Service() *core.Service {
	s := core.JSONService("ecs", "ECS", "AmazonEC2ContainerServiceV20141113")
	return s.Declare(TransitionTime, b.dump, b.operations(), b.tagOperations())
}

// invalidParameter is ECS's InvalidParameterException.
func invalidParameter(format string, args ...any) error {
	return core.Errorf("InvalidParameterException", format, args...)
}

// clusterNotFound is AWS's answer to a cluster that does not exist or is INACTIVE.
var clusterNotFound = core.Errorf("ClusterNotFoundException", "Cluster not found.")

// clusterRef matches a cluster ARN; its group is the cluster's name.
var clusterRef = regexp.MustCompile(`^arn:aws[a-z-]*:ecs:[a-z0-9-]+:[0-9]{12}:cluster/([A-Za-z0-9_-]{1,255})$`)

// clusterName returns the name of the cluster a request names by name or ARN, "default" when it
// names none.
func clusterName(ref *string) string {
	s := aws.ToString(ref)
	if m := clusterRef.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	if s == "" {
		return "default"
	}
	return s
}

// activeCluster returns the ACTIVE cluster a request names. The caller holds the backend's mutex.
func (r *region) activeCluster(ref *string) (*cluster, error) {
	c, ok := r.clusters[clusterName(ref)]
	if !ok || c.status != statusActive {
		return nil, clusterNotFound
	}
	return c, nil
}

// withCluster runs f on the ACTIVE cluster a request names by ref in the call's region, holding
// the backend's mutex, and returns f's answer or ClusterNotFoundException.
func withCluster[O any](b *Backend, call *core.Call, ref *string, f func(r *region, c *cluster) (*O, error)) (*O, error) {
	return core.Locked(b.state, call, func(r *region) (*O, error) {
		c, err := r.activeCluster(ref)
		if err != nil {
			return nil, err
		}
		return f(r, c)
	})
}

// dump returns every cluster with its services, for debugging.
func (b *Backend) dump() any {
	out := map[string]any{}
	for scope, r := range b.state.All() {
		for _, c := range r.clusters {
			out[c.arn] = map[string]any{"scope": scope, "cluster": b.full(c, b.clock.Now()), "services": len(c.services)}
		}
	}
	return out
}
