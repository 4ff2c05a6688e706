package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// containers is one side's ECS client and how it lets tasks start or stop.
type containers struct {
	ecs    *ecs.Client
	settle func()
}

// clusterFieldsOf are what the steps compare of a cluster.
func clusterFieldsOf(c types.Cluster) map[string]string {
	var settings, strategy []string
	for _, s := range c.Settings {
		settings = append(settings, string(s.Name)+"="+aws.ToString(s.Value))
	}
	for _, s := range c.DefaultCapacityProviderStrategy {
		strategy = append(strategy, aws.ToString(s.CapacityProvider)+":"+strconv.Itoa(int(s.Base))+":"+strconv.Itoa(int(s.Weight)))
	}
	return map[string]string{"arn": accountPart.ReplaceAllString(aws.ToString(c.ClusterArn), ":<account>:"), "status": aws.ToString(c.Status),
		"settings": strings.Join(settings, ","), "providers": strings.Join(c.CapacityProviders, ","), "strategy": strings.Join(strategy, ","),
		"services": strconv.Itoa(int(c.ActiveServicesCount)), "running": strconv.Itoa(int(c.RunningTasksCount)), "tags": strconv.Itoa(len(c.Tags))}
}

// ecsSteps is the ECS sequence both sides run: a cluster with Container Insights and Fargate
// capacity providers, an EC2 service counted in it, deletion refused while the service is
// active, the service's deletion, the cluster's, and the errors AWS documents.
func ecsSteps() []step[*containers] {
	ctx := context.Background()
	cluster := aws.String("diff-apps")
	describe := func(c *containers) outcome {
		out, err := c.ecs.DescribeClusters(ctx, &ecs.DescribeClustersInput{Clusters: []string{*cluster},
			Include: []types.ClusterField{types.ClusterFieldSettings, types.ClusterFieldTags}})
		if err != nil {
			return observe(err, nil)
		}
		if len(out.Clusters) == 0 {
			return observe(nil, map[string]string{"failures": strconv.Itoa(len(out.Failures))})
		}
		return observe(nil, clusterFieldsOf(out.Clusters[0]))
	}
	return []step[*containers]{
		{"CreateCluster", func(c *containers) outcome {
			out, err := c.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{ClusterName: cluster,
				Settings:                        []types.ClusterSetting{{Name: types.ClusterSettingNameContainerInsights, Value: aws.String("enabled")}},
				CapacityProviders:               []string{"FARGATE", "FARGATE_SPOT"},
				DefaultCapacityProviderStrategy: []types.CapacityProviderStrategyItem{{CapacityProvider: aws.String("FARGATE"), Base: 1, Weight: 1}},
				Tags:                            []types.Tag{{Key: aws.String("team"), Value: aws.String("platform")}}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, clusterFieldsOf(*out.Cluster))
		}},
		{"CreateClusterAgain", func(c *containers) outcome {
			out, err := c.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{ClusterName: cluster})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": aws.ToString(out.Cluster.Status), "providers": strings.Join(out.Cluster.CapacityProviders, ",")})
		}},
		{"DescribeCluster", describe},
		{"DescribeMissing", func(c *containers) outcome {
			out, err := c.ecs.DescribeClusters(ctx, &ecs.DescribeClustersInput{Clusters: []string{"diff-missing"}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"clusters": strconv.Itoa(len(out.Clusters)), "reason": aws.ToString(out.Failures[0].Reason)})
		}},
		{"UpdateClusterSettings", errorOutcome(func(c *containers) error {
			_, err := c.ecs.UpdateClusterSettings(ctx, &ecs.UpdateClusterSettingsInput{Cluster: cluster,
				Settings: []types.ClusterSetting{{Name: types.ClusterSettingNameContainerInsights, Value: aws.String("disabled")}}})
			return err
		})},
		{"UpdateCluster", errorOutcome(func(c *containers) error {
			_, err := c.ecs.UpdateCluster(ctx, &ecs.UpdateClusterInput{Cluster: cluster,
				Settings: []types.ClusterSetting{{Name: types.ClusterSettingNameContainerInsights, Value: aws.String("enhanced")}}})
			return err
		})},
		{"PutClusterCapacityProviders", errorOutcome(func(c *containers) error {
			_, err := c.ecs.PutClusterCapacityProviders(ctx, &ecs.PutClusterCapacityProvidersInput{Cluster: cluster, CapacityProviders: []string{"FARGATE"},
				DefaultCapacityProviderStrategy: []types.CapacityProviderStrategyItem{{CapacityProvider: aws.String("FARGATE"), Weight: 2}}})
			return err
		})},
		{"DescribeChanged", describe},
		{"ListClusters", func(c *containers) outcome {
			out, err := c.ecs.ListClusters(ctx, &ecs.ListClustersInput{})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"clusters": strconv.Itoa(len(out.ClusterArns))})
		}},
		{"TagResource", errorOutcome(func(c *containers) error {
			_, err := c.ecs.TagResource(ctx, &ecs.TagResourceInput{ResourceArn: clusterARN(c, *cluster), Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")}}})
			return err
		})},
		{"UntagResource", errorOutcome(func(c *containers) error {
			_, err := c.ecs.UntagResource(ctx, &ecs.UntagResourceInput{ResourceArn: clusterARN(c, *cluster), TagKeys: []string{"team"}})
			return err
		})},
		{"ListTagsForResource", func(c *containers) outcome {
			out, err := c.ecs.ListTagsForResource(ctx, &ecs.ListTagsForResourceInput{ResourceArn: clusterARN(c, *cluster)})
			if err != nil {
				return observe(err, nil)
			}
			var tags []string
			for _, t := range out.Tags {
				tags = append(tags, aws.ToString(t.Key)+"="+aws.ToString(t.Value))
			}
			return observe(nil, map[string]string{"tags": strings.Join(tags, ",")})
		}},
		{"RegisterTaskDefinition", func(c *containers) outcome {
			out, err := c.ecs.RegisterTaskDefinition(ctx, &ecs.RegisterTaskDefinitionInput{Family: aws.String("diff-web"),
				ContainerDefinitions: []types.ContainerDefinition{{Name: aws.String("web"), Image: aws.String("nginx:1.27"), Memory: aws.Int32(256)}}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"revision": strconv.Itoa(int(out.TaskDefinition.Revision)), "status": string(out.TaskDefinition.Status)})
		}},
		{"DescribeTaskDefinition", func(c *containers) outcome {
			out, err := c.ecs.DescribeTaskDefinition(ctx, &ecs.DescribeTaskDefinitionInput{TaskDefinition: aws.String("diff-web")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"family": aws.ToString(out.TaskDefinition.Family), "revision": strconv.Itoa(int(out.TaskDefinition.Revision))})
		}},
		{"CreateService", func(c *containers) outcome {
			out, err := c.ecs.CreateService(ctx, &ecs.CreateServiceInput{Cluster: cluster, ServiceName: aws.String("web"), TaskDefinition: aws.String("diff-web"),
				DesiredCount: aws.Int32(2), LaunchType: types.LaunchTypeEc2})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"arn": accountPart.ReplaceAllString(aws.ToString(out.Service.ServiceArn), ":<account>:"),
				"desired": strconv.Itoa(int(out.Service.DesiredCount)), "status": aws.ToString(out.Service.Status)})
		}},
		{"CreateServiceAgain", errorOutcome(func(c *containers) error {
			_, err := c.ecs.CreateService(ctx, &ecs.CreateServiceInput{Cluster: cluster, ServiceName: aws.String("web"), TaskDefinition: aws.String("diff-web"),
				DesiredCount: aws.Int32(2), LaunchType: types.LaunchTypeEc2})
			return err
		})},
		{"DescribeWithService", func(c *containers) outcome {
			c.settle()
			return describe(c)
		}},
		{"ListServices", func(c *containers) outcome {
			out, err := c.ecs.ListServices(ctx, &ecs.ListServicesInput{Cluster: cluster})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"services": strconv.Itoa(len(out.ServiceArns))})
		}},
		{"DeleteClusterWithService", errorOutcome(func(c *containers) error {
			_, err := c.ecs.DeleteCluster(ctx, &ecs.DeleteClusterInput{Cluster: cluster})
			return err
		})},
		{"UpdateService", errorOutcome(func(c *containers) error {
			_, err := c.ecs.UpdateService(ctx, &ecs.UpdateServiceInput{Cluster: cluster, Service: aws.String("web"), DesiredCount: aws.Int32(0)})
			return err
		})},
		{"DeleteService", func(c *containers) outcome {
			out, err := c.ecs.DeleteService(ctx, &ecs.DeleteServiceInput{Cluster: cluster, Service: aws.String("web")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": aws.ToString(out.Service.Status)})
		}},
		{"DescribeServices", func(c *containers) outcome {
			c.settle()
			out, err := c.ecs.DescribeServices(ctx, &ecs.DescribeServicesInput{Cluster: cluster, Services: []string{"web", "missing"}})
			if err != nil {
				return observe(err, nil)
			}
			var statuses []string
			for _, s := range out.Services {
				statuses = append(statuses, aws.ToString(s.Status))
			}
			return observe(nil, map[string]string{"services": strings.Join(statuses, ","), "failures": strconv.Itoa(len(out.Failures))})
		}},
		{"DeregisterTaskDefinition", errorOutcome(func(c *containers) error {
			_, err := c.ecs.DeregisterTaskDefinition(ctx, &ecs.DeregisterTaskDefinitionInput{TaskDefinition: aws.String("diff-web:1")})
			return err
		})},
		{"DeleteCluster", func(c *containers) outcome {
			out, err := c.ecs.DeleteCluster(ctx, &ecs.DeleteClusterInput{Cluster: cluster})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": aws.ToString(out.Cluster.Status)})
		}},
		{"DescribeDeleted", describe},
		{"DeleteAgain", errorOutcome(func(c *containers) error {
			_, err := c.ecs.DeleteCluster(ctx, &ecs.DeleteClusterInput{Cluster: cluster})
			return err
		})},
		{"CreateBadInsights", errorOutcome(func(c *containers) error {
			_, err := c.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{ClusterName: aws.String("diff-bad"),
				Settings: []types.ClusterSetting{{Name: types.ClusterSettingNameContainerInsights, Value: aws.String("sometimes")}}})
			return err
		})},
		{"CreateUnknownProvider", errorOutcome(func(c *containers) error {
			_, err := c.ecs.CreateCluster(ctx, &ecs.CreateClusterInput{ClusterName: aws.String("diff-bad"), CapacityProviders: []string{"diff-asg"}})
			return err
		})},
	}
}

// clusterARN returns the ARN of a cluster of the side, asking ListClusters (the sides run
// different default accounts).
func clusterARN(c *containers, name string) *string {
	out, err := c.ecs.ListClusters(context.Background(), &ecs.ListClustersInput{})
	if err == nil {
		for _, arn := range out.ClusterArns {
			if strings.HasSuffix(arn, ":cluster/"+name) {
				return aws.String(arn)
			}
		}
	}
	return aws.String("arn:aws:ecs:us-east-1:000000000000:cluster/" + name)
}

// TestECSAgainstMoto compares ECS with moto's.
func TestECSAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	// The service runs on EC2 with the bridge network mode: moto answers HTTP 500 to a Fargate
	// service in a subnet of its own EC2. Neither side has container instances, so no task runs.
	emuSide := &containers{ecs: ecs.NewFromConfig(sdkConfig(t, emu.URL)), settle: func() { e.Clock.Advance(time.Minute) }}
	peerSide := &containers{ecs: ecs.NewFromConfig(sdkConfig(t, peerURL)), settle: func() {}}
	compare(t, emuSide, peerSide, "moto "+motoVersion, ecsSteps(), map[string]string{
		"CreateClusterAgain": "moto replaces an ACTIVE cluster created again with a new one, without its settings, capacity providers and tags; " +
			"AWS answers the existing cluster unchanged",
		"DescribeCluster":       "follows from CreateClusterAgain: moto's cluster lost its settings, capacity providers, strategy and tags",
		"DescribeChanged":       "follows from CreateClusterAgain: moto's cluster lost its tags",
		"UpdateClusterSettings": "moto does not implement UpdateClusterSettings (HTTP 500, NotImplementedError)",
		"CreateServiceAgain": "moto answers a service name that exists in the cluster with the service; AWS answers InvalidParameterException " +
			"(\"Creation of service was not idempotent.\") unless the request repeats an earlier clientToken",
		"DescribeWithService":      "moto counts no active service in the cluster; AWS's activeServicesCount counts the ACTIVE services",
		"DeleteClusterWithService": "moto deletes a cluster with an active service; AWS answers ClusterContainsServicesException (DeleteCluster)",
		"DeleteAgain":              "moto deletes an INACTIVE cluster again; AWS answers ClusterNotFoundException, as for every call on an inactive cluster",
		"CreateBadInsights":        "moto accepts any containerInsights value; AWS takes enabled, disabled or enhanced (ClusterSetting) and answers InvalidParameterException",
		"CreateUnknownProvider": "moto accepts a capacity provider that does not exist; AWS answers InvalidParameterException " +
			"(CreateCluster, capacityProviders: FARGATE, FARGATE_SPOT or a provider created with CreateCapacityProvider)",
	})
}
