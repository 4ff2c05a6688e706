package ecsservice

import (
	"context"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// maxReasons bounds how many distinct stopped tasks' reasons a failure names.
const maxReasons = 3

// noteFailure records in the status a deployment of svc that the circuit breaker stopped
// (see failedDeployment), the first time it is seen, with ECS's reason and the reasons of the
// service's stopped tasks. A spec changed since the failure was reported (req.StalledBefore)
// lets the revision be deployed again.
func (d *driver) noteFailure(ctx context.Context, s *v1alpha1.ECSService, svc types.Service, seen []v1alpha1.ECSDeploymentStatus, req managed.Request) error {
	if f := s.Status.FailedDeployment; f != nil && req.StalledBefore == condition.ReasonDeploymentFailed {
		f.Retrying = true
	}
	dep, failed, ok := failedDeployment(svc, seen, s.Spec.TaskDefinition)
	if !ok {
		return nil
	}
	if f := s.Status.FailedDeployment; f != nil && f.DeploymentID == aws.ToString(dep.Id) {
		return nil
	}
	reason := aws.ToString(dep.RolloutStateReason)
	stopped, err := d.stoppedReasons(ctx, svc)
	if err != nil {
		return err
	}
	if len(stopped) > 0 {
		reason += "; stopped tasks: " + strings.Join(stopped, "; ")
	}
	s.Status.FailedDeployment = &v1alpha1.ECSFailedDeployment{DeploymentID: aws.ToString(dep.Id), TaskDefinition: failed, Reason: reason}
	return nil
}

// failedDeployment returns the deployment of svc that tells of a failure, and the revision that
// failed: a deployment the circuit breaker stopped (rollout state FAILED), or one of the
// revision the spec asks for (want) that the object saw before (seen, the deployments of the
// last pass or of its own UpdateService) and that is gone while the service runs another
// revision: ECS rolled it back. Its reason is then the newest service event that names it.
func failedDeployment(svc types.Service, seen []v1alpha1.ECSDeploymentStatus, want string) (types.Deployment, string, bool) {
	for _, d := range svc.Deployments {
		if d.RolloutState == types.DeploymentRolloutStateFailed {
			return d, aws.ToString(d.TaskDefinition), true
		}
	}
	if sameRevision(aws.ToString(svc.TaskDefinition), want) {
		return types.Deployment{}, "", false
	}
	for _, old := range seen {
		gone := !slices.ContainsFunc(svc.Deployments, func(d types.Deployment) bool { return aws.ToString(d.Id) == old.ID })
		if !gone || !sameRevision(old.TaskDefinition, want) {
			continue
		}
		reason := "the deployment is gone and ECS runs " + aws.ToString(svc.TaskDefinition) + " again"
		for _, e := range svc.Events {
			if strings.Contains(aws.ToString(e.Message), old.ID) {
				reason = aws.ToString(e.Message)
				break
			}
		}
		return types.Deployment{Id: aws.String(old.ID), RolloutStateReason: aws.String(reason)}, old.TaskDefinition, true
	}
	return types.Deployment{}, "", false
}

// stoppedReasons returns the distinct reasons, at most maxReasons, of the service's recently
// stopped tasks, with one ListTasks and one DescribeTasks.
func (d *driver) stoppedReasons(ctx context.Context, svc types.Service) ([]string, error) {
	list, err := d.api.ListTasks(ctx, &ecs.ListTasksInput{Cluster: svc.ClusterArn, ServiceName: svc.ServiceName,
		DesiredStatus: types.DesiredStatusStopped, MaxResults: aws.Int32(10)})
	if err != nil {
		return nil, managed.Wrap(err, "list the stopped tasks of service %s", aws.ToString(svc.ServiceName))
	}
	if len(list.TaskArns) == 0 {
		return nil, nil
	}
	tasks, err := d.api.DescribeTasks(ctx, &ecs.DescribeTasksInput{Cluster: svc.ClusterArn, Tasks: list.TaskArns})
	if err != nil {
		return nil, managed.Wrap(err, "describe the stopped tasks of service %s", aws.ToString(svc.ServiceName))
	}
	var reasons []string
	for _, t := range tasks.Tasks {
		r := aws.ToString(t.StoppedReason)
		if r != "" && !slices.Contains(reasons, r) && len(reasons) < maxReasons {
			reasons = append(reasons, r)
		}
	}
	return reasons, nil
}
