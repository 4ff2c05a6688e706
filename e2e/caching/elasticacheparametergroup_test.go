package caching_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// cacheParameters returns the values users set in a cache parameter group, by name.
func (h *harness) cacheParameters(t testing.TB, group string) map[string]string {
	t.Helper()
	out, err := h.ec.DescribeCacheParameters(context.Background(), &elasticache.DescribeCacheParametersInput{CacheParameterGroupName: aws.String(group),
		Source: aws.String("user")})
	if err != nil {
		t.Fatalf("describe the parameters of %s: %v", group, err)
	}
	got := map[string]string{}
	for _, p := range out.Parameters {
		got[aws.ToString(p.ParameterName)] = aws.ToString(p.ParameterValue)
	}
	return got
}

// TestElastiCacheParameterGroup applies examples/caching/elasticacheparametergroup.yaml
// verbatim, the cluster first: it waits for the group it names by reference (no ElastiCache
// call to create it), the group is created with its parameters and tags, and the cluster is then
// created with the group, in sync. A steady sync of the group costs three reads. A value changed
// outside the operator is put back; a changed value is set and a dropped parameter returns to
// the family's default. A requires-reboot parameter leaves the cluster pending-reboot until its
// nodes reboot. Admission refuses a family change and a cluster naming a group both ways; a
// parameter ElastiCache does not know is a condition. Deleting the group waits while the cluster
// uses it and completes once the cluster moves to a group by name (parameterGroupName).
func TestElastiCacheParameterGroup(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	ctx := context.Background()
	group := &v1alpha1.ElastiCacheParameterGroup{ObjectMeta: seedMeta("default", "session-cache-tuned")}
	cluster := &v1alpha1.ElastiCacheCluster{ObjectMeta: seedMeta("default", "tuned-session-cache")}

	// The cluster waits for its group, with no call to create it.
	h.emu.Calls.Reset()
	h.applyKind(t, "elasticacheparametergroup.yaml", "default", cluster, nil)
	kubetest.WaitCondition(t, h.c, cluster, "Ready", "False", condition.ReasonReferenceNotFound)
	if n := h.calls()["CreateCacheCluster"]; n != 0 {
		t.Errorf("the cluster was created before its parameter group: %d CreateCacheCluster calls", n)
	}

	// The group is created with its parameters; the cluster then uses it.
	h.emu.Calls.Reset()
	h.applyKind(t, "elasticacheparametergroup.yaml", "default", group, nil)
	want := map[string]string{"maxmemory-policy": "allkeys-lru", "maxmemory-samples": "10", "timeout": "300", "notify-keyspace-events": "Ex"}
	group = kubetest.WaitFor(t, h.c, group, time.Minute, "Ready with its parameters", func(g *v1alpha1.ElastiCacheParameterGroup) bool {
		return isReady(g) && maps.Equal(h.cacheParameters(t, "session-cache-tuned"), want)
	})
	if s := group.Status; s.Name != "session-cache-tuned" || s.ARN != "arn:aws:elasticache:us-east-1:000000000000:parametergroup:session-cache-tuned" {
		t.Errorf("status: %+v", s)
	}
	if tags := h.tags(t, group.Status.ARN); tags["Application"] != "session-store" || tags[shared.TagOwnerUID] != string(group.UID) {
		t.Errorf("the group's tags: %v", tags)
	}
	cluster = kubetest.WaitReady(t, h.c, cluster)
	t.Logf("the group and the cluster: %d ElastiCache calls %v", kubetest.Total(h.calls()), h.calls())
	if g := h.cacheCluster(t, "tuned-sessions-01").CacheParameterGroup; aws.ToString(g.CacheParameterGroupName) != "session-cache-tuned" {
		t.Fatalf("the cluster's parameter group in AWS: %+v", g)
	}
	if s := cluster.Status; s.ParameterGroupName != "session-cache-tuned" || s.ParameterApplyStatus != "in-sync" || cluster.Spec.ParameterGroupName != "" {
		t.Errorf("the cluster's status: %+v (spec.parameterGroupName %q)", s, cluster.Spec.ParameterGroupName)
	}

	// A steady sync reads three times and writes nothing.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.c, group, "looked at again", func() bool { return h.calls()["DescribeCacheParameters"] > 0 })
	time.Sleep(300 * time.Millisecond)
	if calls := h.calls(); calls["ModifyCacheParameterGroup"]+calls["ResetCacheParameterGroup"] != 0 || kubetest.Total(calls) > 3 {
		t.Errorf("a steady sync made %v, want DescribeCacheParameterGroups, ListTagsForResource and DescribeCacheParameters only", calls)
	}

	// Drift is put back.
	if _, err := h.ec.ModifyCacheParameterGroup(ctx, &elasticache.ModifyCacheParameterGroupInput{CacheParameterGroupName: aws.String("session-cache-tuned"),
		ParameterNameValues: []types.ParameterNameValue{{ParameterName: aws.String("timeout"), ParameterValue: aws.String("0")}}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, group, "timeout put back", func() bool { return h.cacheParameters(t, "session-cache-tuned")["timeout"] == "300" })
	kubetest.WaitEvent(t, h.c, group, condition.ReasonDriftDetected, "parameters[timeout]")

	// A changed value is set; a parameter dropped from the spec returns to the family's default.
	kubetest.Update(t, h.c, group, func(g *v1alpha1.ElastiCacheParameterGroup) {
		g.Spec.Parameters = slices.DeleteFunc(g.Spec.Parameters, func(p v1alpha1.CacheParameter) bool { return p.Name == "notify-keyspace-events" })
		for i := range g.Spec.Parameters {
			if g.Spec.Parameters[i].Name == "maxmemory-policy" {
				g.Spec.Parameters[i].Value = "allkeys-lfu"
			}
		}
	})
	kubetest.WaitFor(t, h.c, group, time.Minute, "the new parameters", func(g *v1alpha1.ElastiCacheParameterGroup) bool {
		got := h.cacheParameters(t, "session-cache-tuned")
		_, dropped := got["notify-keyspace-events"]
		return g.Status.ObservedGeneration == g.Generation && !dropped && got["maxmemory-policy"] == "allkeys-lfu"
	})

	// A requires-reboot parameter leaves the cluster pending-reboot until its nodes reboot; the
	// operator never reboots it.
	kubetest.Update(t, h.c, group, func(g *v1alpha1.ElastiCacheParameterGroup) {
		g.Spec.Parameters = append(g.Spec.Parameters, v1alpha1.CacheParameter{Name: "databases", Value: "32"})
	})
	kubetest.ResyncUntil(t, h.c, cluster, "pending-reboot", func() bool {
		cur := h.current(t, cluster)
		return cur.Status.ParameterApplyStatus == "pending-reboot" &&
			slices.ContainsFunc(cur.Status.PendingModifiedValues, func(m string) bool { return strings.HasPrefix(m, "parameters") })
	})
	if n := h.calls()["RebootCacheCluster"]; n != 0 {
		t.Errorf("the operator rebooted the cluster %d times", n)
	}
	if _, err := h.ec.RebootCacheCluster(ctx, &elasticache.RebootCacheClusterInput{CacheClusterId: aws.String("tuned-sessions-01"), CacheNodeIdsToReboot: []string{"0001"}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, cluster, "in-sync after the reboot", func() bool {
		cur := h.current(t, cluster)
		return cur.Status.ParameterApplyStatus == "in-sync" && isReady(cur) && len(cur.Status.PendingModifiedValues) == 0
	})

	// Admission: the family cannot change; a cluster takes a group by name or by reference.
	kubetest.MustRefuseUpdate(t, h.c, group, func(g *v1alpha1.ElastiCacheParameterGroup) { g.Spec.Family = "valkey8" }, "family cannot change")
	both := &v1alpha1.ElastiCacheCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "both"}}
	both.Spec.ProviderRef.Name, both.Spec.ClusterID, both.Spec.Engine, both.Spec.NodeType = "production-aws", "both", "redis", "cache.t3.micro"
	both.Spec.ParameterGroupName, both.Spec.ParameterGroupRef = "default.redis7", &shared.Reference{Name: "session-cache-tuned"}
	kubetest.MustRefuse(t, h.c, both, "at most one of parameterGroupName and parameterGroupRef")

	// A parameter ElastiCache does not know: a condition, the group untouched.
	bad := &v1alpha1.ElastiCacheParameterGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "bad-params"}}
	bad.Spec.ProviderRef.Name, bad.Spec.Family, bad.Spec.Description = "production-aws", "redis7", "bad"
	bad.Spec.Parameters = []v1alpha1.CacheParameter{{Name: "no-such-parameter", Value: "1"}}
	kubetest.Create(t, h.c, bad)
	kubetest.WaitCondition(t, h.c, bad, "Synced", "False", condition.ReasonAWSRejected)

	// The group waits while the cluster uses it, and goes once the cluster uses another group,
	// named by parameterGroupName.
	h.emu.Calls.Reset()
	if err := h.c.Delete(ctx, group); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, time.Minute, func() string {
		if h.calls()["DeleteCacheParameterGroup"] == 0 {
			return "no delete tried yet"
		}
		return ""
	})
	if _, err := h.ec.DescribeCacheParameterGroups(ctx, &elasticache.DescribeCacheParameterGroupsInput{CacheParameterGroupName: aws.String("session-cache-tuned")}); err != nil {
		t.Fatalf("the group the cluster uses was deleted: %v", err)
	}
	kubetest.Update(t, h.c, cluster, func(c *v1alpha1.ElastiCacheCluster) {
		c.Spec.ParameterGroupRef, c.Spec.ParameterGroupName = nil, "default.redis7"
	})
	kubetest.WaitGone(t, h.c, group)
	cluster = kubetest.WaitFor(t, h.c, cluster, time.Minute, "on the default group", func(c *v1alpha1.ElastiCacheCluster) bool {
		return c.Status.ParameterGroupName == "default.redis7" && isReady(c) && c.Status.ObservedGeneration == c.Generation
	})
	kubetest.Delete(t, h.c, cluster)
	kubetest.Delete(t, h.c, bad)
}

// current reads c as the API server has it now.
func (h *harness) current(t testing.TB, c *v1alpha1.ElastiCacheCluster) *v1alpha1.ElastiCacheCluster {
	t.Helper()
	cur := &v1alpha1.ElastiCacheCluster{}
	if err := h.c.Get(context.Background(), client.ObjectKeyFromObject(c), cur); err != nil {
		t.Fatal(err)
	}
	return cur
}

// TestElastiCacheParameterGroupPolicies runs the shared policy check on an
// ElastiCacheParameterGroup: its outputs in a ConfigMap, a parameter changed outside the
// operator reported (driftPolicy Report) and then put back (Enforce), and a second object that
// only observes the group (managed.Claim lets an observe-only object claim it by name).
func TestElastiCacheParameterGroupPolicies(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	name := ns + "-policy-check"
	timeout := func(ctx context.Context) (string, error) {
		out, err := h.ec.DescribeCacheParameters(ctx, &elasticache.DescribeCacheParametersInput{CacheParameterGroupName: aws.String(name), Source: aws.String("user")})
		if err != nil {
			return "", err
		}
		for _, p := range out.Parameters {
			if aws.ToString(p.ParameterName) == "timeout" {
				return aws.ToString(p.ParameterValue), nil
			}
		}
		return "", nil
	}
	kubetest.RunPolicyCheck(t, h.c, kubetest.PolicyCheck[*v1alpha1.ElastiCacheParameterGroup]{
		New: func(object string) *v1alpha1.ElastiCacheParameterGroup {
			g := &v1alpha1.ElastiCacheParameterGroup{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: object}}
			g.Spec.ProviderRef.Name, g.Spec.Name, g.Spec.Family, g.Spec.Description = "aws", name, "valkey8", "policy check"
			g.Spec.Parameters = []v1alpha1.CacheParameter{{Name: "timeout", Value: "300"}}
			return g
		},
		Outputs: []string{"name", "arn"},
		Drift: func(ctx context.Context, _ *v1alpha1.ElastiCacheParameterGroup) error {
			_, err := h.ec.ModifyCacheParameterGroup(ctx, &elasticache.ModifyCacheParameterGroupInput{CacheParameterGroupName: aws.String(name),
				ParameterNameValues: []types.ParameterNameValue{{ParameterName: aws.String("timeout"), ParameterValue: aws.String("60")}}})
			return err
		},
		DriftField: "parameters[timeout]",
		Drifted: func(ctx context.Context, _ *v1alpha1.ElastiCacheParameterGroup) (bool, error) {
			v, err := timeout(ctx)
			return v == "60", err
		},
		Exists: func(ctx context.Context, _ *v1alpha1.ElastiCacheParameterGroup) (bool, error) {
			_, err := h.ec.DescribeCacheParameterGroups(ctx, &elasticache.DescribeCacheParameterGroupsInput{CacheParameterGroupName: aws.String(name)})
			return kubetest.Found(err)
		},
	})
}
