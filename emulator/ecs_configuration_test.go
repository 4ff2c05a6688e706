package emulator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// targetGroup is a target group ARN the services' load balancers name.
const targetGroup = "arn:aws:elasticloadbalancing:us-east-1:000000000000:targetgroup/web/0123456789abcdef"

// TestECSServiceConfiguration creates a service with load balancers, a grace period, a deployment
// configuration with the circuit breaker, Service Connect, ECS Exec and tag propagation, repeats
// the creation with its client token, checks AWS's refusals of a load balancer's container or
// port and of a grace period without load balancers, and changes the settings with
// UpdateService: settings alone keep the deployment, a load balancer change or
// forceNewDeployment starts one.
func TestECSServiceConfiguration(t *testing.T) {
	env := newDeploymentEnv(t)
	ctx := context.Background()
	task := env.webTask(t, "web", "nginx:1.27")
	in := &ecs.CreateServiceInput{Cluster: aws.String("apps"), ServiceName: aws.String("web"), TaskDefinition: aws.String(task),
		DesiredCount: aws.Int32(1), LaunchType: types.LaunchTypeFargate, NetworkConfiguration: env.awsvpc(), ClientToken: aws.String("token-1"),
		LoadBalancers:                 []types.LoadBalancer{{TargetGroupArn: aws.String(targetGroup), ContainerName: aws.String("web"), ContainerPort: aws.Int32(8080)}},
		HealthCheckGracePeriodSeconds: aws.Int32(30), EnableExecuteCommand: true, PropagateTags: types.PropagateTagsService, PlatformVersion: aws.String("1.4.0"),
		DeploymentConfiguration: &types.DeploymentConfiguration{MaximumPercent: aws.Int32(150), MinimumHealthyPercent: aws.Int32(50),
			DeploymentCircuitBreaker: &types.DeploymentCircuitBreaker{Enable: true, Rollback: true}},
		ServiceConnectConfiguration: &types.ServiceConnectConfiguration{Enabled: true, Namespace: aws.String("apps.local"),
			Services: []types.ServiceConnectService{{PortName: aws.String("http"), ClientAliases: []types.ServiceConnectClientAlias{{Port: aws.Int32(80)}}}}},
		Tags: []types.Tag{{Key: aws.String("app"), Value: aws.String("web")}}}
	out, err := env.ecs.CreateService(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	s := out.Service
	if len(s.LoadBalancers) != 1 || aws.ToInt32(s.HealthCheckGracePeriodSeconds) != 30 || !s.EnableExecuteCommand || s.PropagateTags != types.PropagateTagsService ||
		aws.ToInt32(s.DeploymentConfiguration.MaximumPercent) != 150 || !s.DeploymentConfiguration.DeploymentCircuitBreaker.Rollback ||
		aws.ToString(s.PlatformVersion) != "1.4.0" || !strings.HasPrefix(aws.ToString(s.Deployments[0].ServiceConnectConfiguration.Namespace), "arn:aws:servicediscovery:") {
		t.Fatalf("created service: %+v", s)
	}
	again, err := env.ecs.CreateService(ctx, in)
	if err != nil || aws.ToString(again.Service.Deployments[0].Id) != aws.ToString(s.Deployments[0].Id) {
		t.Fatalf("create again with the same client token: %+v, %v", again, err)
	}
	in.DesiredCount = aws.Int32(3)
	_, err = env.ecs.CreateService(ctx, in)
	wantCode(t, "same token, other parameters", err, "InvalidParameterException")
	env.e.Clock.Advance(ecsTransition)
	tasks, err := env.ecs.DescribeTasks(ctx, &ecs.DescribeTasksInput{Cluster: aws.String("apps"), Tasks: []string{aws.ToString(env.tasks(t, "web", "")[0].TaskArn)},
		Include: []types.TaskField{types.TaskFieldTags}})
	if err != nil || len(tasks.Tasks[0].Tags) != 1 || !tasks.Tasks[0].EnableExecuteCommand {
		t.Errorf("a task propagates the service's tags: %+v, %v", tasks, err)
	}

	if _, err := env.ecs.TagResource(ctx, &ecs.TagResourceInput{ResourceArn: s.ServiceArn, Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.ecs.UntagResource(ctx, &ecs.UntagResourceInput{ResourceArn: s.ServiceArn, TagKeys: []string{"app"}}); err != nil {
		t.Fatal(err)
	}
	if tags, err := env.ecs.ListTagsForResource(ctx, &ecs.ListTagsForResourceInput{ResourceArn: s.ServiceArn}); err != nil || len(tags.Tags) != 1 || aws.ToString(tags.Tags[0].Key) != "env" {
		t.Errorf("service tags: %+v, %v", tags, err)
	}
	for _, tc := range []struct {
		name string
		in   ecs.UpdateServiceInput
	}{
		{"unknown container", ecs.UpdateServiceInput{LoadBalancers: []types.LoadBalancer{{TargetGroupArn: aws.String(targetGroup), ContainerName: aws.String("api"), ContainerPort: aws.Int32(8080)}}}},
		{"port not mapped", ecs.UpdateServiceInput{LoadBalancers: []types.LoadBalancer{{TargetGroupArn: aws.String(targetGroup), ContainerName: aws.String("web"), ContainerPort: aws.Int32(80)}}}},
		{"grace period without load balancers", ecs.UpdateServiceInput{LoadBalancers: []types.LoadBalancer{}, HealthCheckGracePeriodSeconds: aws.Int32(10)}},
		{"minimum healthy above 100", ecs.UpdateServiceInput{DeploymentConfiguration: &types.DeploymentConfiguration{MinimumHealthyPercent: aws.Int32(101)}}},
	} {
		tc.in.Cluster, tc.in.Service = aws.String("apps"), aws.String("web")
		_, err := env.ecs.UpdateService(ctx, &tc.in)
		wantCode(t, tc.name, err, "InvalidParameterException")
	}
	deployment := aws.ToString(env.service(t, "web").Deployments[0].Id)
	up, err := env.ecs.UpdateService(ctx, &ecs.UpdateServiceInput{Cluster: aws.String("apps"), Service: aws.String("web"), EnableExecuteCommand: aws.Bool(false),
		HealthCheckGracePeriodSeconds: aws.Int32(60), DeploymentConfiguration: &types.DeploymentConfiguration{DeploymentCircuitBreaker: &types.DeploymentCircuitBreaker{Enable: true}}})
	if err != nil || len(up.Service.Deployments) != 1 || aws.ToString(up.Service.Deployments[0].Id) != deployment || up.Service.EnableExecuteCommand ||
		aws.ToInt32(up.Service.HealthCheckGracePeriodSeconds) != 60 || aws.ToInt32(up.Service.DeploymentConfiguration.MaximumPercent) != 150 ||
		up.Service.DeploymentConfiguration.DeploymentCircuitBreaker.Rollback {
		t.Fatalf("settings changed in place: %+v, %v", up, err)
	}
	up, err = env.ecs.UpdateService(ctx, &ecs.UpdateServiceInput{Cluster: aws.String("apps"), Service: aws.String("web"), LoadBalancers: []types.LoadBalancer{}})
	if err != nil || len(up.Service.Deployments) != 2 || up.Service.HealthCheckGracePeriodSeconds != nil || len(up.Service.LoadBalancers) != 0 {
		t.Fatalf("load balancers removed: %+v, %v", up, err)
	}
	env.e.Clock.Advance(ecsTransition)
	up, err = env.ecs.UpdateService(ctx, &ecs.UpdateServiceInput{Cluster: aws.String("apps"), Service: aws.String("web"), ForceNewDeployment: true})
	if err != nil || len(up.Service.Deployments) != 2 || up.Service.Deployments[1].RolloutState != types.DeploymentRolloutStateCompleted {
		t.Fatalf("forced deployment: %+v, %v", up, err)
	}
	_, err = env.ecs.CreateService(ctx, &ecs.CreateServiceInput{Cluster: aws.String("apps"), ServiceName: aws.String("api"), TaskDefinition: aws.String(task),
		LaunchType: types.LaunchTypeFargate, NetworkConfiguration: env.awsvpc(), HealthCheckGracePeriodSeconds: aws.Int32(5)})
	wantCode(t, "grace period without load balancers", err, "InvalidParameterException")
}

// TestECSTaskDefinitionListAndDelete registers revisions of two families with everything a task
// definition holds, describes one back as registered, lists them by prefix, status and order by
// pages (a family prefix names a whole family, as AWS's documentation says), and deletes an INACTIVE revision while an ACTIVE one is refused.
func TestECSTaskDefinitionListAndDelete(t *testing.T) {
	env := newECSEnv(t, emulator.Options{})
	ctx := context.Background()
	container := types.ContainerDefinition{Name: aws.String("web"), Image: aws.String("nginx:1.27"), Essential: aws.Bool(true),
		PortMappings: []types.PortMapping{{ContainerPort: aws.Int32(8080), Protocol: types.TransportProtocolTcp, Name: aws.String("http")}},
		Environment:  []types.KeyValuePair{{Name: aws.String("MODE"), Value: aws.String("prod")}},
		Secrets:      []types.Secret{{Name: aws.String("TOKEN"), ValueFrom: aws.String("arn:aws:secretsmanager:us-east-1:000000000000:secret:token-AbCdEf")}},
		LogConfiguration: &types.LogConfiguration{LogDriver: types.LogDriverAwslogs,
			Options: map[string]string{"awslogs-group": "/ecs/web", "awslogs-region": "us-east-1", "awslogs-stream-prefix": "web"}}}
	for _, family := range []string{"web", "web", "web-worker", "api"} {
		if _, err := env.ecs.RegisterTaskDefinition(ctx, &ecs.RegisterTaskDefinitionInput{Family: aws.String(family), ContainerDefinitions: []types.ContainerDefinition{container},
			RequiresCompatibilities: []types.Compatibility{types.CompatibilityFargate}, NetworkMode: types.NetworkModeAwsvpc, Cpu: aws.String("512"), Memory: aws.String("1024"),
			TaskRoleArn: aws.String("arn:aws:iam::000000000000:role/web"), ExecutionRoleArn: aws.String("arn:aws:iam::000000000000:role/exec"),
			Tags: []types.Tag{{Key: aws.String("app"), Value: aws.String(family)}}}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := env.ecs.DescribeTaskDefinition(ctx, &ecs.DescribeTaskDefinitionInput{TaskDefinition: aws.String("web:2"), Include: []types.TaskDefinitionField{types.TaskDefinitionFieldTags}})
	if err != nil {
		t.Fatal(err)
	}
	c := got.TaskDefinition.ContainerDefinitions[0]
	if aws.ToString(c.PortMappings[0].Name) != "http" || aws.ToString(c.Environment[0].Value) != "prod" || aws.ToString(c.Secrets[0].Name) != "TOKEN" ||
		c.LogConfiguration.Options["awslogs-group"] != "/ecs/web" || aws.ToString(got.TaskDefinition.TaskRoleArn) != "arn:aws:iam::000000000000:role/web" ||
		aws.ToString(got.TaskDefinition.ExecutionRoleArn) != "arn:aws:iam::000000000000:role/exec" || aws.ToString(got.TaskDefinition.Cpu) != "512" ||
		got.TaskDefinition.RequiresCompatibilities[0] != types.CompatibilityFargate || len(got.Tags) != 1 {
		t.Fatalf("described task definition: %+v", got)
	}
	if _, err := env.ecs.DeregisterTaskDefinition(ctx, &ecs.DeregisterTaskDefinitionInput{TaskDefinition: aws.String("web:1")}); err != nil {
		t.Fatal(err)
	}
	list := func(in ecs.ListTaskDefinitionsInput) string {
		t.Helper()
		var arns []string
		for p := ecs.NewListTaskDefinitionsPaginator(env.ecs, &in); p.HasMorePages(); {
			page, err := p.NextPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, arn := range page.TaskDefinitionArns {
				arns = append(arns, arn[strings.LastIndex(arn, "/")+1:])
			}
		}
		return strings.Join(arns, ",")
	}
	for _, tc := range []struct {
		in   ecs.ListTaskDefinitionsInput
		want string
	}{
		{ecs.ListTaskDefinitionsInput{}, "api:1,web:2,web-worker:1"},
		{ecs.ListTaskDefinitionsInput{FamilyPrefix: aws.String("web"), MaxResults: aws.Int32(1)}, "web:2"},
		{ecs.ListTaskDefinitionsInput{Sort: types.SortOrderDesc, MaxResults: aws.Int32(2)}, "web-worker:1,web:2,api:1"},
		{ecs.ListTaskDefinitionsInput{Status: types.TaskDefinitionStatusInactive}, "web:1"},
	} {
		if got := list(tc.in); got != tc.want {
			t.Errorf("list %+v: %s, want %s", tc.in, got, tc.want)
		}
	}
	del, err := env.ecs.DeleteTaskDefinitions(ctx, &ecs.DeleteTaskDefinitionsInput{TaskDefinitions: []string{"web:1", "web:2", "nope:1"}})
	if err != nil || len(del.TaskDefinitions) != 1 || del.TaskDefinitions[0].Status != types.TaskDefinitionStatusDeleteInProgress || len(del.Failures) != 2 {
		t.Fatalf("delete: %+v, %v", del, err)
	}
	if got := list(ecs.ListTaskDefinitionsInput{Status: types.TaskDefinitionStatusDeleteInProgress}); got != "web:1" {
		t.Errorf("deleting revisions: %s", got)
	}
}
