package emulator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// ecsTransition is the ECS transition the deployment tests run with.
const ecsTransition = 9 * time.Second

// webTask registers a Fargate task definition of family whose container "web" runs image and
// listens on port 8080, and returns its ARN.
func (env ecsEnv) webTask(t *testing.T, family, image string) string {
	t.Helper()
	out, err := env.ecs.RegisterTaskDefinition(context.Background(), &ecs.RegisterTaskDefinitionInput{Family: aws.String(family),
		RequiresCompatibilities: []types.Compatibility{types.CompatibilityFargate}, NetworkMode: types.NetworkModeAwsvpc,
		Cpu: aws.String("256"), Memory: aws.String("512"),
		ContainerDefinitions: []types.ContainerDefinition{{Name: aws.String("web"), Image: aws.String(image),
			PortMappings: []types.PortMapping{{ContainerPort: aws.Int32(8080)}}}}})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.TaskDefinition.TaskDefinitionArn)
}

// service describes one service of cluster "apps", failing the test on an error.
func (env ecsEnv) service(t *testing.T, name string) types.Service {
	t.Helper()
	out, err := env.ecs.DescribeServices(context.Background(), &ecs.DescribeServicesInput{Cluster: aws.String("apps"), Services: []string{name}})
	if err != nil || len(out.Services) != 1 {
		t.Fatalf("describe service %s: %+v, %v", name, out, err)
	}
	return out.Services[0]
}

// tasks describes the tasks of service name in cluster "apps" of a desired status.
func (env ecsEnv) tasks(t *testing.T, name string, desired types.DesiredStatus) []types.Task {
	t.Helper()
	ctx := context.Background()
	list, err := env.ecs.ListTasks(ctx, &ecs.ListTasksInput{Cluster: aws.String("apps"), ServiceName: aws.String(name), DesiredStatus: desired})
	if err != nil {
		t.Fatalf("list tasks: %v", err)
	}
	if len(list.TaskArns) == 0 {
		return nil
	}
	out, err := env.ecs.DescribeTasks(ctx, &ecs.DescribeTasksInput{Cluster: aws.String("apps"), Tasks: list.TaskArns})
	if err != nil || len(out.Failures) != 0 {
		t.Fatalf("describe tasks: %+v, %v", out, err)
	}
	return out.Tasks
}

// statuses returns the last statuses of tasks, joined by commas.
func statuses(tasks []types.Task) string {
	var out []string
	for _, k := range tasks {
		out = append(out, aws.ToString(k.LastStatus))
	}
	return strings.Join(out, ",")
}

// createWeb creates the Fargate service "web" of two tasks in cluster "apps" on task, with
// deployment configuration cfg.
func (env ecsEnv) createWeb(t *testing.T, task string, cfg *types.DeploymentConfiguration) types.Service {
	t.Helper()
	out, err := env.ecs.CreateService(context.Background(), &ecs.CreateServiceInput{Cluster: aws.String("apps"), ServiceName: aws.String("web"),
		TaskDefinition: aws.String(task), DesiredCount: aws.Int32(2), LaunchType: types.LaunchTypeFargate, NetworkConfiguration: env.awsvpc(),
		DeploymentConfiguration: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return *out.Service
}

// newDeploymentEnv starts an emulator whose ECS transition is ecsTransition, with cluster "apps".
func newDeploymentEnv(t *testing.T) ecsEnv {
	t.Helper()
	env := newECSEnv(t, emulator.Options{Transitions: map[string]time.Duration{"ECS": ecsTransition}})
	if _, err := env.ecs.CreateCluster(context.Background(), &ecs.CreateClusterInput{ClusterName: aws.String("apps")}); err != nil {
		t.Fatal(err)
	}
	return env
}

// TestECSTaskLifecycleAndRollingDeployment follows a service's tasks through PROVISIONING,
// PENDING, ACTIVATING and RUNNING, its first deployment to COMPLETED with AWS's events, then a
// new task definition's deployment beside the old one until its tasks run, the old tasks
// STOPPED by the scheduler, and a scale-in.
func TestECSTaskLifecycleAndRollingDeployment(t *testing.T) {
	env := newDeploymentEnv(t)
	ctx := context.Background()
	first := env.webTask(t, "web", "public.ecr.aws/nginx/nginx:1.27")
	created := env.createWeb(t, first, nil)
	if len(created.Deployments) != 1 || created.Deployments[0].RolloutState != types.DeploymentRolloutStateInProgress ||
		aws.ToString(created.Deployments[0].RolloutStateReason) != "ECS deployment "+aws.ToString(created.Deployments[0].Id)+" in progress." ||
		!strings.HasPrefix(aws.ToString(created.Deployments[0].Id), "ecs-svc/") {
		t.Fatalf("first deployment: %+v", created.Deployments)
	}
	cfg := created.DeploymentConfiguration
	if aws.ToInt32(cfg.MaximumPercent) != 200 || aws.ToInt32(cfg.MinimumHealthyPercent) != 100 || cfg.DeploymentCircuitBreaker == nil ||
		cfg.DeploymentCircuitBreaker.Enable || created.HealthCheckGracePeriodSeconds != nil {
		t.Errorf("default deployment configuration: %+v, grace %v", cfg, created.HealthCheckGracePeriodSeconds)
	}
	for _, step := range []struct {
		after time.Duration
		want  string
	}{{0, "PROVISIONING,PROVISIONING"}, {3 * time.Second, "PENDING,PENDING"}, {3 * time.Second, "ACTIVATING,ACTIVATING"}, {3 * time.Second, "RUNNING,RUNNING"}} {
		env.e.Clock.Advance(step.after)
		if got := statuses(env.tasks(t, "web", "")); got != step.want {
			t.Fatalf("tasks %s, want %s", got, step.want)
		}
	}
	running := env.tasks(t, "web", types.DesiredStatusRunning)
	k := running[0]
	if !strings.HasPrefix(aws.ToString(k.TaskArn), "arn:aws:ecs:us-east-1:000000000000:task/apps/") || len(strings.TrimPrefix(aws.ToString(k.TaskArn), "arn:aws:ecs:us-east-1:000000000000:task/apps/")) != 32 ||
		aws.ToString(k.Group) != "service:web" || aws.ToString(k.StartedBy) != aws.ToString(created.Deployments[0].Id) ||
		aws.ToString(k.TaskDefinitionArn) != first || k.LaunchType != types.LaunchTypeFargate || aws.ToString(k.Cpu) != "256" || aws.ToString(k.Memory) != "512" ||
		aws.ToString(k.DesiredStatus) != "RUNNING" || len(k.Containers) != 1 || aws.ToString(k.Containers[0].Name) != "web" ||
		aws.ToString(k.Containers[0].Image) != "public.ecr.aws/nginx/nginx:1.27" || k.StartedAt == nil {
		t.Errorf("running task: %+v", k)
	}
	s := env.service(t, "web")
	if s.RunningCount != 2 || s.PendingCount != 0 || s.Deployments[0].RolloutState != types.DeploymentRolloutStateCompleted ||
		aws.ToString(s.Deployments[0].RolloutStateReason) != "ECS deployment "+aws.ToString(s.Deployments[0].Id)+" completed." ||
		len(s.Events) < 3 || aws.ToString(s.Events[0].Message) != "(service web) has reached a steady state." ||
		!strings.HasPrefix(aws.ToString(s.Events[len(s.Events)-1].Message), "(service web) has started 2 tasks: (task ") {
		t.Fatalf("service after its tasks run: %+v", s)
	}

	second := env.webTask(t, "web", "public.ecr.aws/nginx/nginx:1.28")
	up, err := env.ecs.UpdateService(ctx, &ecs.UpdateServiceInput{Cluster: aws.String("apps"), Service: aws.String("web"), TaskDefinition: aws.String(second)})
	if err != nil {
		t.Fatal(err)
	}
	d := up.Service.Deployments
	if len(d) != 2 || aws.ToString(d[0].Status) != "PRIMARY" || aws.ToString(d[0].TaskDefinition) != second || d[0].RolloutState != types.DeploymentRolloutStateInProgress ||
		aws.ToString(d[1].Status) != "ACTIVE" || aws.ToString(d[1].TaskDefinition) != first || d[1].RunningCount != 2 || d[0].PendingCount != 2 ||
		up.Service.RunningCount != 2 || up.Service.PendingCount != 2 {
		t.Fatalf("deployments during the rollout: %+v", d)
	}
	env.e.Clock.Advance(ecsTransition)
	s = env.service(t, "web")
	if len(s.Deployments) != 1 || s.Deployments[0].RolloutState != types.DeploymentRolloutStateCompleted || aws.ToString(s.TaskDefinition) != second || s.RunningCount != 2 {
		t.Fatalf("after the rollout: %+v", s)
	}
	stopped := env.tasks(t, "web", types.DesiredStatusStopped)
	if len(stopped) != 2 || statuses(stopped) != "STOPPED,STOPPED" || stopped[0].StopCode != types.TaskStopCodeServiceSchedulerInitiated ||
		aws.ToString(stopped[0].StoppedReason) != "Scaling activity initiated by (deployment "+aws.ToString(s.Deployments[0].Id)+")" ||
		aws.ToString(stopped[0].TaskDefinitionArn) != first || stopped[0].StoppedAt == nil {
		t.Fatalf("old tasks: %+v", stopped)
	}

	if _, err := env.ecs.UpdateService(ctx, &ecs.UpdateServiceInput{Cluster: aws.String("apps"), Service: aws.String("web"), DesiredCount: aws.Int32(1)}); err != nil {
		t.Fatal(err)
	}
	if got := statuses(env.tasks(t, "web", types.DesiredStatusStopped)); got != "RUNNING,STOPPED,STOPPED" {
		t.Fatalf("a task scaled in runs until the transition has passed: %s", got)
	}
	env.e.Clock.Advance(ecsTransition)
	if got := env.tasks(t, "web", types.DesiredStatusRunning); len(got) != 1 {
		t.Errorf("running after the scale-in: %s", statuses(got))
	}
	missing, err := env.ecs.DescribeTasks(ctx, &ecs.DescribeTasksInput{Cluster: aws.String("apps"), Tasks: []string{"0123456789abcdef0123456789abcdef"}})
	if err != nil || len(missing.Failures) != 1 || aws.ToString(missing.Failures[0].Reason) != "MISSING" ||
		aws.ToString(missing.Failures[0].Arn) != "arn:aws:ecs:us-east-1:000000000000:task/apps/0123456789abcdef0123456789abcdef" {
		t.Errorf("missing task: %+v, %v", missing, err)
	}
	_, err = env.ecs.ListTasks(ctx, &ecs.ListTasksInput{Cluster: aws.String("apps"), ServiceName: aws.String("nope")})
	wantCode(t, "tasks of a missing service", err, "ServiceNotFoundException")
	env.e.Clock.Advance(2 * time.Hour)
	if got := env.tasks(t, "web", types.DesiredStatusStopped); len(got) != 0 {
		t.Errorf("stopped tasks are kept for an hour, still listed after two: %d", len(got))
	}
}

// TestECSCircuitBreakerRollback deploys an image that is missing from the emulated ECR with the
// circuit breaker and rollback on: its tasks fail to start with CannotPullContainerError, the
// deployment FAILS after three failures and ECS rolls back to the last completed task
// definition. Without the circuit breaker the failing deployment stays IN_PROGRESS, and an image
// pushed to ECR can be deployed.
func TestECSCircuitBreakerRollback(t *testing.T) {
	env := newDeploymentEnv(t)
	ctx := context.Background()
	repo, err := env.ecr.CreateRepository(ctx, &ecr.CreateRepositoryInput{RepositoryName: aws.String("shop/web")})
	if err != nil {
		t.Fatal(err)
	}
	uri := aws.ToString(repo.Repository.RepositoryUri)
	text, _ := manifest(t, env.ecr, "shop/web", 1)
	if _, err := env.ecr.PutImage(ctx, &ecr.PutImageInput{RepositoryName: aws.String("shop/web"), ImageManifest: aws.String(text), ImageTag: aws.String("v1")}); err != nil {
		t.Fatal(err)
	}
	good := env.webTask(t, "web", uri+":v1")
	env.createWeb(t, good, &types.DeploymentConfiguration{DeploymentCircuitBreaker: &types.DeploymentCircuitBreaker{Enable: true, Rollback: true}})
	env.e.Clock.Advance(ecsTransition)
	completed := env.service(t, "web").Deployments[0]
	if completed.RolloutState != types.DeploymentRolloutStateCompleted {
		t.Fatalf("image in ECR: %+v", completed)
	}

	bad := env.webTask(t, "web", uri+":v2")
	if _, err := env.ecs.UpdateService(ctx, &ecs.UpdateServiceInput{Cluster: aws.String("apps"), Service: aws.String("web"), TaskDefinition: aws.String(bad)}); err != nil {
		t.Fatal(err)
	}
	env.e.Clock.Advance(ecsTransition)
	s := env.service(t, "web")
	if s.Deployments[0].FailedTasks != 2 || s.Deployments[0].RolloutState != types.DeploymentRolloutStateInProgress || s.RunningCount != 2 {
		t.Fatalf("after two failures (threshold 3): %+v", s.Deployments)
	}
	failed := env.tasks(t, "web", types.DesiredStatusStopped)
	ref := uri + ":v2"
	if len(failed) != 2 || failed[0].StopCode != types.TaskStopCodeTaskFailedToStart ||
		aws.ToString(failed[0].StoppedReason) != "CannotPullContainerError: pull image manifest has been retried 5 time(s): failed to resolve ref "+ref+": "+ref+": not found" ||
		aws.ToString(failed[0].Containers[0].Reason) != aws.ToString(failed[0].StoppedReason) || failed[0].StartedAt != nil {
		t.Fatalf("failed tasks: %+v", failed)
	}
	env.e.Clock.Advance(ecsTransition)
	s = env.service(t, "web")
	if len(s.Deployments) < 2 {
		t.Fatalf("deployments after the circuit breaker: %+v", s.Deployments)
	}
	rollback, broken := s.Deployments[0], s.Deployments[1]
	if broken.RolloutState != types.DeploymentRolloutStateFailed || aws.ToString(broken.RolloutStateReason) != "ECS deployment circuit breaker: tasks failed to start." ||
		aws.ToString(rollback.TaskDefinition) != good || aws.ToString(rollback.Status) != "PRIMARY" ||
		aws.ToString(rollback.RolloutStateReason) != "ECS deployment circuit breaker: rolling back to deploymentId "+aws.ToString(completed.Id)+"." ||
		aws.ToString(s.TaskDefinition) != good {
		t.Fatalf("rollback: %+v", s.Deployments)
	}
	if !strings.Contains(eventText(s), "(service web) rolling back to deployment "+aws.ToString(completed.Id)+".") ||
		!strings.Contains(eventText(s), "(service web) deployment "+aws.ToString(broken.Id)+" deployment failed: tasks failed to start.") {
		t.Errorf("events: %s", eventText(s))
	}
	env.e.Clock.Advance(ecsTransition)
	if s = env.service(t, "web"); len(s.Deployments) != 1 || s.Deployments[0].RolloutState != types.DeploymentRolloutStateCompleted || s.RunningCount != 2 {
		t.Fatalf("after the rollback: %+v", s.Deployments)
	}

	if _, err := env.ecs.UpdateService(ctx, &ecs.UpdateServiceInput{Cluster: aws.String("apps"), Service: aws.String("web"), TaskDefinition: aws.String(bad),
		DeploymentConfiguration: &types.DeploymentConfiguration{DeploymentCircuitBreaker: &types.DeploymentCircuitBreaker{}}}); err != nil {
		t.Fatal(err)
	}
	env.e.Clock.Advance(10 * ecsTransition)
	if s = env.service(t, "web"); s.Deployments[0].RolloutState != types.DeploymentRolloutStateInProgress || s.Deployments[0].FailedTasks != 20 || s.RunningCount != 2 {
		t.Fatalf("without the circuit breaker: %+v", s.Deployments)
	}
	if _, err := env.ecr.PutImage(ctx, &ecr.PutImageInput{RepositoryName: aws.String("shop/web"), ImageManifest: aws.String(text), ImageTag: aws.String("v2")}); err != nil {
		t.Fatal(err)
	}
	env.e.Clock.Advance(2 * ecsTransition)
	if s = env.service(t, "web"); len(s.Deployments) != 1 || s.Deployments[0].RolloutState != types.DeploymentRolloutStateCompleted || aws.ToString(s.TaskDefinition) != bad {
		t.Fatalf("once the image is pushed: %+v", s.Deployments)
	}
}

// eventText returns a service's event messages, one a line.
func eventText(s types.Service) string {
	var out []string
	for _, e := range s.Events {
		out = append(out, aws.ToString(e.Message))
	}
	return strings.Join(out, "\n")
}

// TestECSFailingDeploymentStaysBounded leaves a deployment whose image is missing from ECR
// failing for a day without the circuit breaker: ECS throttles its launches, the service keeps
// at most 100 stopped tasks of the last hour, and an image named by a digest ECR holds deploys.
func TestECSFailingDeploymentStaysBounded(t *testing.T) {
	env := newDeploymentEnv(t)
	ctx := context.Background()
	repo, err := env.ecr.CreateRepository(ctx, &ecr.CreateRepositoryInput{RepositoryName: aws.String("web")})
	if err != nil {
		t.Fatal(err)
	}
	uri := aws.ToString(repo.Repository.RepositoryUri)
	env.createWeb(t, env.webTask(t, "web", uri+":missing"), nil)
	env.e.Clock.Advance(24 * time.Hour)
	s := env.service(t, "web")
	if s.Deployments[0].RolloutState != types.DeploymentRolloutStateInProgress || s.Deployments[0].FailedTasks < 200 || s.Deployments[0].FailedTasks > 1000 {
		t.Fatalf("a day of failures, throttled after 200: %+v", s.Deployments)
	}
	if stopped := env.tasks(t, "web", types.DesiredStatusStopped); len(stopped) == 0 || len(stopped) > 100 {
		t.Errorf("stopped tasks kept: %d", len(stopped))
	}
	text, digest := manifest(t, env.ecr, "web", 2)
	if _, err := env.ecr.PutImage(ctx, &ecr.PutImageInput{RepositoryName: aws.String("web"), ImageManifest: aws.String(text)}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.ecs.UpdateService(ctx, &ecs.UpdateServiceInput{Cluster: aws.String("apps"), Service: aws.String("web"),
		TaskDefinition: aws.String(env.webTask(t, "web", uri+"@"+digest))}); err != nil {
		t.Fatal(err)
	}
	env.e.Clock.Advance(ecsTransition)
	if s = env.service(t, "web"); len(s.Deployments) != 1 || s.Deployments[0].RolloutState != types.DeploymentRolloutStateCompleted || s.RunningCount != 2 {
		t.Fatalf("image by digest: %+v", s.Deployments)
	}
}
