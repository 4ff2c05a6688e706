package ecs

import (
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The statuses of clusters and services.
const (
	statusActive   = "ACTIVE"
	statusDraining = "DRAINING"
	statusInactive = "INACTIVE"
)

// cluster is one ECS cluster.
type cluster struct {
	name, arn, status string
	// insights is the Container Insights setting: enabled, disabled or enhanced.
	insights      string
	providers     []string
	strategy      []types.CapacityProviderStrategyItem
	namespace     string
	configuration *types.ClusterConfiguration
	// services by name, INACTIVE ones included.
	services map[string]*service
}

// clusterNamePattern is the form of a cluster name: up to 255 letters, digits, hyphens and
// underscores.
var clusterNamePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,255}$`)

// counts returns the cluster's services that are ACTIVE by launch type (FARGATE, EC2) and
// DRAINING, and its running and pending tasks by launch type, at now.
func (c *cluster) counts(now time.Time) (active, draining, running, pending map[string]int32) {
	active, draining, running, pending = map[string]int32{}, map[string]int32{}, map[string]int32{}, map[string]int32{}
	for _, s := range c.services {
		s.settle(now)
		kind := s.kind()
		switch s.status {
		case statusActive:
			active[kind]++
		case statusDraining:
			draining[kind]++
		}
		r, p := s.counts("", now)
		running[kind] += r
		pending[kind] += p
	}
	return active, draining, running, pending
}

// full returns everything about the cluster, as CreateCluster and the other cluster changes
// answer it.
func (b *Backend) full(c *cluster, now time.Time) types.Cluster {
	active, draining, running, pending := c.counts(now)
	out := types.Cluster{
		ClusterName: aws.String(c.name), ClusterArn: aws.String(c.arn), Status: aws.String(c.status),
		ActiveServicesCount: active[fargate] + active[ec2], RunningTasksCount: running[fargate] + running[ec2],
		PendingTasksCount: pending[fargate] + pending[ec2],
		CapacityProviders: append([]string{}, c.providers...), DefaultCapacityProviderStrategy: append([]types.CapacityProviderStrategyItem{}, c.strategy...),
		Settings:      []types.ClusterSetting{{Name: types.ClusterSettingNameContainerInsights, Value: aws.String(c.insights)}},
		Configuration: c.configuration,
		Tags:          core.TagList(b.tags, c.arn, core.NewTag[types.Tag]),
		Statistics: []types.KeyValuePair{
			stat("runningEC2TasksCount", running[ec2]), stat("runningFargateTasksCount", running[fargate]),
			stat("pendingEC2TasksCount", pending[ec2]), stat("pendingFargateTasksCount", pending[fargate]),
			stat("activeEC2ServiceCount", active[ec2]), stat("activeFargateServiceCount", active[fargate]),
			stat("drainingEC2ServiceCount", draining[ec2]), stat("drainingFargateServiceCount", draining[fargate]),
		},
	}
	if c.namespace != "" {
		out.ServiceConnectDefaults = &types.ClusterServiceConnectDefaults{Namespace: aws.String(c.namespace)}
	}
	return out
}

// stat is one statistic of DescribeClusters.
func stat(name string, n int32) types.KeyValuePair {
	return types.KeyValuePair{Name: aws.String(name), Value: aws.String(strconv.Itoa(int(n)))}
}

// checkSettings returns a request's Container Insights setting ("" when it gives none), or the
// error for a setting ECS does not have or a value other than enabled, disabled or enhanced.
func checkSettings(settings []types.ClusterSetting) (string, error) {
	insights := ""
	for _, s := range settings {
		if s.Name != types.ClusterSettingNameContainerInsights {
			return "", invalidParameter("Unsupported cluster setting name '%s'. The supported setting name is containerInsights.", s.Name)
		}
		switch v := aws.ToString(s.Value); v {
		case "enabled", "disabled", "enhanced":
			insights = v
		default:
			return "", invalidParameter("Unsupported value '%s' for the containerInsights setting. Valid values are enabled, disabled and enhanced.", v)
		}
	}
	return insights, nil
}

// createCluster creates a cluster, or answers the ACTIVE cluster of that name as it is.
func (b *Backend) createCluster(call *core.Call, in *ecs.CreateClusterInput) (*ecs.CreateClusterOutput, error) {
	name := aws.ToString(in.ClusterName)
	if in.ClusterName == nil {
		name = "default"
	}
	if !clusterNamePattern.MatchString(name) {
		return nil, invalidParameter("Cluster name can only contain letters, numbers, hyphens and underscores, and be 1 to 255 characters long.")
	}
	insights, err := checkSettings(in.Settings)
	if err != nil {
		return nil, err
	}
	if insights == "" {
		insights = "disabled"
	}
	if err := checkStrategy(in.DefaultCapacityProviderStrategy, in.CapacityProviders); err != nil {
		return nil, err
	}
	tags, err := core.RequestTags(tagRules, in.Tags, core.TagPair[types.Tag])
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.CreateClusterOutput, error) {
		if c, ok := r.clusters[name]; ok && c.status == statusActive {
			return &ecs.CreateClusterOutput{Cluster: ptr(b.full(c, call.Now))}, nil
		}
		c := &cluster{name: name, arn: call.Scope().ARN("ecs", "cluster/"+name), status: statusActive, insights: insights,
			providers: slices.Clone(in.CapacityProviders), strategy: slices.Clone(in.DefaultCapacityProviderStrategy),
			configuration: in.Configuration, services: map[string]*service{}}
		if in.ServiceConnectDefaults != nil {
			if c.namespace, err = r.namespace(call, in.ServiceConnectDefaults.Namespace); err != nil {
				return nil, err
			}
		}
		if err := b.tags.Replace(c.arn, tags); err != nil {
			return nil, err
		}
		r.clusters[name] = c
		return &ecs.CreateClusterOutput{Cluster: ptr(b.full(c, call.Now))}, nil
	})
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// describeClusters describes the clusters a request names (the default cluster when it names
// none), ACTIVE or INACTIVE; each it cannot find is a MISSING failure. Settings, statistics,
// configuration and tags are included only when the request asks for them.
func (b *Backend) describeClusters(call *core.Call, in *ecs.DescribeClustersInput) (*ecs.DescribeClustersOutput, error) {
	refs := in.Clusters
	if len(refs) == 0 {
		refs = []string{"default"}
	}
	if len(refs) > 100 {
		return nil, invalidParameter("Clusters cannot have more than 100 elements")
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.DescribeClustersOutput, error) {
		out := &ecs.DescribeClustersOutput{Clusters: []types.Cluster{}, Failures: []types.Failure{}}
		for _, ref := range refs {
			name := clusterName(&ref)
			c, ok := r.clusters[name]
			if !ok {
				out.Failures = append(out.Failures, types.Failure{Arn: aws.String(call.Scope().ARN("ecs", "cluster/"+name)), Reason: aws.String("MISSING")})
				continue
			}
			d := b.full(c, call.Now)
			if !slices.Contains(in.Include, types.ClusterFieldSettings) {
				d.Settings = nil
			}
			if !slices.Contains(in.Include, types.ClusterFieldStatistics) {
				d.Statistics = nil
			}
			if !slices.Contains(in.Include, types.ClusterFieldConfigurations) {
				d.Configuration = nil
			}
			if !slices.Contains(in.Include, types.ClusterFieldTags) {
				d.Tags = nil
			}
			out.Clusters = append(out.Clusters, d)
		}
		return out, nil
	})
}

// listClusters lists the ARNs of the region's ACTIVE clusters by pages of up to 100.
func (b *Backend) listClusters(call *core.Call, in *ecs.ListClustersInput) (*ecs.ListClustersOutput, error) {
	size, err := pageSize(in.MaxResults, 100)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ecs.ListClustersOutput, error) {
		var arns []string
		for _, name := range core.SortedKeys(r.clusters) {
			if c := r.clusters[name]; c.status == statusActive {
				arns = append(arns, c.arn)
			}
		}
		page, next, err := paginate(arns, in.NextToken, size)
		if err != nil {
			return nil, err
		}
		return &ecs.ListClustersOutput{ClusterArns: append([]string{}, page...), NextToken: next}, nil
	})
}

// updateCluster changes a cluster's settings, configuration and Service Connect defaults.
func (b *Backend) updateCluster(call *core.Call, in *ecs.UpdateClusterInput) (*ecs.UpdateClusterOutput, error) {
	insights, err := checkSettings(in.Settings)
	if err != nil {
		return nil, err
	}
	return withCluster(b, call, in.Cluster, func(r *region, c *cluster) (*ecs.UpdateClusterOutput, error) {
		if in.ServiceConnectDefaults != nil {
			ns, err := r.namespace(call, in.ServiceConnectDefaults.Namespace)
			if err != nil {
				return nil, err
			}
			c.namespace = ns
		}
		if insights != "" {
			c.insights = insights
		}
		if in.Configuration != nil {
			c.configuration = in.Configuration
		}
		return &ecs.UpdateClusterOutput{Cluster: ptr(b.full(c, call.Now))}, nil
	})
}

// updateClusterSettings changes a cluster's Container Insights setting.
func (b *Backend) updateClusterSettings(call *core.Call, in *ecs.UpdateClusterSettingsInput) (*ecs.UpdateClusterSettingsOutput, error) {
	if len(in.Settings) == 0 {
		return nil, invalidParameter("Settings cannot be empty.")
	}
	insights, err := checkSettings(in.Settings)
	if err != nil {
		return nil, err
	}
	return withCluster(b, call, in.Cluster, func(r *region, c *cluster) (*ecs.UpdateClusterSettingsOutput, error) {
		c.insights = insights
		return &ecs.UpdateClusterSettingsOutput{Cluster: ptr(b.full(c, call.Now))}, nil
	})
}

// putClusterCapacityProviders replaces a cluster's capacity providers and default strategy; a
// provider an active service's strategy uses cannot be removed.
func (b *Backend) putClusterCapacityProviders(call *core.Call, in *ecs.PutClusterCapacityProvidersInput) (*ecs.PutClusterCapacityProvidersOutput, error) {
	if in.CapacityProviders == nil || in.DefaultCapacityProviderStrategy == nil {
		return nil, invalidParameter("capacityProviders and defaultCapacityProviderStrategy are required; send empty lists to remove them.")
	}
	if err := checkStrategy(in.DefaultCapacityProviderStrategy, in.CapacityProviders); err != nil {
		return nil, err
	}
	return withCluster(b, call, in.Cluster, func(r *region, c *cluster) (*ecs.PutClusterCapacityProvidersOutput, error) {
		for _, s := range c.services {
			if s.status == statusInactive {
				continue
			}
			for _, item := range s.strategy {
				if !slices.Contains(in.CapacityProviders, aws.ToString(item.CapacityProvider)) {
					return nil, core.Errorf("ResourceInUseException", "The specified capacity provider %s is in use and cannot be removed.", aws.ToString(item.CapacityProvider))
				}
			}
		}
		c.providers, c.strategy = slices.Clone(in.CapacityProviders), slices.Clone(in.DefaultCapacityProviderStrategy)
		return &ecs.PutClusterCapacityProvidersOutput{Cluster: ptr(b.full(c, call.Now))}, nil
	})
}

// deleteCluster makes a cluster INACTIVE, unless it has active services or running tasks.
func (b *Backend) deleteCluster(call *core.Call, in *ecs.DeleteClusterInput) (*ecs.DeleteClusterOutput, error) {
	return withCluster(b, call, in.Cluster, func(r *region, c *cluster) (*ecs.DeleteClusterOutput, error) {
		active, _, running, pending := c.counts(call.Now)
		if active[fargate]+active[ec2] > 0 {
			return nil, core.Errorf("ClusterContainsServicesException", "The Cluster cannot be deleted while Services are active.")
		}
		if running[fargate]+running[ec2]+pending[fargate]+pending[ec2] > 0 {
			return nil, core.Errorf("ClusterContainsTasksException", "The Cluster cannot be deleted while Tasks are active.")
		}
		c.status = statusInactive
		return &ecs.DeleteClusterOutput{Cluster: ptr(b.full(c, call.Now))}, nil
	})
}
