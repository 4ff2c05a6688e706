package caching_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestElastiCacheClusterRefusesBadInput checks that specs AWS would refuse, or that would
// silently replace a cache, are refused at admission with the way out, and that what
// admission cannot see (a snapshot window meeting the maintenance window) is terminal with no
// AWS call.
func TestElastiCacheClusterRefusesBadInput(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	for name, tc := range map[string]struct {
		mutate func(*v1alpha1.ElastiCacheCluster)
		want   string
	}{
		"AuthTokenWithoutTransit": {func(c *v1alpha1.ElastiCacheCluster) {
			c.Spec.AuthTokenSecretRef = &shared.SecretKeySelector{Name: "auth", Key: "token"}
		}, "authTokenSecretRef needs transitEncryptionEnabled: true"},
		"SnapshotsOnMemcached": {func(c *v1alpha1.ElastiCacheCluster) {
			c.Spec.Engine, c.Spec.EngineVersion, c.Spec.SnapshotRetentionLimit = "memcached", "1.6.17", aws.Int32(5)
		}, "Memcached keeps no data on disk"},
		"AtRestOnMemcached": {func(c *v1alpha1.ElastiCacheCluster) {
			c.Spec.Engine, c.Spec.EngineVersion, c.Spec.AtRestEncryptionEnabled = "memcached", "1.6.17", true
		}, "atRestEncryptionEnabled is for redis and valkey only"},
		"TooManyRedisNodes": {func(c *v1alpha1.ElastiCacheCluster) { c.Spec.NumCacheNodes = 7 }, "a Redis OSS or Valkey cluster has 1 to 6 nodes"},
		"AZModeOnRedis":     {func(c *v1alpha1.ElastiCacheCluster) { c.Spec.AZMode = "cross-az" }, "azMode is for memcached only"},
		"SubnetGroupAndSubnets": {func(c *v1alpha1.ElastiCacheCluster) { c.Spec.SubnetIDs = []string{"subnet-0123456789abcdef0"} },
			"give the subnets either as subnetGroupName or as subnetIDs/subnetRefs"},
		"ShortMaintenanceWindow": {func(c *v1alpha1.ElastiCacheCluster) { c.Spec.PreferredMaintenanceWindow = "sun:05:00-sun:05:30" },
			"preferredMaintenanceWindow must be at least 60 minutes long"},
		"BadNodeType": {func(c *v1alpha1.ElastiCacheCluster) { c.Spec.NodeType = "t3.micro" }, "spec.nodeType"},
	} {
		t.Run(name, func(t *testing.T) {
			kubetest.MustRefuse(t, h.c, newCluster(ns, strings.ToLower(name), tc.mutate), tc.want)
		})
	}

	// Changes that would replace the cluster are refused on update, but for subnetGroupName,
	// which can change while the cluster is not made.
	c := newCluster(ns, "kept", func(c *v1alpha1.ElastiCacheCluster) {
		c.Spec.SnapshotWindow, c.Spec.PreferredMaintenanceWindow = "05:30-06:30", "sun:05:00-sun:07:00"
	})
	h.emu.Calls.Reset()
	kubetest.Create(t, h.c, c)
	c = kubetest.WaitCondition(t, h.c, c, "Synced", "False", condition.ReasonInvalidSpec)
	if msg := findCondition(c.Status.Conditions, "Synced").Message; !strings.Contains(msg, "snapshotWindow 05:30-06:30 overlaps preferredMaintenanceWindow") {
		t.Errorf("the overlap's refusal: %q", msg)
	}
	time.Sleep(300 * time.Millisecond)
	if calls := h.calls(); kubetest.Total(calls) != 0 {
		t.Errorf("a refused spec reached AWS: %v", calls)
	}
	for field, mutate := range map[string]func(*v1alpha1.ElastiCacheCluster){
		"engine cannot change":                                     func(c *v1alpha1.ElastiCacheCluster) { c.Spec.Engine = "valkey" },
		"clusterID cannot change":                                  func(c *v1alpha1.ElastiCacheCluster) { c.Spec.ClusterID = "renamed" },
		"atRestEncryptionEnabled cannot change":                    func(c *v1alpha1.ElastiCacheCluster) { c.Spec.AtRestEncryptionEnabled = true },
		"transitEncryptionEnabled cannot change":                   func(c *v1alpha1.ElastiCacheCluster) { c.Spec.TransitEncryptionEnabled = true },
		"without atRestEncryptionEnabled cannot go from 1 to more": func(c *v1alpha1.ElastiCacheCluster) { c.Spec.NumCacheNodes = 2 },
	} {
		changed := c.DeepCopy()
		mutate(changed)
		if err := h.c.Update(t.Context(), changed); err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("update refused for %q? %v", field, err)
		}
	}
	// Nothing was made in AWS, so the subnet group can still be corrected.
	kubetest.Update(t, h.c, c, func(c *v1alpha1.ElastiCacheCluster) { c.Spec.SubnetGroupName = "other" })
	kubetest.Delete(t, h.c, c)
}
