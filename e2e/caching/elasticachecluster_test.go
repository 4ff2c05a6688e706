package caching_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// seedMeta returns the metadata naming the seed example name in namespace ns.
func seedMeta(ns, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: ns, Name: name}
}

// swapPlaceholders makes, through EC2 and ElastiCache, what the seed examples assume a user has
// (a VPC's subnet and security group, and the Redis example's subnet group) and applies both
// examples verbatim into default, the Redis example with the real security group for sg-xxx;
// the Memcached example has no placeholder: it relies on the default VPC's "default" cache
// subnet group, which the emulated account has as an AWS account does.
func (h *harness) swapPlaceholders(t testing.TB, cidr, subnetCIDR string) {
	t.Helper()
	subnet, group := h.network(t, cidr, subnetCIDR)
	h.subnetGroup(t, "production-cache-subnet-group", subnet)
	h.provider(t, "default", "production-aws")
	h.applySwapped(t, "elasticachecluster-redis.yaml", "default", map[string]any{"securityGroupIDs": []any{group}})
	h.applySwapped(t, "elasticachecluster-memcached.yaml", "default", nil)
}

// TestElastiCacheClusterSeedExamples applies both seed examples verbatim with their
// placeholders swapped for real ids. The Redis example, encrypted at rest, becomes a
// replication group with the seed's snapshot, maintenance, encryption and tag settings and its
// primary, reader and node endpoints in status; the Memcached example, applied as it is,
// becomes a standalone cluster of three nodes across zones in the default VPC's "default"
// subnet group, with its configuration endpoint, and loses a node when numCacheNodes goes down.
// Deleting them follows their policies: the Redis group (Retain) stays in AWS, the Memcached
// cluster (Delete) goes, and the "default" subnet group, which is AWS's, stays.
func TestElastiCacheClusterSeedExamples(t *testing.T) {
	h := start(t)
	h.swapPlaceholders(t, "10.7.0.0/16", "10.7.1.0/24")
	ctx := context.Background()

	redis := kubetest.WaitReady(t, h.c, &v1alpha1.ElastiCacheCluster{ObjectMeta: seedMeta("default", "session-cache")})
	if s := redis.Status; s.Mode != v1alpha1.ModeReplicationGroup || s.ClusterID != "production-redis-01" || s.ClusterStatus != "available" ||
		!strings.Contains(s.Endpoint, ".ng.0001.") || s.Port != 6379 || !strings.HasPrefix(s.ReaderEndpoint, "production-redis-01-ro.") ||
		len(s.NodeEndpoints) != 1 || !strings.HasSuffix(s.NodeEndpoints[0], ":6379") || s.EngineVersion != "7.0" || s.NodeType != "cache.t3.medium" ||
		s.SubnetGroupName != "production-cache-subnet-group" || s.AuthTokenHash != "" {
		t.Errorf("redis status: %+v", s)
	}
	groups, err := h.ec.DescribeReplicationGroups(ctx, &elasticache.DescribeReplicationGroupsInput{ReplicationGroupId: aws.String("production-redis-01")})
	if err != nil {
		t.Fatal(err)
	}
	if g := groups.ReplicationGroups[0]; !aws.ToBool(g.AtRestEncryptionEnabled) || !aws.ToBool(g.TransitEncryptionEnabled) ||
		aws.ToInt32(g.SnapshotRetentionLimit) != 5 || aws.ToString(g.SnapshotWindow) != "03:00-05:00" {
		t.Errorf("replication group: %+v", g)
	}
	member := h.cacheCluster(t, "production-redis-01-001")
	if aws.ToString(member.PreferredMaintenanceWindow) != "sun:05:00-sun:07:00" || len(member.SecurityGroups) != 1 {
		t.Errorf("member cluster: %+v", member)
	}
	tags := h.tags(t, aws.ToString(groups.ReplicationGroups[0].ARN))
	if tags["Application"] != "session-store" || tags["Environment"] != "production" || tags[shared.TagOwnerUID] != string(redis.UID) {
		t.Errorf("replication group tags: %v", tags)
	}

	mc := kubetest.WaitReady(t, h.c, &v1alpha1.ElastiCacheCluster{ObjectMeta: seedMeta("default", "object-cache")})
	if s := mc.Status; s.Mode != v1alpha1.ModeCacheCluster || s.ClusterID != "production-memcached-01" || !strings.Contains(s.Endpoint, ".cfg.") ||
		s.Port != 11211 || len(s.NodeEndpoints) != 3 || s.SubnetGroupName != "default" || s.EngineVersion != "1.6.17" {
		t.Errorf("memcached status: %+v", s)
	}
	if c := h.cacheCluster(t, "production-memcached-01"); aws.ToInt32(c.NumCacheNodes) != 3 || aws.ToString(c.PreferredAvailabilityZone) != "Multiple" {
		t.Errorf("memcached cluster: %+v", c)
	}

	kubetest.Update(t, h.c, mc, func(c *v1alpha1.ElastiCacheCluster) { c.Spec.NumCacheNodes = 2 })
	mc = kubetest.WaitFor(t, h.c, mc, time.Minute, "two nodes", func(c *v1alpha1.ElastiCacheCluster) bool {
		return len(c.Status.NodeEndpoints) == 2 && isReady(c) && c.Status.ObservedGeneration == c.Generation
	})
	if n := aws.ToInt32(h.cacheCluster(t, "production-memcached-01").NumCacheNodes); n != 2 {
		t.Errorf("the memcached cluster has %d nodes after its scale-in", n)
	}

	kubetest.Delete(t, h.c, redis)
	if _, err := h.ec.DescribeReplicationGroups(ctx, &elasticache.DescribeReplicationGroupsInput{ReplicationGroupId: aws.String("production-redis-01")}); err != nil {
		t.Errorf("the retained replication group: %v", err)
	}
	kubetest.Delete(t, h.c, mc)
	if _, err := h.ec.DescribeCacheClusters(ctx, &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String("production-memcached-01")}); !strings.Contains(errString(err), "CacheClusterNotFound") {
		t.Errorf("the deleted cluster: %v", err)
	}
	if _, err := h.ec.DescribeCacheSubnetGroups(ctx, &elasticache.DescribeCacheSubnetGroupsInput{CacheSubnetGroupName: aws.String("default")}); err != nil {
		t.Errorf("the default subnet group after the cluster went: %v", err)
	}
}

// cacheCluster reads cache cluster id with its nodes from ElastiCache.
func (h *harness) cacheCluster(t testing.TB, id string) *types.CacheCluster {
	t.Helper()
	out, err := h.ec.DescribeCacheClusters(context.Background(), &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String(id), ShowCacheNodeInfo: aws.Bool(true)})
	if err != nil {
		t.Fatalf("describe cache cluster %s: %v", id, err)
	}
	return &out.CacheClusters[0]
}

// tags reads the tags of ElastiCache resource arn.
func (h *harness) tags(t testing.TB, arn string) map[string]string {
	t.Helper()
	out, err := h.ec.ListTagsForResource(context.Background(), &elasticache.ListTagsForResourceInput{ResourceName: aws.String(arn)})
	if err != nil {
		t.Fatalf("list tags of %s: %v", arn, err)
	}
	m := map[string]string{}
	for _, tag := range out.TagList {
		m[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
	}
	return m
}

// errString returns err's text, or "" for nil.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
