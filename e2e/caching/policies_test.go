package caching_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// The maintenance windows of TestPolicies: the spec's, and the one set outside the operator.
const (
	specWindow    = "sun:05:00-sun:06:00"
	driftedWindow = "mon:07:00-mon:08:00"
)

// TestPolicies runs the shared policy check on a Memcached ElastiCacheCluster: its outputs in
// a ConfigMap, a maintenance window changed outside the operator reported (driftPolicy Report)
// and then restored (Enforce), and a second object that only observes the cluster. A cluster
// being deleted counts as gone.
func TestPolicies(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnet, _ := h.network(t, "10.9.0.0/16", "10.9.1.0/24")
	h.subnetGroup(t, "cache", subnet)
	id := ns + "-policy-check"
	describe := func(ctx context.Context) (*types.CacheCluster, error) {
		out, err := h.ec.DescribeCacheClusters(ctx, &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String(id)})
		if err != nil {
			return nil, err
		}
		return &out.CacheClusters[0], nil
	}
	kubetest.RunPolicyCheck(t, h.c, kubetest.PolicyCheck[*v1alpha1.ElastiCacheCluster]{
		New: func(name string) *v1alpha1.ElastiCacheCluster {
			return newCluster(ns, name, func(c *v1alpha1.ElastiCacheCluster) {
				c.Spec.ClusterID, c.Spec.Engine, c.Spec.EngineVersion = id, "memcached", "1.6.17"
				c.Spec.PreferredMaintenanceWindow = specWindow
				c.Spec.Tags = map[string]string{"team": "caching"}
			})
		},
		Outputs: []string{"clusterID", "arn", "endpoint", "port"},
		Drift: func(ctx context.Context, _ *v1alpha1.ElastiCacheCluster) error {
			_, err := h.ec.ModifyCacheCluster(ctx, &elasticache.ModifyCacheClusterInput{CacheClusterId: aws.String(id),
				PreferredMaintenanceWindow: aws.String(driftedWindow), ApplyImmediately: aws.Bool(true)})
			return err
		},
		DriftField: "preferredMaintenanceWindow",
		Drifted: func(ctx context.Context, _ *v1alpha1.ElastiCacheCluster) (bool, error) {
			cl, err := describe(ctx)
			return err == nil && aws.ToString(cl.PreferredMaintenanceWindow) == driftedWindow, err
		},
		Exists: func(ctx context.Context, _ *v1alpha1.ElastiCacheCluster) (bool, error) {
			cl, err := describe(ctx)
			if found, err := kubetest.Found(err); !found {
				return false, err
			}
			return aws.ToString(cl.CacheClusterStatus) != "deleting", nil
		},
	})
}
