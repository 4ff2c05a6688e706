package differential

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// deploymentID matches a deployment ID in a rolloutStateReason.
var deploymentID = regexp.MustCompile(`ecs-svc/[0-9]+`)

// revisions returns the family:revision ends of task definition ARNs, joined by commas.
func revisions(arns []string) string {
	out := make([]string, len(arns))
	for i, arn := range arns {
		out[i] = arn[strings.LastIndex(arn, "/")+1:]
	}
	return strings.Join(out, ",")
}

// taskDefinitionFieldsOf are what the steps compare of a task definition.
func taskDefinitionFieldsOf(t *types.TaskDefinition) map[string]string {
	c := t.ContainerDefinitions[0]
	return map[string]string{"arn": accountPart.ReplaceAllString(aws.ToString(t.TaskDefinitionArn), ":<account>:"), "status": string(t.Status),
		"network": string(t.NetworkMode), "container": aws.ToString(c.Name) + "=" + aws.ToString(c.Image),
		"port": strconv.Itoa(int(aws.ToInt32(c.PortMappings[0].ContainerPort))), "environment": aws.ToString(c.Environment[0].Name) + "=" + aws.ToString(c.Environment[0].Value),
		"secret": aws.ToString(c.Secrets[0].ValueFrom), "logs": string(c.LogConfiguration.LogDriver) + ":" + c.LogConfiguration.Options["awslogs-group"],
		"taskRole": aws.ToString(t.TaskRoleArn), "executionRole": aws.ToString(t.ExecutionRoleArn)}
}

// serviceFieldsOf are what the steps compare of a service: not its task counts, since moto
// counts the tasks of an EC2 service as pending and the emulator, without container instances,
// places none.
func serviceFieldsOf(s *types.Service) map[string]string {
	d := s.Deployments[0]
	return map[string]string{"arn": accountPart.ReplaceAllString(aws.ToString(s.ServiceArn), ":<account>:"), "status": aws.ToString(s.Status),
		"desired": strconv.Itoa(int(s.DesiredCount)), "loadBalancers": strconv.Itoa(len(s.LoadBalancers)), "deployments": strconv.Itoa(len(s.Deployments)),
		"taskDefinition": revisions([]string{aws.ToString(s.TaskDefinition)}), "rollout": string(d.RolloutState),
		"reason": deploymentID.ReplaceAllString(aws.ToString(d.RolloutStateReason), "<id>"), "deployment": aws.ToString(d.Status),
		"executeCommand": strconv.FormatBool(s.EnableExecuteCommand), "propagateTags": string(s.PropagateTags)}
}

// deploymentSteps is the sequence of task definitions, services and tasks both sides run.
func deploymentSteps() []step[*containers] {
	ctx := context.Background()
	cluster := aws.String("diff-deploy")
	container := types.ContainerDefinition{Name: aws.String("web"), Image: aws.String("nginx:1.27"), Memory: aws.Int32(256),
		PortMappings:     []types.PortMapping{{ContainerPort: aws.Int32(8080), HostPort: aws.Int32(0)}},
		Environment:      []types.KeyValuePair{{Name: aws.String("MODE"), Value: aws.String("prod")}},
		Secrets:          []types.Secret{{Name: aws.String("TOKEN"), ValueFrom: aws.String("arn:aws:ssm:us-east-1:123456789012:parameter/token")}},
		LogConfiguration: &types.LogConfiguration{LogDriver: types.LogDriverAwslogs, Options: map[string]string{"awslogs-group": "/ecs/web"}}}
	register := func(family string) func(c *containers) outcome {
		return func(c *containers) outcome {
			out, err := c.ecs.RegisterTaskDefinition(ctx, &ecs.RegisterTaskDefinitionInput{Family: aws.String(family), ContainerDefinitions: []types.ContainerDefinition{container},
				TaskRoleArn: aws.String("arn:aws:iam::123456789012:role/web"), ExecutionRoleArn: aws.String("arn:aws:iam::123456789012:role/exec"),
				Tags: []types.Tag{{Key: aws.String("app"), Value: aws.String(family)}}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, taskDefinitionFieldsOf(out.TaskDefinition))
		}
	}
	list := func(in ecs.ListTaskDefinitionsInput) func(c *containers) outcome {
		return func(c *containers) outcome {
			out, err := c.ecs.ListTaskDefinitions(ctx, &in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"arns": revisions(out.TaskDefinitionArns), "more": strconv.FormatBool(out.NextToken != nil)})
		}
	}
	deleteTaskDefinitions := func(refs ...string) func(c *containers) outcome {
		return func(c *containers) outcome {
			out, err := c.ecs.DeleteTaskDefinitions(ctx, &ecs.DeleteTaskDefinitionsInput{TaskDefinitions: refs})
			if err != nil {
				return observe(err, nil)
			}
			var deleted, reasons []string
			for _, t := range out.TaskDefinitions {
				deleted = append(deleted, revisions([]string{aws.ToString(t.TaskDefinitionArn)})+"="+string(t.Status))
			}
			for _, f := range out.Failures {
				reasons = append(reasons, aws.ToString(f.Reason))
			}
			return observe(nil, map[string]string{"deleted": strings.Join(deleted, ","), "failures": strings.Join(reasons, " | ")})
		}
	}
	lbs := []types.LoadBalancer{{TargetGroupArn: aws.String("arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef"),
		ContainerName: aws.String("web"), ContainerPort: aws.Int32(8080)}}
	create := func(name string, mutate func(in *ecs.CreateServiceInput)) func(c *containers) outcome {
		return func(c *containers) outcome {
			in := &ecs.CreateServiceInput{Cluster: cluster, ServiceName: aws.String(name), TaskDefinition: aws.String("diff-deploy:2"), DesiredCount: aws.Int32(2),
				LaunchType: types.LaunchTypeEc2, LoadBalancers: lbs, ClientToken: aws.String("diff-token")}
			mutate(in)
			out, err := c.ecs.CreateService(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, serviceFieldsOf(out.Service))
		}
	}
	update := func(in ecs.UpdateServiceInput) func(c *containers) outcome {
		return func(c *containers) outcome {
			in.Cluster = cluster
			out, err := c.ecs.UpdateService(ctx, &in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, serviceFieldsOf(out.Service))
		}
	}
	listTasks := func(in ecs.ListTasksInput) func(c *containers) outcome {
		return func(c *containers) outcome {
			out, err := c.ecs.ListTasks(ctx, &in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"tasks": strconv.Itoa(len(out.TaskArns))})
		}
	}
	describeTasks := func(refs ...string) func(c *containers) outcome {
		return func(c *containers) outcome {
			out, err := c.ecs.DescribeTasks(ctx, &ecs.DescribeTasksInput{Cluster: cluster, Tasks: refs})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"tasks": strconv.Itoa(len(out.Tasks)), "failures": strconv.Itoa(len(out.Failures))})
		}
	}
	return []step[*containers]{
		{"CreateCluster", errorOutcome(func(c *containers) error {
			_, err := c.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{ClusterName: cluster})
			return err
		})},
		{"RegisterTaskDefinition", register("diff-deploy")},
		{"RegisterRevision", register("diff-deploy")},
		{"RegisterOtherFamily", register("diff-deploy-worker")},
		{"DescribeTaskDefinition", func(c *containers) outcome {
			out, err := c.ecs.DescribeTaskDefinition(ctx, &ecs.DescribeTaskDefinitionInput{TaskDefinition: aws.String("diff-deploy:1"), Include: []types.TaskDefinitionField{types.TaskDefinitionFieldTags}})
			if err != nil {
				return observe(err, nil)
			}
			fields := taskDefinitionFieldsOf(out.TaskDefinition)
			fields["tags"] = strconv.Itoa(len(out.Tags))
			return observe(nil, fields)
		}},
		{"DescribeMissingTaskDefinition", errorOutcome(func(c *containers) error {
			_, err := c.ecs.DescribeTaskDefinition(ctx, &ecs.DescribeTaskDefinitionInput{TaskDefinition: aws.String("diff-missing:1")})
			return err
		})},
		{"ListTaskDefinitionsOfFamily", list(ecs.ListTaskDefinitionsInput{FamilyPrefix: aws.String("diff-deploy")})},
		{"ListTaskDefinitionsDescending", list(ecs.ListTaskDefinitionsInput{FamilyPrefix: aws.String("diff-deploy"), Sort: types.SortOrderDesc})},
		{"ListTaskDefinitionsPage", list(ecs.ListTaskDefinitionsInput{MaxResults: aws.Int32(1)})},
		{"DeregisterTaskDefinition", func(c *containers) outcome {
			out, err := c.ecs.DeregisterTaskDefinition(ctx, &ecs.DeregisterTaskDefinitionInput{TaskDefinition: aws.String("diff-deploy:1")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": string(out.TaskDefinition.Status)})
		}},
		{"ListInactiveTaskDefinitions", list(ecs.ListTaskDefinitionsInput{Status: types.TaskDefinitionStatusInactive})},
		{"DeleteActiveTaskDefinition", deleteTaskDefinitions("diff-deploy:2", "diff-missing:1")},
		{"DeleteInactiveTaskDefinition", deleteTaskDefinitions("diff-deploy:1")},
		{"ListDeletingTaskDefinitions", list(ecs.ListTaskDefinitionsInput{Status: types.TaskDefinitionStatusDeleteInProgress})},
		{"CreateService", create("web", func(*ecs.CreateServiceInput) {})},
		{"CreateServiceSameToken", create("web", func(*ecs.CreateServiceInput) {})},
		{"CreateServiceUnknownContainer", create("bad-container", func(in *ecs.CreateServiceInput) {
			in.LoadBalancers = []types.LoadBalancer{{TargetGroupArn: lbs[0].TargetGroupArn, ContainerName: aws.String("api"), ContainerPort: aws.Int32(8080)}}
		})},
		{"CreateServiceGraceWithoutLoadBalancer", create("bad-grace", func(in *ecs.CreateServiceInput) {
			in.LoadBalancers, in.HealthCheckGracePeriodSeconds = nil, aws.Int32(30)
		})},
		{"DescribeDeploymentConfiguration", func(c *containers) outcome {
			out, err := c.ecs.DescribeServices(ctx, &ecs.DescribeServicesInput{Cluster: cluster, Services: []string{"web"}})
			if err != nil {
				return observe(err, nil)
			}
			cfg := out.Services[0].DeploymentConfiguration
			if cfg == nil {
				return observe(nil, map[string]string{"deploymentConfiguration": "none"})
			}
			return observe(nil, map[string]string{"max": strconv.Itoa(int(aws.ToInt32(cfg.MaximumPercent))), "min": strconv.Itoa(int(aws.ToInt32(cfg.MinimumHealthyPercent)))})
		}},
		{"UpdateServiceSettings", update(ecs.UpdateServiceInput{Service: aws.String("web"), EnableExecuteCommand: aws.Bool(true)})},
		{"UpdateServiceTaskDefinition", update(ecs.UpdateServiceInput{Service: aws.String("web"), TaskDefinition: aws.String("diff-deploy-worker:1")})},
		{"UpdateMissingService", update(ecs.UpdateServiceInput{Service: aws.String("diff-missing"), DesiredCount: aws.Int32(1)})},
		{"ListTasks", listTasks(ecs.ListTasksInput{Cluster: cluster, ServiceName: aws.String("web")})},
		{"ListStoppedTasks", listTasks(ecs.ListTasksInput{Cluster: cluster, ServiceName: aws.String("web"), DesiredStatus: types.DesiredStatusStopped})},
		{"ListTasksOfMissingService", listTasks(ecs.ListTasksInput{Cluster: cluster, ServiceName: aws.String("diff-missing")})},
		{"ListTasksOfMissingCluster", listTasks(ecs.ListTasksInput{Cluster: aws.String("diff-missing")})},
		{"DescribeMissingTask", describeTasks("0123456789abcdef0123456789abcdef")},
		{"DescribeNoTasks", describeTasks()},
		{"DeleteService", func(c *containers) outcome {
			out, err := c.ecs.DeleteService(ctx, &ecs.DeleteServiceInput{Cluster: cluster, Service: aws.String("web"), Force: aws.Bool(true)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": aws.ToString(out.Service.Status), "desired": strconv.Itoa(int(out.Service.DesiredCount))})
		}},
	}
}

// TestECSDeploymentsAgainstMoto compares task definitions, services' deployments and tasks with
// moto's.
func TestECSDeploymentsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	emuSide := &containers{ecs: ecs.NewFromConfig(sdkConfig(t, emu.URL)), settle: func() { e.Clock.Advance(time.Minute) }}
	peerSide := &containers{ecs: ecs.NewFromConfig(sdkConfig(t, peerURL)), settle: func() {}}
	compare(t, emuSide, peerSide, "moto "+motoVersion, deploymentSteps(), map[string]string{
		"ListTaskDefinitionsDescending": "moto ignores sort; AWS lists by family and revision, newest revision first with DESC (ListTaskDefinitions, sort)",
		"ListTaskDefinitionsPage":       "moto ignores maxResults and answers every revision without a nextToken; AWS answers pages of maxResults (1 to 100)",
		"ListDeletingTaskDefinitions": "moto removes a deleted revision at once; AWS keeps it as DELETE_IN_PROGRESS until it is deleted, " +
			"listable with status DELETE_IN_PROGRESS (DeleteTaskDefinitions)",
		"CreateServiceUnknownContainer": "moto does not check load balancers against the task definition; AWS answers InvalidParameterException " +
			"(\"The container api does not exist in the task definition.\")",
		"CreateServiceGraceWithoutLoadBalancer": "moto accepts a health check grace period without load balancers; AWS answers InvalidParameterException " +
			"(\"Health check grace period is only valid for services configured to use load balancers\")",
		"DescribeDeploymentConfiguration": "moto returns no deploymentConfiguration; AWS returns it with its defaults (maximumPercent 200, minimumHealthyPercent 100)",
		"ListTasksOfMissingService":       "moto lists no task for a service the cluster does not have; AWS answers ServiceNotFoundException (ListTasks, Errors)",
		"DescribeMissingTask":             "moto leaves out a task it cannot find; AWS answers a failure with reason MISSING for it (DescribeTasks, failures)",
		"DeleteService":                   "moto keeps the desired count of a service deleted with force; AWS scales it to 0 first (DeleteService, force)",
	})
}
