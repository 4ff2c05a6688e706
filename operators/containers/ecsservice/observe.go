package ecsservice

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/containers/ecsutil"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// The service statuses and deployment states ECS reports.
const (
	statusActive   = "ACTIVE"
	statusDraining = "DRAINING"
	statusInactive = "INACTIVE"
	primary        = "PRIMARY"
)

// State is what ECS said about a service.
type State struct {
	// Service is DescribeServices' answer, with the service's tags.
	Service types.Service
}

// Observe reads the service with one DescribeServices call (its tags included), claims it when
// its ownership tags name this object, fills the status, and reports it Ready once its only
// deployment has COMPLETED with every desired task running. A deployment the circuit breaker
// stopped is a DeploymentFailed condition naming the stopped tasks' reasons (one ListTasks and
// one DescribeTasks, only when the failure is first seen); the failed revision is not deployed
// again until the spec changes. Otherwise it plans one UpdateService for every difference from
// the spec, and the tag calls.
func (d *driver) Observe(ctx context.Context, s *v1alpha1.ECSService, req managed.Request) (managed.Observation[State], error) {
	name, cl := serviceName(s), cluster(s)
	if cl == "" {
		// Being deleted before its cluster reference was ever resolved: nothing to find.
		return managed.Observation[State]{}, nil
	}
	out, err := d.api.DescribeServices(ctx, &ecs.DescribeServicesInput{Cluster: aws.String(cl), Services: []string{name},
		Include: []types.ServiceField{types.ServiceFieldTags}})
	if awserr.Code(err) == "ClusterNotFoundException" {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, managed.Wrap(err, "describe service %s of cluster %s", name, cl)
	}
	if len(out.Services) == 0 || aws.ToString(out.Services[0].Status) == statusInactive {
		return managed.Observation[State]{}, nil
	}
	st := &State{Service: out.Services[0]}
	tags := ecsutil.TagMap(st.Service.Tags)
	if err := managed.Claim(s, "ECS service", name, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	seen := s.Status.Deployments
	fillStatus(s, st.Service)
	obs := managed.Observation[State]{Exists: true, State: st, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	if status := aws.ToString(st.Service.Status); status != statusActive {
		obs.Busy, obs.Message = true, fmt.Sprintf("service %s is %s", name, status)
		return obs, nil
	}
	if err := d.noteFailure(ctx, s, st.Service, seen, req); err != nil {
		return managed.Observation[State]{}, err
	}
	obs.Ready, obs.Message = steady(st.Service)
	if f := s.Status.FailedDeployment; f != nil && !f.Retrying && sameRevision(f.TaskDefinition, s.Spec.TaskDefinition) {
		obs.Conflict = managed.Terminal(condition.ReasonDeploymentFailed, "deployment %s of %s failed: %s; the service runs %s; "+
			"fix the task definition (its next revision is deployed), or change this spec to deploy the revision again",
			f.DeploymentID, f.TaskDefinition, f.Reason, s.Status.TaskDefinition)
		return obs, nil
	}
	d.plan(&obs.Changes, s, st.Service, tags, req.Tags)
	return obs, nil
}

// steady reports whether the service reached steady state: one deployment, COMPLETED, with
// every desired task running; else what it waits for.
func steady(svc types.Service) (bool, string) {
	if len(svc.Deployments) != 1 {
		return false, fmt.Sprintf("%d deployments are rolling out", len(svc.Deployments))
	}
	dep := svc.Deployments[0]
	if dep.RolloutState != types.DeploymentRolloutStateCompleted || svc.RunningCount != svc.DesiredCount {
		return false, fmt.Sprintf("deployment %s is %s: %d of %d tasks running, %d pending, %d failed", aws.ToString(dep.Id), dep.RolloutState,
			svc.RunningCount, svc.DesiredCount, svc.PendingCount, dep.FailedTasks)
	}
	return true, ""
}

// fillStatus copies what ECS said about the service into the status.
func fillStatus(s *v1alpha1.ECSService, svc types.Service) {
	st := &s.Status
	st.ServiceName, st.ARN, st.ClusterARN = aws.ToString(svc.ServiceName), aws.ToString(svc.ServiceArn), aws.ToString(svc.ClusterArn)
	st.TaskDefinition = aws.ToString(svc.TaskDefinition)
	st.DesiredCount, st.RunningCount, st.PendingCount = svc.DesiredCount, svc.RunningCount, svc.PendingCount
	st.Deployments = nil
	for _, dep := range svc.Deployments {
		st.Deployments = append(st.Deployments, v1alpha1.ECSDeploymentStatus{ID: aws.ToString(dep.Id), Status: aws.ToString(dep.Status),
			TaskDefinition: aws.ToString(dep.TaskDefinition), RolloutState: string(dep.RolloutState), RunningCount: dep.RunningCount,
			DesiredCount: dep.DesiredCount, FailedTasks: dep.FailedTasks})
		if aws.ToString(dep.Status) == primary {
			st.TaskDefinition = aws.ToString(dep.TaskDefinition)
		}
	}
}
