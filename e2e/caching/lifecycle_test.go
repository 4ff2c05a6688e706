package caching_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// The AUTH tokens of the tests, before and after a rotation.
const (
	firstToken  = "first-auth-token-4c1d9e"
	secondToken = "second-auth-token-8b27fa"
)

// newCluster returns a one-node Redis ElastiCacheCluster in ns with the provider "aws" and the
// subnet group "cache", changed by mutate.
func newCluster(ns, name string, mutate func(*v1alpha1.ElastiCacheCluster)) *v1alpha1.ElastiCacheCluster {
	c := &v1alpha1.ElastiCacheCluster{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	c.Spec.ProviderRef.Name = "aws"
	c.Spec.ClusterID, c.Spec.Engine, c.Spec.EngineVersion, c.Spec.NodeType, c.Spec.NumCacheNodes = ns+"-"+name, "redis", "7.0", "cache.t3.micro", 1
	c.Spec.SubnetGroupName = "cache"
	if mutate != nil {
		mutate(c)
	}
	return c
}

// TestElastiCacheClusterAuthTokenAndUpdates follows a Redis cluster with encryption in transit
// whose AUTH token is a Secret's: it waits (SecretNotFound) until the Secret exists, then
// becomes Ready with the token's hash in status; a change of the Secret rotates the token in
// AWS without the token ever appearing on the object or its events; a node type change applies
// at once; snapshot retention changed outside the operator is reverted; with applyImmediately
// false an engine upgrade waits for the maintenance window, is reported pending, and is not
// requested again at every sync; a downgrade is refused with no AWS call; and deleting the
// object with deletionPolicy Orphan leaves the cluster without its ownership tags.
func TestElastiCacheClusterAuthTokenAndUpdates(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	subnet, _ := h.network(t, "10.8.0.0/16", "10.8.1.0/24")
	h.subnetGroup(t, "cache", subnet)
	ctx := context.Background()

	c := newCluster(ns, "sessions", func(c *v1alpha1.ElastiCacheCluster) {
		c.Spec.TransitEncryptionEnabled = true
		c.Spec.AuthTokenSecretRef = &shared.SecretKeySelector{Name: "redis-auth", Key: "token"}
		c.Spec.SnapshotRetentionLimit = aws.Int32(3)
		// Three days away, so that the upgrade below waits for it whenever the test runs (the
		// default window, Sundays 05:00 UTC, may be open).
		day := strings.ToLower(time.Now().UTC().Add(72 * time.Hour).Weekday().String()[:3])
		c.Spec.PreferredMaintenanceWindow = day + ":10:00-" + day + ":11:00"
	})
	kubetest.Create(t, h.c, c)
	kubetest.WaitCondition(t, h.c, c, "Synced", "False", condition.ReasonSecretNotFound)
	kubetest.SetSecret(t, h.c, ns, "redis-auth", "token", firstToken)
	c = kubetest.WaitReady(t, h.c, c)
	first := c.Status.AuthTokenHash
	cl := h.cacheCluster(t, c.Spec.ClusterID)
	if c.Status.Mode != v1alpha1.ModeCacheCluster || first == "" || !aws.ToBool(cl.AuthTokenEnabled) || !aws.ToBool(cl.TransitEncryptionEnabled) {
		t.Fatalf("status %+v, cluster %+v", c.Status, cl)
	}

	kubetest.SetSecret(t, h.c, ns, "redis-auth", "token", secondToken)
	c = kubetest.WaitFor(t, h.c, c, time.Minute, "the token rotated", func(c *v1alpha1.ElastiCacheCluster) bool {
		return c.Status.AuthTokenHash != first && isReady(c)
	})
	if !h.cacheCluster(t, c.Spec.ClusterID).AuthTokenLastModifiedDate.After(*cl.AuthTokenLastModifiedDate) {
		t.Errorf("the token was not changed in AWS")
	}
	kubetest.AssertNowhere(t, h.c, ns, c, firstToken)
	kubetest.AssertNowhere(t, h.c, ns, c, secondToken)

	kubetest.Update(t, h.c, c, func(c *v1alpha1.ElastiCacheCluster) { c.Spec.NodeType = "cache.t3.small" })
	c = kubetest.WaitFor(t, h.c, c, time.Minute, "the new node type", func(c *v1alpha1.ElastiCacheCluster) bool {
		return c.Status.NodeType == "cache.t3.small" && isReady(c) && c.Status.ObservedGeneration == c.Generation
	})

	if _, err := h.ec.ModifyCacheCluster(ctx, &elasticache.ModifyCacheClusterInput{CacheClusterId: aws.String(c.Spec.ClusterID), SnapshotRetentionLimit: aws.Int32(9)}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, c, "snapshot retention reverted", func() bool {
		return aws.ToInt32(h.cacheCluster(t, c.Spec.ClusterID).SnapshotRetentionLimit) == 3
	})
	kubetest.WaitEvent(t, h.c, c, condition.ReasonDriftDetected, "snapshotRetentionLimit")

	kubetest.Update(t, h.c, c, func(c *v1alpha1.ElastiCacheCluster) {
		c.Spec.EngineVersion, c.Spec.ApplyImmediately = "7.1", aws.Bool(false)
	})
	c = kubetest.WaitFor(t, h.c, c, time.Minute, "the upgrade pending", func(c *v1alpha1.ElastiCacheCluster) bool {
		return len(c.Status.PendingModifiedValues) > 0 && c.Status.ObservedGeneration == c.Generation
	})
	if p := c.Status.PendingModifiedValues; len(p) != 1 || p[0] != "engineVersion=7.1" || c.Status.EngineVersion != "7.0" {
		t.Errorf("pending: %v, running %s", p, c.Status.EngineVersion)
	}
	h.emu.Calls.Reset()
	kubetest.Resync(t, h.c, c)
	testenv.Eventually(t, 30*time.Second, func() string {
		if h.calls()["DescribeCacheClusters"] == 0 {
			return "no sync yet"
		}
		return ""
	})
	time.Sleep(500 * time.Millisecond)
	if n := h.calls()["ModifyCacheCluster"]; n != 0 {
		t.Errorf("the pending upgrade was requested again %d times", n)
	}

	h.emu.Calls.Reset()
	kubetest.Update(t, h.c, c, func(c *v1alpha1.ElastiCacheCluster) { c.Spec.EngineVersion = "6.2" })
	c = kubetest.WaitCondition(t, h.c, c, "Synced", "False", condition.ReasonInvalidSpec)
	if msg := findCondition(c.Status.Conditions, "Synced").Message; !strings.Contains(msg, "cannot downgrade") {
		t.Errorf("the downgrade's refusal: %q", msg)
	}
	if n := h.calls()["ModifyCacheCluster"]; n != 0 {
		t.Errorf("the downgrade reached AWS: %d ModifyCacheCluster calls", n)
	}

	kubetest.Update(t, h.c, c, func(c *v1alpha1.ElastiCacheCluster) {
		c.Spec.EngineVersion, c.Spec.DeletionPolicy = "7.1", shared.DeletionPolicyOrphan
	})
	kubetest.Delete(t, h.c, c)
	cl = h.cacheCluster(t, c.Spec.ClusterID)
	if tags := h.tags(t, aws.ToString(cl.ARN)); tags[shared.TagOwnerUID] != "" {
		t.Errorf("the orphaned cluster keeps its ownership tags: %v", tags)
	}
}

// findCondition returns the condition of type typ, or an empty one.
func findCondition(conds []metav1.Condition, typ string) metav1.Condition {
	for _, c := range conds {
		if c.Type == typ {
			return c
		}
	}
	return metav1.Condition{}
}
