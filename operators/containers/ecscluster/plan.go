package ecscluster

import (
	"context"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/containers/ecsutil"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// containerInsights is the name of the cluster setting for Container Insights.
const containerInsights = "containerInsights"

// plan adds to p the calls that bring the cluster's Container Insights setting, capacity
// providers and default strategy (one PutClusterCapacityProviders call), Service Connect
// namespace and tags in line with the spec. The plan shows the providers and the strategy as
// they are compared (sorted; the strategy as provider/weight/base), and the namespace, compared
// by ARN while the spec may name it, by name only.
func (d *driver) plan(p *managed.Plan, c *v1alpha1.ECSCluster, cl types.Cluster, observed, desired map[string]string) {
	name := cl.ClusterName
	if want := insights(c); insightsOf(cl) != want {
		p.AddValue("containerInsights", insightsOf(cl), want, func(ctx context.Context) error {
			_, err := d.api.UpdateClusterSettings(ctx, &ecs.UpdateClusterSettingsInput{Cluster: name, Settings: settings(want)})
			return managed.Wrap(err, "set Container Insights of cluster %s", aws.ToString(name))
		})
	}
	if !managed.SameSet(c.Spec.CapacityProviders, cl.CapacityProviders) || !managed.SameSet(ecsutil.StrategyKeys(ecsutil.Strategy(c.Spec.DefaultCapacityProviderStrategy)), ecsutil.StrategyKeys(cl.DefaultCapacityProviderStrategy)) {
		values := map[string]managed.Values{
			"capacityProviders":               managed.ValuesOf(providerSet(cl.CapacityProviders), providerSet(c.Spec.CapacityProviders)),
			"defaultCapacityProviderStrategy": managed.ValuesOf(ecsutil.StrategyKeys(cl.DefaultCapacityProviderStrategy), ecsutil.StrategyKeys(ecsutil.Strategy(c.Spec.DefaultCapacityProviderStrategy))),
		}
		p.AddFieldValues([]string{"capacityProviders", "defaultCapacityProviderStrategy"}, values, func(ctx context.Context) error {
			_, err := d.api.PutClusterCapacityProviders(ctx, &ecs.PutClusterCapacityProvidersInput{
				Cluster: name, CapacityProviders: append([]string{}, c.Spec.CapacityProviders...), DefaultCapacityProviderStrategy: ecsutil.Strategy(c.Spec.DefaultCapacityProviderStrategy)})
			return managed.Wrap(err, "put the capacity providers of cluster %s", aws.ToString(name))
		})
	}
	if namespaceDiffers(c, namespaceOf(cl)) {
		p.Add("serviceConnectDefaults", func(ctx context.Context) error {
			out, err := d.api.UpdateCluster(ctx, &ecs.UpdateClusterInput{Cluster: name,
				ServiceConnectDefaults: &types.ClusterServiceConnectDefaultsRequest{Namespace: aws.String(namespace(c))}})
			if err != nil {
				return managed.Wrap(err, "set the Service Connect namespace of cluster %s", aws.ToString(name))
			}
			recordNamespace(c, out.Cluster)
			return nil
		})
	}
	ecsutil.PlanTags(p, d.api, cl.ClusterArn, "cluster "+aws.ToString(name), desired, observed)
}

// insights returns the Container Insights setting the spec asks for.
func insights(c *v1alpha1.ECSCluster) string {
	if c.Spec.ContainerInsights == "" {
		return "disabled"
	}
	return c.Spec.ContainerInsights
}

// insightsOf returns the cluster's Container Insights setting; ECS's default is disabled.
func insightsOf(cl types.Cluster) string {
	for _, s := range cl.Settings {
		if s.Name == containerInsights {
			return aws.ToString(s.Value)
		}
	}
	return "disabled"
}

// settings returns the cluster settings that set Container Insights to value.
func settings(value string) []types.ClusterSetting {
	return []types.ClusterSetting{{Name: containerInsights, Value: aws.String(value)}}
}

// providerSet is how a plan shows a set of capacity providers: sorted, without repeats, and []
// for none.
func providerSet(names []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(append([]string{}, names...))))
}

// namespace returns the Service Connect namespace the spec names, "" for none.
func namespace(c *v1alpha1.ECSCluster) string {
	if d := c.Spec.ServiceConnectDefaults; d != nil {
		return d.Namespace
	}
	return ""
}

// namespaceDiffers reports whether the cluster's namespace ARN got (ECS reports a namespace only
// by ARN) is not the namespace the spec names, both in one normal form, the ARN. A namespace
// given by ARN is its own; one given by name has the ARN ECS resolved it to when the operator
// last set it (status), and an unknown ARN (a name the operator has not set yet) differs.
func namespaceDiffers(c *v1alpha1.ECSCluster, got string) bool {
	want := namespace(c)
	switch {
	case want == "" || strings.HasPrefix(want, "arn:"):
		return got != want
	case c.Status.ServiceConnectNamespace != want || c.Status.ServiceConnectNamespaceARN == "":
		return true
	}
	return got != c.Status.ServiceConnectNamespaceARN
}
