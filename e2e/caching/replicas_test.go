package caching_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// replicationGroup reads replication group id from ElastiCache.
func (h *harness) replicationGroup(t testing.TB, id string) types.ReplicationGroup {
	t.Helper()
	out, err := h.ec.DescribeReplicationGroups(context.Background(), &elasticache.DescribeReplicationGroupsInput{ReplicationGroupId: aws.String(id)})
	if err != nil {
		t.Fatalf("describe replication group %s: %v", id, err)
	}
	return out.ReplicationGroups[0]
}

// TestElastiCacheClusterReplicaCounts follows a Redis cluster encrypted at rest, a replication
// group of one node, as its node count changes the way AWS changes it: up to three with
// IncreaseReplicaCount, then automatic failover and Multi-AZ turned on; a steady sync after
// that asks for nothing; down to two at once even with applyImmediately false (AWS changes
// replica counts only at once); down to one with failover turned off first, then
// DecreaseReplicaCount.
func TestElastiCacheClusterReplicaCounts(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnet, _ := h.network(t, "10.9.0.0/16", "10.9.1.0/24")
	h.subnetGroup(t, "cache", subnet)
	c := newCluster(ns, "grow", func(c *v1alpha1.ElastiCacheCluster) { c.Spec.AtRestEncryptionEnabled = true })
	kubetest.Create(t, h.c, c)
	c = kubetest.WaitReady(t, h.c, c)
	id := c.Spec.ClusterID
	if c.Status.Mode != v1alpha1.ModeReplicationGroup || len(c.Status.NodeEndpoints) != 1 {
		t.Fatalf("status: %+v", c.Status)
	}

	// nodes waits until the object reports n nodes, Ready for its generation.
	nodes := func(n int) {
		t.Helper()
		c = kubetest.WaitFor(t, h.c, c, time.Minute, "the new node count", func(c *v1alpha1.ElastiCacheCluster) bool {
			return len(c.Status.NodeEndpoints) == n && isReady(c) && c.Status.ObservedGeneration == c.Generation
		})
	}
	h.emu.Calls.Reset()
	kubetest.Update(t, h.c, c, func(c *v1alpha1.ElastiCacheCluster) { c.Spec.NumCacheNodes = 3 })
	nodes(3)
	testenv.Eventually(t, 30*time.Second, func() string {
		if g := h.replicationGroup(t, id); g.AutomaticFailover != types.AutomaticFailoverStatusEnabled || g.MultiAZ != types.MultiAZStatusEnabled {
			return "failover is " + string(g.AutomaticFailover)
		}
		return ""
	})
	if g := h.replicationGroup(t, id); strings.Join(g.MemberClusters, ",") != id+"-001,"+id+"-002,"+id+"-003" {
		t.Errorf("members after the increase: %v", g.MemberClusters)
	}
	if calls := h.calls(); calls["IncreaseReplicaCount"] != 1 || calls["ModifyReplicationGroup"] != 1 {
		t.Errorf("the increase took %v", calls)
	}

	h.emu.Calls.Reset()
	kubetest.Resync(t, h.c, c)
	testenv.Eventually(t, 30*time.Second, func() string {
		if h.calls()["DescribeReplicationGroups"] == 0 {
			return "no sync yet"
		}
		return ""
	})
	time.Sleep(500 * time.Millisecond)
	for _, op := range []string{"IncreaseReplicaCount", "DecreaseReplicaCount", "ModifyReplicationGroup"} {
		if n := h.calls()[op]; n != 0 {
			t.Errorf("a steady sync called %s %d times", op, n)
		}
	}

	kubetest.Update(t, h.c, c, func(c *v1alpha1.ElastiCacheCluster) {
		c.Spec.NumCacheNodes, c.Spec.ApplyImmediately = 2, aws.Bool(false)
	})
	nodes(2)
	if g := h.replicationGroup(t, id); g.AutomaticFailover != types.AutomaticFailoverStatusEnabled || len(g.MemberClusters) != 2 {
		t.Errorf("after the decrease to two: %s %v", g.AutomaticFailover, g.MemberClusters)
	}

	h.emu.Calls.Reset()
	kubetest.Update(t, h.c, c, func(c *v1alpha1.ElastiCacheCluster) { c.Spec.NumCacheNodes = 1 })
	nodes(1)
	if g := h.replicationGroup(t, id); g.AutomaticFailover != types.AutomaticFailoverStatusDisabled || g.MultiAZ != types.MultiAZStatusDisabled ||
		strings.Join(g.MemberClusters, ",") != id+"-001" {
		t.Errorf("after the decrease to one: %s %s %v", g.AutomaticFailover, g.MultiAZ, g.MemberClusters)
	}
	if calls := h.calls(); calls["ModifyReplicationGroup"] != 1 || calls["DecreaseReplicaCount"] != 1 {
		t.Errorf("the decrease to one took %v", calls)
	}
	kubetest.Delete(t, h.c, c)
}

// TestElastiCacheClusterSubnetGroupFixable applies a cluster naming a subnet group that does
// not exist (a seed placeholder left in): it waits (GroupNotFound) with nothing made in AWS, the
// name can be corrected, the cluster is then made in the right group, and from then on the
// name cannot change.
func TestElastiCacheClusterSubnetGroupFixable(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnet, _ := h.network(t, "10.10.0.0/16", "10.10.1.0/24")
	h.subnetGroup(t, "cache", subnet)
	c := newCluster(ns, "fixable", func(c *v1alpha1.ElastiCacheCluster) { c.Spec.SubnetGroupName = "production-cache-subnet-group" })
	kubetest.Create(t, h.c, c)
	c = kubetest.WaitCondition(t, h.c, c, "Ready", "False", condition.ReasonGroupNotFound)
	if _, err := h.ec.DescribeCacheClusters(context.Background(), &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String(c.Spec.ClusterID)}); !strings.Contains(errString(err), "CacheClusterNotFound") {
		t.Fatalf("a cluster was made in a missing subnet group: %v", err)
	}

	kubetest.Update(t, h.c, c, func(c *v1alpha1.ElastiCacheCluster) { c.Spec.SubnetGroupName = "cache" })
	c = kubetest.WaitReady(t, h.c, c)
	if c.Status.SubnetGroupName != "cache" || c.Status.ClusterID == "" {
		t.Errorf("status: %+v", c.Status)
	}
	changed := c.DeepCopy()
	changed.Spec.SubnetGroupName = "other"
	if err := h.c.Update(t.Context(), changed); err == nil || !strings.Contains(err.Error(), "spec.subnetGroupName cannot change once the cluster exists") {
		t.Errorf("the subnet group of a made cluster changed: %v", err)
	}
	kubetest.Delete(t, h.c, c)
}
