package emulator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// ecsEnv is an emulator with a frozen clock, its ECS and ECR clients, and a subnet and security
// group of one VPC for Fargate services.
type ecsEnv struct {
	e             *emulator.Server
	ecs           *ecs.Client
	ecr           *ecr.Client
	subnet, group string
}

// newECSEnv starts an emulator for ECS tests, with an ECR client of the same account.
func newECSEnv(t *testing.T, opts emulator.Options) ecsEnv {
	t.Helper()
	e, url := start(t, opts)
	frozenOnSecond(e)
	cfg := sdkConfig(t, url, "AKIDECS", 1)
	network := ec2.NewFromConfig(cfg)
	vpc := createVpc(t, network, "10.40.0.0/16")
	return ecsEnv{e: e, ecs: ecs.NewFromConfig(cfg), ecr: ecr.NewFromConfig(cfg), subnet: createSubnet(t, network, vpc, "10.40.1.0/24"), group: createGroup(t, network, vpc, "tasks")}
}

// awsvpc returns the network configuration of the environment's subnet and security group.
func (env ecsEnv) awsvpc() *types.NetworkConfiguration {
	return &types.NetworkConfiguration{AwsvpcConfiguration: &types.AwsVpcConfiguration{Subnets: []string{env.subnet}, SecurityGroups: []string{env.group}}}
}

// fargateTask registers a Fargate task definition of family and returns its ARN.
func (env ecsEnv) fargateTask(t *testing.T, family string) string {
	t.Helper()
	out, err := env.ecs.RegisterTaskDefinition(context.Background(), &ecs.RegisterTaskDefinitionInput{Family: aws.String(family),
		RequiresCompatibilities: []types.Compatibility{types.CompatibilityFargate}, NetworkMode: types.NetworkModeAwsvpc,
		Cpu: aws.String("256"), Memory: aws.String("512"),
		ContainerDefinitions: []types.ContainerDefinition{{Name: aws.String("web"), Image: aws.String("nginx:1.27")}}})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.TaskDefinition.TaskDefinitionArn)
}

// cluster describes one cluster with everything included, failing the test on an error.
func (env ecsEnv) cluster(t *testing.T, name string) types.Cluster {
	t.Helper()
	out, err := env.ecs.DescribeClusters(context.Background(), &ecs.DescribeClustersInput{Clusters: []string{name},
		Include: []types.ClusterField{types.ClusterFieldSettings, types.ClusterFieldStatistics, types.ClusterFieldTags, types.ClusterFieldConfigurations}})
	if err != nil || len(out.Clusters) != 1 {
		t.Fatalf("describe %s: %+v, %v", name, out, err)
	}
	return out.Clusters[0]
}

// TestECSClusterLifecycle creates a cluster with Container Insights, Fargate capacity providers, a
// default strategy, a Service Connect namespace and tags, creates it again, describes it with and
// without include, updates it, deletes it and finds it INACTIVE.
func TestECSClusterLifecycle(t *testing.T) {
	env := newECSEnv(t, emulator.Options{})
	ctx := context.Background()
	out, err := env.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{ClusterName: aws.String("apps"),
		Settings:          []types.ClusterSetting{{Name: types.ClusterSettingNameContainerInsights, Value: aws.String("enhanced")}},
		CapacityProviders: []string{"FARGATE", "FARGATE_SPOT"},
		DefaultCapacityProviderStrategy: []types.CapacityProviderStrategyItem{{CapacityProvider: aws.String("FARGATE"), Base: 1, Weight: 1},
			{CapacityProvider: aws.String("FARGATE_SPOT"), Weight: 3}},
		ServiceConnectDefaults: &types.ClusterServiceConnectDefaultsRequest{Namespace: aws.String("apps.local")},
		Tags:                   []types.Tag{{Key: aws.String("team"), Value: aws.String("platform")}}})
	if err != nil {
		t.Fatal(err)
	}
	c := out.Cluster
	if aws.ToString(c.ClusterArn) != "arn:aws:ecs:us-east-1:000000000000:cluster/apps" || aws.ToString(c.Status) != "ACTIVE" ||
		aws.ToString(c.Settings[0].Value) != "enhanced" || len(c.DefaultCapacityProviderStrategy) != 2 || len(c.Tags) != 1 {
		t.Fatalf("created cluster: %+v", c)
	}
	ns := aws.ToString(c.ServiceConnectDefaults.Namespace)
	if !strings.HasPrefix(ns, "arn:aws:servicediscovery:us-east-1:000000000000:namespace/ns-") {
		t.Errorf("namespace %q", ns)
	}
	again, err := env.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{ClusterName: aws.String("apps")})
	if err != nil || aws.ToString(again.Cluster.Settings[0].Value) != "enhanced" {
		t.Fatalf("create the same cluster again: %+v, %v", again, err)
	}
	plain, err := env.ecs.DescribeClusters(ctx, &ecs.DescribeClustersInput{Clusters: []string{"arn:aws:ecs:us-east-1:000000000000:cluster/apps", "nope"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Clusters) != 1 || plain.Clusters[0].Settings != nil || plain.Clusters[0].Tags != nil || len(plain.Failures) != 1 ||
		aws.ToString(plain.Failures[0].Reason) != "MISSING" || aws.ToString(plain.Failures[0].Arn) != "arn:aws:ecs:us-east-1:000000000000:cluster/nope" {
		t.Errorf("describe without include: %+v", plain)
	}
	if _, err := env.ecs.UpdateClusterSettings(ctx, &ecs.UpdateClusterSettingsInput{Cluster: aws.String("apps"),
		Settings: []types.ClusterSetting{{Name: types.ClusterSettingNameContainerInsights, Value: aws.String("disabled")}}}); err != nil {
		t.Fatal(err)
	}
	up, err := env.ecs.UpdateCluster(ctx, &ecs.UpdateClusterInput{Cluster: aws.String("apps"),
		ServiceConnectDefaults: &types.ClusterServiceConnectDefaultsRequest{Namespace: aws.String("apps.local")},
		Configuration:          &types.ClusterConfiguration{ExecuteCommandConfiguration: &types.ExecuteCommandConfiguration{Logging: types.ExecuteCommandLoggingDefault}}})
	if err != nil || aws.ToString(up.Cluster.ServiceConnectDefaults.Namespace) != ns || aws.ToString(up.Cluster.Settings[0].Value) != "disabled" {
		t.Fatalf("update: %+v, %v (the same namespace name keeps its ARN %s)", up, err, ns)
	}
	put, err := env.ecs.PutClusterCapacityProviders(ctx, &ecs.PutClusterCapacityProvidersInput{Cluster: aws.String("apps"),
		CapacityProviders: []string{"FARGATE"}, DefaultCapacityProviderStrategy: []types.CapacityProviderStrategyItem{{CapacityProvider: aws.String("FARGATE"), Weight: 1}}})
	if err != nil || strings.Join(put.Cluster.CapacityProviders, ",") != "FARGATE" {
		t.Fatalf("put capacity providers: %+v, %v", put, err)
	}
	list, err := env.ecs.ListClusters(ctx, &ecs.ListClustersInput{})
	if err != nil || len(list.ClusterArns) != 1 {
		t.Fatalf("list: %+v, %v", list, err)
	}
	del, err := env.ecs.DeleteCluster(ctx, &ecs.DeleteClusterInput{Cluster: aws.String("apps")})
	if err != nil || aws.ToString(del.Cluster.Status) != "INACTIVE" {
		t.Fatalf("delete: %+v, %v", del, err)
	}
	if got := env.cluster(t, "apps"); aws.ToString(got.Status) != "INACTIVE" {
		t.Errorf("described after delete: %s", aws.ToString(got.Status))
	}
	_, err = env.ecs.DeleteCluster(ctx, &ecs.DeleteClusterInput{Cluster: aws.String("apps")})
	wantCode(t, "delete again", err, "ClusterNotFoundException")
	_, err = env.ecs.UpdateClusterSettings(ctx, &ecs.UpdateClusterSettingsInput{Cluster: aws.String("apps"),
		Settings: []types.ClusterSetting{{Name: types.ClusterSettingNameContainerInsights, Value: aws.String("enabled")}}})
	wantCode(t, "update an inactive cluster", err, "ClusterNotFoundException")
	if list, _ := env.ecs.ListClusters(ctx, &ecs.ListClustersInput{}); len(list.ClusterArns) != 0 {
		t.Errorf("inactive cluster listed: %v", list.ClusterArns)
	}
}

// TestECSClusterValidation checks CreateCluster's refusals, each with AWS's error code, and the
// default cluster.
func TestECSClusterValidation(t *testing.T) {
	env := newECSEnv(t, emulator.Options{})
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		in   ecs.CreateClusterInput
	}{
		{"bad name", ecs.CreateClusterInput{ClusterName: aws.String("my cluster")}},
		{"bad insights", ecs.CreateClusterInput{ClusterName: aws.String("c"), Settings: []types.ClusterSetting{{Name: types.ClusterSettingNameContainerInsights, Value: aws.String("on")}}}},
		{"unknown provider", ecs.CreateClusterInput{ClusterName: aws.String("c"), CapacityProviders: []string{"my-asg"}}},
		{"strategy outside providers", ecs.CreateClusterInput{ClusterName: aws.String("c"), CapacityProviders: []string{"FARGATE"},
			DefaultCapacityProviderStrategy: []types.CapacityProviderStrategyItem{{CapacityProvider: aws.String("FARGATE_SPOT"), Weight: 1}}}},
		{"two bases", ecs.CreateClusterInput{ClusterName: aws.String("c"), CapacityProviders: []string{"FARGATE", "FARGATE_SPOT"},
			DefaultCapacityProviderStrategy: []types.CapacityProviderStrategyItem{{CapacityProvider: aws.String("FARGATE"), Base: 1, Weight: 1},
				{CapacityProvider: aws.String("FARGATE_SPOT"), Base: 1, Weight: 1}}}},
		{"no weight", ecs.CreateClusterInput{ClusterName: aws.String("c"), CapacityProviders: []string{"FARGATE"},
			DefaultCapacityProviderStrategy: []types.CapacityProviderStrategyItem{{CapacityProvider: aws.String("FARGATE")}}}},
		{"reserved tag", ecs.CreateClusterInput{ClusterName: aws.String("c"), Tags: []types.Tag{{Key: aws.String("aws:x"), Value: aws.String("y")}}}},
	} {
		_, err := env.ecs.CreateCluster(ctx, &tc.in)
		wantCode(t, tc.name, err, "InvalidParameterException")
	}
	def, err := env.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{})
	if err != nil || aws.ToString(def.Cluster.ClusterName) != "default" {
		t.Fatalf("default cluster: %+v, %v", def, err)
	}
	if got, err := env.ecs.DescribeClusters(ctx, &ecs.DescribeClustersInput{}); err != nil || len(got.Clusters) != 1 {
		t.Errorf("describe without names describes the default cluster: %+v, %v", got, err)
	}
}

// TestECSServicesCountAndBlockDelete follows a Fargate service's tasks on the clock in the
// cluster's counts, shows that EC2 tasks are never placed, and that DeleteCluster is refused while
// services are active or tasks stop.
func TestECSServicesCountAndBlockDelete(t *testing.T) {
	env := newECSEnv(t, emulator.Options{Transitions: map[string]time.Duration{"ECS": 10 * time.Second}})
	ctx := context.Background()
	if _, err := env.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{ClusterName: aws.String("apps")}); err != nil {
		t.Fatal(err)
	}
	task := env.fargateTask(t, "web")
	created, err := env.ecs.CreateService(ctx, &ecs.CreateServiceInput{Cluster: aws.String("apps"), ServiceName: aws.String("web"),
		TaskDefinition: aws.String("web"), DesiredCount: aws.Int32(3), LaunchType: types.LaunchTypeFargate, NetworkConfiguration: env.awsvpc(),
		Tags: []types.Tag{{Key: aws.String("app"), Value: aws.String("web")}}})
	if err != nil {
		t.Fatal(err)
	}
	s := created.Service
	if aws.ToString(s.ServiceArn) != "arn:aws:ecs:us-east-1:000000000000:service/apps/web" || aws.ToString(s.TaskDefinition) != task ||
		s.PendingCount != 3 || s.RunningCount != 0 || aws.ToString(s.Status) != "ACTIVE" {
		t.Fatalf("created service: %+v", s)
	}
	c := env.cluster(t, "apps")
	if c.ActiveServicesCount != 1 || c.PendingTasksCount != 3 || c.RunningTasksCount != 0 {
		t.Errorf("cluster while tasks start: services %d, pending %d, running %d", c.ActiveServicesCount, c.PendingTasksCount, c.RunningTasksCount)
	}
	env.e.Clock.Advance(10 * time.Second)
	if c := env.cluster(t, "apps"); c.RunningTasksCount != 3 || c.PendingTasksCount != 0 {
		t.Errorf("cluster after the transition: pending %d, running %d", c.PendingTasksCount, c.RunningTasksCount)
	}
	if _, err := env.ecs.CreateService(ctx, &ecs.CreateServiceInput{Cluster: aws.String("apps"), ServiceName: aws.String("batch"),
		TaskDefinition: aws.String(task), DesiredCount: aws.Int32(2), LaunchType: types.LaunchTypeEc2, NetworkConfiguration: env.awsvpc()}); err != nil {
		t.Fatal(err)
	}
	list, err := env.ecs.ListServices(ctx, &ecs.ListServicesInput{Cluster: aws.String("apps"), LaunchType: types.LaunchTypeFargate})
	if err != nil || len(list.ServiceArns) != 1 {
		t.Fatalf("list Fargate services: %+v, %v", list, err)
	}
	desc, err := env.ecs.DescribeServices(ctx, &ecs.DescribeServicesInput{Cluster: aws.String("apps"), Services: []string{"batch", "nope"},
		Include: []types.ServiceField{types.ServiceFieldTags}})
	if err != nil || len(desc.Services) != 1 || desc.Services[0].RunningCount != 0 || len(desc.Failures) != 1 {
		t.Fatalf("describe services: %+v, %v", desc, err)
	}
	if c := env.cluster(t, "apps"); c.ActiveServicesCount != 2 || c.RunningTasksCount != 3 {
		t.Errorf("EC2 tasks are never placed without container instances: services %d, running %d", c.ActiveServicesCount, c.RunningTasksCount)
	}
	_, err = env.ecs.DeleteCluster(ctx, &ecs.DeleteClusterInput{Cluster: aws.String("apps")})
	wantCode(t, "delete with services", err, "ClusterContainsServicesException")
	_, err = env.ecs.DeleteService(ctx, &ecs.DeleteServiceInput{Cluster: aws.String("apps"), Service: aws.String("web")})
	wantCode(t, "delete a scaled service", err, "InvalidParameterException")
	up, err := env.ecs.UpdateService(ctx, &ecs.UpdateServiceInput{Cluster: aws.String("apps"), Service: aws.String("web"), DesiredCount: aws.Int32(1)})
	if err != nil || up.Service.DesiredCount != 1 || up.Service.RunningCount != 3 {
		t.Fatalf("scale in: %+v, %v", up, err)
	}
	if _, err := env.ecs.DeleteService(ctx, &ecs.DeleteServiceInput{Cluster: aws.String("apps"), Service: aws.String("batch"), Force: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	gone, err := env.ecs.DeleteService(ctx, &ecs.DeleteServiceInput{Cluster: aws.String("apps"), Service: aws.String("arn:aws:ecs:us-east-1:000000000000:service/apps/web"), Force: aws.Bool(true)})
	if err != nil || aws.ToString(gone.Service.Status) != "DRAINING" {
		t.Fatalf("delete web: %+v, %v", gone, err)
	}
	_, err = env.ecs.DeleteCluster(ctx, &ecs.DeleteClusterInput{Cluster: aws.String("apps")})
	wantCode(t, "delete while tasks stop", err, "ClusterContainsTasksException")
	_, err = env.ecs.UpdateService(ctx, &ecs.UpdateServiceInput{Cluster: aws.String("apps"), Service: aws.String("web"), DesiredCount: aws.Int32(1)})
	wantCode(t, "update a draining service", err, "ServiceNotActiveException")
	env.e.Clock.Advance(10 * time.Second)
	desc, err = env.ecs.DescribeServices(ctx, &ecs.DescribeServicesInput{Cluster: aws.String("apps"), Services: []string{"web"}})
	if err != nil || aws.ToString(desc.Services[0].Status) != "INACTIVE" {
		t.Fatalf("service after its tasks stopped: %+v, %v", desc, err)
	}
	if _, err := env.ecs.DeleteCluster(ctx, &ecs.DeleteClusterInput{Cluster: aws.String("apps")}); err != nil {
		t.Fatalf("delete the emptied cluster: %v", err)
	}
}

// TestECSServiceValidation checks CreateService's refusals, each with AWS's error code, and that a
// service name is not reused.
func TestECSServiceValidation(t *testing.T) {
	env := newECSEnv(t, emulator.Options{})
	ctx := context.Background()
	if _, err := env.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{ClusterName: aws.String("apps"), CapacityProviders: []string{"FARGATE"}}); err != nil {
		t.Fatal(err)
	}
	task := env.fargateTask(t, "web")
	bridge, err := env.ecs.RegisterTaskDefinition(ctx, &ecs.RegisterTaskDefinitionInput{Family: aws.String("legacy"),
		ContainerDefinitions: []types.ContainerDefinition{{Name: aws.String("app"), Image: aws.String("app:1"), Memory: aws.Int32(128)}}})
	if err != nil {
		t.Fatal(err)
	}
	svc := func(mutate func(in *ecs.CreateServiceInput)) *ecs.CreateServiceInput {
		in := &ecs.CreateServiceInput{Cluster: aws.String("apps"), ServiceName: aws.String("web"), TaskDefinition: aws.String(task),
			DesiredCount: aws.Int32(1), LaunchType: types.LaunchTypeFargate, NetworkConfiguration: env.awsvpc()}
		mutate(in)
		return in
	}
	for _, tc := range []struct {
		name string
		in   *ecs.CreateServiceInput
		code string
	}{
		{"missing cluster", svc(func(in *ecs.CreateServiceInput) { in.Cluster = aws.String("nope") }), "ClusterNotFoundException"},
		{"missing task definition", svc(func(in *ecs.CreateServiceInput) { in.TaskDefinition = aws.String("nope:1") }), "InvalidParameterException"},
		{"launch type and strategy", svc(func(in *ecs.CreateServiceInput) {
			in.CapacityProviderStrategy = []types.CapacityProviderStrategyItem{{CapacityProvider: aws.String("FARGATE"), Weight: 1}}
		}), "InvalidParameterException"},
		{"provider not in the cluster", svc(func(in *ecs.CreateServiceInput) {
			in.LaunchType = ""
			in.CapacityProviderStrategy = []types.CapacityProviderStrategyItem{{CapacityProvider: aws.String("FARGATE_SPOT"), Weight: 1}}
		}), "InvalidParameterException"},
		{"awsvpc without network", svc(func(in *ecs.CreateServiceInput) { in.NetworkConfiguration = nil }), "InvalidParameterException"},
		{"missing subnet", svc(func(in *ecs.CreateServiceInput) {
			in.NetworkConfiguration = &types.NetworkConfiguration{AwsvpcConfiguration: &types.AwsVpcConfiguration{Subnets: []string{"subnet-0123456789abcdef0"}}}
		}), "InvalidParameterException"},
		{"bridge task on Fargate", svc(func(in *ecs.CreateServiceInput) {
			in.TaskDefinition = bridge.TaskDefinition.TaskDefinitionArn
			in.NetworkConfiguration = nil
		}), "InvalidParameterException"},
	} {
		_, err := env.ecs.CreateService(ctx, tc.in)
		wantCode(t, tc.name, err, tc.code)
	}
	if _, err := env.ecs.CreateService(ctx, svc(func(*ecs.CreateServiceInput) {})); err != nil {
		t.Fatal(err)
	}
	_, err = env.ecs.CreateService(ctx, svc(func(*ecs.CreateServiceInput) {}))
	wantCode(t, "same name again", err, "InvalidParameterException")
	_, err = env.ecs.PutClusterCapacityProviders(ctx, &ecs.PutClusterCapacityProvidersInput{Cluster: aws.String("apps"), CapacityProviders: []string{},
		DefaultCapacityProviderStrategy: []types.CapacityProviderStrategyItem{}})
	if err != nil {
		t.Fatalf("remove providers no service's strategy uses: %v", err)
	}
}

// TestECSTaskDefinitions registers revisions of a family, deregisters one, and describes by family
// and by ARN.
func TestECSTaskDefinitions(t *testing.T) {
	env := newECSEnv(t, emulator.Options{})
	ctx := context.Background()
	first := env.fargateTask(t, "web")
	second := env.fargateTask(t, "web")
	if !strings.HasSuffix(first, "task-definition/web:1") || !strings.HasSuffix(second, "task-definition/web:2") {
		t.Fatalf("revisions %s, %s", first, second)
	}
	if _, err := env.ecs.DeregisterTaskDefinition(ctx, &ecs.DeregisterTaskDefinitionInput{TaskDefinition: aws.String("web:2")}); err != nil {
		t.Fatal(err)
	}
	out, err := env.ecs.DescribeTaskDefinition(ctx, &ecs.DescribeTaskDefinitionInput{TaskDefinition: aws.String("web")})
	if err != nil || out.TaskDefinition.Revision != 1 {
		t.Fatalf("latest active revision: %+v, %v", out, err)
	}
	out, err = env.ecs.DescribeTaskDefinition(ctx, &ecs.DescribeTaskDefinitionInput{TaskDefinition: aws.String(second)})
	if err != nil || out.TaskDefinition.Status != types.TaskDefinitionStatusInactive {
		t.Fatalf("deregistered revision: %+v, %v", out, err)
	}
	_, err = env.ecs.DescribeTaskDefinition(ctx, &ecs.DescribeTaskDefinitionInput{TaskDefinition: aws.String("nope")})
	wantCode(t, "missing family", err, "ClientException")
	_, err = env.ecs.RegisterTaskDefinition(ctx, &ecs.RegisterTaskDefinitionInput{Family: aws.String("f"), RequiresCompatibilities: []types.Compatibility{types.CompatibilityFargate},
		ContainerDefinitions: []types.ContainerDefinition{{Name: aws.String("web"), Image: aws.String("nginx")}}})
	wantCode(t, "Fargate without awsvpc", err, "ClientException")
}

// TestECSTags tags and untags a cluster and a task definition by ARN and checks the errors for an
// unknown cluster and a bad ARN.
func TestECSTags(t *testing.T) {
	env := newECSEnv(t, emulator.Options{})
	ctx := context.Background()
	out, err := env.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{ClusterName: aws.String("apps")})
	if err != nil {
		t.Fatal(err)
	}
	arn := out.Cluster.ClusterArn
	if _, err := env.ecs.TagResource(ctx, &ecs.TagResourceInput{ResourceArn: arn, Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")},
		{Key: aws.String("team"), Value: aws.String("web")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.ecs.UntagResource(ctx, &ecs.UntagResourceInput{ResourceArn: arn, TagKeys: []string{"team"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := env.ecs.ListTagsForResource(ctx, &ecs.ListTagsForResourceInput{ResourceArn: arn})
	if err != nil || len(tags.Tags) != 1 || aws.ToString(tags.Tags[0].Key) != "env" {
		t.Fatalf("tags: %+v, %v", tags, err)
	}
	task := env.fargateTask(t, "web")
	if _, err := env.ecs.TagResource(ctx, &ecs.TagResourceInput{ResourceArn: aws.String(task), Tags: []types.Tag{{Key: aws.String("app"), Value: aws.String("web")}}}); err != nil {
		t.Fatalf("tag a task definition: %v", err)
	}
	_, err = env.ecs.ListTagsForResource(ctx, &ecs.ListTagsForResourceInput{ResourceArn: aws.String("arn:aws:ecs:us-east-1:000000000000:cluster/nope")})
	wantCode(t, "missing cluster", err, "ClusterNotFoundException")
	_, err = env.ecs.ListTagsForResource(ctx, &ecs.ListTagsForResourceInput{ResourceArn: aws.String("nope")})
	wantCode(t, "not an ARN", err, "InvalidParameterException")
}
