package emulator_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"
)

// userParameters returns the parameters users set in a cache parameter group, as name=value.
func (env cacheEnv) userParameters(t *testing.T, group string) map[string]string {
	t.Helper()
	out, err := env.ec.DescribeCacheParameters(context.Background(), &elasticache.DescribeCacheParametersInput{CacheParameterGroupName: aws.String(group),
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

// parameterStatus returns a cluster's parameter group and its apply status.
func (env cacheEnv) parameterStatus(t *testing.T, id string) (string, string) {
	t.Helper()
	g := env.cluster(t, id).CacheParameterGroup
	return aws.ToString(g.CacheParameterGroupName), aws.ToString(g.ParameterApplyStatus)
}

// TestElastiCacheParameterGroups creates a custom Redis OSS 7 group with tags, describes it
// beside the defaults and 14 more groups in two pages, sets parameters with AWS's refusals (unknown name, value not
// allowed, parameter not modifiable, more than 20, a default group), lists them by source, resets
// one and then all, and deletes it.
func TestElastiCacheParameterGroups(t *testing.T) {
	env := newCacheEnv(t)
	ctx := context.Background()
	out, err := env.ec.CreateCacheParameterGroup(ctx, &elasticache.CreateCacheParameterGroupInput{CacheParameterGroupName: aws.String("Tuned"),
		CacheParameterGroupFamily: aws.String("redis7"), Description: aws.String("tuned"), Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}}})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(out.CacheParameterGroup.ARN)
	if aws.ToString(out.CacheParameterGroup.CacheParameterGroupName) != "tuned" || arn != "arn:aws:elasticache:us-east-1:000000000000:parametergroup:tuned" {
		t.Fatalf("created: %+v", out.CacheParameterGroup)
	}
	tags, err := env.ec.ListTagsForResource(ctx, &elasticache.ListTagsForResourceInput{ResourceName: aws.String(arn)})
	if err != nil || len(tags.TagList) != 1 || aws.ToString(tags.TagList[0].Value) != "web" {
		t.Fatalf("tags: %+v, %v", tags, err)
	}
	for name, in := range map[string]*elasticache.CreateCacheParameterGroupInput{
		"exists":         {CacheParameterGroupName: aws.String("tuned"), CacheParameterGroupFamily: aws.String("redis7"), Description: aws.String("d")},
		"unknown family": {CacheParameterGroupName: aws.String("other"), CacheParameterGroupFamily: aws.String("redis9"), Description: aws.String("d")},
		"no description": {CacheParameterGroupName: aws.String("other"), CacheParameterGroupFamily: aws.String("redis7"), Description: aws.String("")},
		"bad name":       {CacheParameterGroupName: aws.String("a--b"), CacheParameterGroupFamily: aws.String("redis7"), Description: aws.String("d")},
	} {
		_, err := env.ec.CreateCacheParameterGroup(ctx, in)
		want := "InvalidParameterValue"
		if name == "exists" {
			want = "CacheParameterGroupAlreadyExists"
		}
		wantCode(t, name, err, want)
	}
	for i := range 14 {
		if _, err := env.ec.CreateCacheParameterGroup(ctx, &elasticache.CreateCacheParameterGroupInput{CacheParameterGroupName: aws.String(fmt.Sprintf("extra-%02d", i)),
			CacheParameterGroupFamily: aws.String("memcached1.6"), Description: aws.String("d")}); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	pages := 0
	in := &elasticache.DescribeCacheParameterGroupsInput{MaxRecords: aws.Int32(20)}
	for {
		page, err := env.ec.DescribeCacheParameterGroups(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, g := range page.CacheParameterGroups {
			names = append(names, aws.ToString(g.CacheParameterGroupName))
		}
		if page.Marker == nil {
			break
		}
		in.Marker = page.Marker
	}
	if pages != 2 || len(names) != 21 || fmt.Sprint(names[:7]) != "[default.memcached1.6 default.redis5.0 default.redis6.x default.redis7 default.valkey7 default.valkey8 extra-00]" ||
		names[20] != "tuned" {
		t.Errorf("groups in %d pages: %v", pages, names)
	}
	_, err = env.ec.DescribeCacheParameterGroups(ctx, &elasticache.DescribeCacheParameterGroupsInput{CacheParameterGroupName: aws.String("missing")})
	wantCode(t, "describe missing", err, "CacheParameterGroupNotFound")

	set := func(group string, pairs ...string) error {
		var params []types.ParameterNameValue
		for i := 0; i < len(pairs); i += 2 {
			params = append(params, types.ParameterNameValue{ParameterName: aws.String(pairs[i]), ParameterValue: aws.String(pairs[i+1])})
		}
		_, err := env.ec.ModifyCacheParameterGroup(ctx, &elasticache.ModifyCacheParameterGroupInput{CacheParameterGroupName: aws.String(group), ParameterNameValues: params})
		return err
	}
	if err := set("tuned", "maxmemory-policy", "allkeys-lru", "timeout", "300", "notify-keyspace-events", "Ex"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "unknown parameter", set("tuned", "no-such-parameter", "1"), "InvalidParameterValue")
	wantCode(t, "value not allowed", set("tuned", "maxmemory-policy", "sometimes"), "InvalidParameterValue")
	wantCode(t, "below the range", set("tuned", "maxmemory-samples", "0"), "InvalidParameterValue")
	wantCode(t, "not modifiable", set("tuned", "lua-time-limit", "6000"), "InvalidParameterValue")
	wantCode(t, "default group", set("default.redis7", "timeout", "10"), "InvalidCacheParameterGroupState")
	wantCode(t, "missing group", set("missing", "timeout", "10"), "CacheParameterGroupNotFound")
	var many []string
	for range 21 {
		many = append(many, "timeout", "1")
	}
	wantCode(t, "21 parameters", set("tuned", many...), "InvalidParameterValue")
	if got := env.userParameters(t, "tuned"); fmt.Sprint(got) != "map[maxmemory-policy:allkeys-lru notify-keyspace-events:Ex timeout:300]" {
		t.Errorf("user parameters: %v", got)
	}
	all, err := env.ec.DescribeCacheParameters(ctx, &elasticache.DescribeCacheParametersInput{CacheParameterGroupName: aws.String("tuned"), MaxRecords: aws.Int32(20)})
	if err != nil || len(all.Parameters) < 9 || all.Marker != nil {
		t.Fatalf("every parameter: %+v, %v", all, err)
	}
	for _, p := range all.Parameters {
		switch aws.ToString(p.ParameterName) {
		case "databases":
			if p.ChangeType != types.ChangeTypeRequiresReboot || aws.ToString(p.Source) != "engine-default" || aws.ToString(p.ParameterValue) != "16" {
				t.Errorf("databases: %+v", p)
			}
		case "lua-time-limit":
			if aws.ToBool(p.IsModifiable) {
				t.Errorf("lua-time-limit is modifiable: %+v", p)
			}
		case "maxmemory-policy":
			if aws.ToString(p.Source) != "user" || p.ChangeType != types.ChangeTypeImmediate || aws.ToString(p.DataType) != "string" {
				t.Errorf("maxmemory-policy: %+v", p)
			}
		}
	}
	_, err = env.ec.DescribeCacheParameters(ctx, &elasticache.DescribeCacheParametersInput{CacheParameterGroupName: aws.String("tuned"), Source: aws.String("mine")})
	wantCode(t, "bad source", err, "InvalidParameterValue")
	defaults, err := env.ec.DescribeCacheParameters(ctx, &elasticache.DescribeCacheParametersInput{CacheParameterGroupName: aws.String("default.memcached1.6")})
	if err != nil || len(defaults.Parameters) != 4 || aws.ToString(defaults.Parameters[2].ParameterName) != "max_item_size" {
		t.Fatalf("memcached defaults: %+v, %v", defaults, err)
	}

	if _, err := env.ec.ResetCacheParameterGroup(ctx, &elasticache.ResetCacheParameterGroupInput{CacheParameterGroupName: aws.String("tuned"),
		ParameterNameValues: []types.ParameterNameValue{{ParameterName: aws.String("timeout")}}}); err != nil {
		t.Fatal(err)
	}
	if got := env.userParameters(t, "tuned"); fmt.Sprint(got) != "map[maxmemory-policy:allkeys-lru notify-keyspace-events:Ex]" {
		t.Errorf("after resetting timeout: %v", got)
	}
	_, err = env.ec.ResetCacheParameterGroup(ctx, &elasticache.ResetCacheParameterGroupInput{CacheParameterGroupName: aws.String("tuned"), ResetAllParameters: aws.Bool(true),
		ParameterNameValues: []types.ParameterNameValue{{ParameterName: aws.String("timeout")}}})
	wantCode(t, "reset all and names", err, "InvalidParameterCombination")
	_, err = env.ec.ResetCacheParameterGroup(ctx, &elasticache.ResetCacheParameterGroupInput{CacheParameterGroupName: aws.String("tuned")})
	wantCode(t, "reset nothing", err, "InvalidParameterValue")
	if _, err := env.ec.ResetCacheParameterGroup(ctx, &elasticache.ResetCacheParameterGroupInput{CacheParameterGroupName: aws.String("tuned"), ResetAllParameters: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	if got := env.userParameters(t, "tuned"); len(got) != 0 {
		t.Errorf("after resetting all: %v", got)
	}

	_, err = env.ec.DeleteCacheParameterGroup(ctx, &elasticache.DeleteCacheParameterGroupInput{CacheParameterGroupName: aws.String("default.redis7")})
	wantCode(t, "delete default", err, "InvalidCacheParameterGroupState")
	if _, err := env.ec.DeleteCacheParameterGroup(ctx, &elasticache.DeleteCacheParameterGroupInput{CacheParameterGroupName: aws.String("tuned")}); err != nil {
		t.Fatal(err)
	}
	_, err = env.ec.DescribeCacheParameters(ctx, &elasticache.DescribeCacheParametersInput{CacheParameterGroupName: aws.String("tuned")})
	wantCode(t, "parameters of a deleted group", err, "CacheParameterGroupNotFound")
	_, err = env.ec.ListTagsForResource(ctx, &elasticache.ListTagsForResourceInput{ResourceName: aws.String(arn)})
	wantCode(t, "tags of a deleted group", err, "CacheParameterGroupNotFound")
}

// TestElastiCacheParameterGroupsOnClusters creates a cluster and a replication group with a
// custom group (a group of another family refused), changes an immediate parameter (in sync) and
// a requires-reboot one (pending-reboot until RebootCacheCluster), refuses to delete the group in
// use, moves the cluster to another group (applying, then in sync) and deletes the group once
// no cluster uses it.
func TestElastiCacheParameterGroupsOnClusters(t *testing.T) {
	env := newCacheEnv(t)
	ctx := context.Background()
	for _, g := range []struct{ name, family string }{{"sessions-params", "redis7"}, {"other-params", "redis7"}, {"valkey-params", "valkey8"}} {
		if _, err := env.ec.CreateCacheParameterGroup(ctx, &elasticache.CreateCacheParameterGroupInput{CacheParameterGroupName: aws.String(g.name),
			CacheParameterGroupFamily: aws.String(g.family), Description: aws.String("d")}); err != nil {
			t.Fatal(err)
		}
	}
	create := func(id, group string) error {
		_, err := env.ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String(id), Engine: aws.String("redis"),
			EngineVersion: aws.String("7.1"), CacheNodeType: aws.String("cache.t3.micro"), CacheSubnetGroupName: aws.String("cache"),
			CacheParameterGroupName: aws.String(group)})
		return err
	}
	wantCode(t, "group of another family", create("sessions", "valkey-params"), "InvalidParameterCombination")
	wantCode(t, "missing group", create("sessions", "missing"), "CacheParameterGroupNotFound")
	if err := create("sessions", "sessions-params"); err != nil {
		t.Fatal(err)
	}
	if _, err := env.ec.CreateReplicationGroup(ctx, &elasticache.CreateReplicationGroupInput{ReplicationGroupId: aws.String("carts"),
		ReplicationGroupDescription: aws.String("carts"), Engine: aws.String("redis"), EngineVersion: aws.String("7.1"), CacheNodeType: aws.String("cache.t3.micro"),
		NumCacheClusters: aws.Int32(2), CacheSubnetGroupName: aws.String("cache"), CacheParameterGroupName: aws.String("sessions-params")}); err != nil {
		t.Fatal(err)
	}
	env.e.Clock.Advance(cacheTransition)
	for _, id := range []string{"sessions", "carts-001", "carts-002"} {
		if name, status := env.parameterStatus(t, id); name != "sessions-params" || status != "in-sync" {
			t.Errorf("%s: %s %s", id, name, status)
		}
	}
	modify := func(name, value string) {
		t.Helper()
		if _, err := env.ec.ModifyCacheParameterGroup(ctx, &elasticache.ModifyCacheParameterGroupInput{CacheParameterGroupName: aws.String("sessions-params"),
			ParameterNameValues: []types.ParameterNameValue{{ParameterName: aws.String(name), ParameterValue: aws.String(value)}}}); err != nil {
			t.Fatal(err)
		}
	}
	modify("maxmemory-policy", "allkeys-lfu")
	if _, status := env.parameterStatus(t, "sessions"); status != "in-sync" {
		t.Errorf("after an immediate change: %s", status)
	}
	modify("databases", "32")
	got := env.cluster(t, "sessions")
	if s := got.CacheParameterGroup; aws.ToString(s.ParameterApplyStatus) != "pending-reboot" || fmt.Sprint(s.CacheNodeIdsToReboot) != "[0001]" ||
		aws.ToString(got.CacheNodes[0].ParameterGroupStatus) != "pending-reboot" {
		t.Errorf("after a requires-reboot change: %+v, node %+v", s, got.CacheNodes[0])
	}
	if _, status := env.parameterStatus(t, "carts-002"); status != "pending-reboot" {
		t.Errorf("a member after a requires-reboot change: %s", status)
	}
	_, err := env.ec.DeleteCacheParameterGroup(ctx, &elasticache.DeleteCacheParameterGroupInput{CacheParameterGroupName: aws.String("sessions-params")})
	wantCode(t, "delete in use", err, "InvalidCacheParameterGroupState")

	_, err = env.ec.RebootCacheCluster(ctx, &elasticache.RebootCacheClusterInput{CacheClusterId: aws.String("sessions"), CacheNodeIdsToReboot: []string{"0002"}})
	wantCode(t, "reboot a missing node", err, "InvalidParameterValue")
	reboot, err := env.ec.RebootCacheCluster(ctx, &elasticache.RebootCacheClusterInput{CacheClusterId: aws.String("sessions"), CacheNodeIdsToReboot: []string{"0001"}})
	if err != nil || aws.ToString(reboot.CacheCluster.CacheClusterStatus) != "rebooting cache cluster nodes" {
		t.Fatalf("reboot: %+v, %v", reboot, err)
	}
	_, err = env.ec.RebootCacheCluster(ctx, &elasticache.RebootCacheClusterInput{CacheClusterId: aws.String("sessions"), CacheNodeIdsToReboot: []string{"0001"}})
	wantCode(t, "reboot while rebooting", err, "InvalidCacheClusterState")
	env.e.Clock.Advance(cacheTransition)
	if got := env.cluster(t, "sessions"); aws.ToString(got.CacheClusterStatus) != "available" || aws.ToString(got.CacheParameterGroup.ParameterApplyStatus) != "in-sync" {
		t.Errorf("after the reboot: %s %+v", aws.ToString(got.CacheClusterStatus), got.CacheParameterGroup)
	}

	_, err = env.ec.ModifyCacheCluster(ctx, &elasticache.ModifyCacheClusterInput{CacheClusterId: aws.String("sessions"), CacheParameterGroupName: aws.String("valkey-params")})
	wantCode(t, "modify to another family", err, "InvalidParameterCombination")
	if _, err := env.ec.ModifyCacheCluster(ctx, &elasticache.ModifyCacheClusterInput{CacheClusterId: aws.String("sessions"), CacheParameterGroupName: aws.String("other-params"),
		ApplyImmediately: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	if name, status := env.parameterStatus(t, "sessions"); name != "other-params" || status != "applying" {
		t.Errorf("after a change of group: %s %s", name, status)
	}
	env.e.Clock.Advance(cacheTransition)
	if name, status := env.parameterStatus(t, "sessions"); name != "other-params" || status != "in-sync" {
		t.Errorf("once the change of group is applied: %s %s", name, status)
	}
	if _, err := env.ec.ModifyReplicationGroup(ctx, &elasticache.ModifyReplicationGroupInput{ReplicationGroupId: aws.String("carts"),
		CacheParameterGroupName: aws.String("default.redis7"), ApplyImmediately: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	env.e.Clock.Advance(cacheTransition)
	if name, _ := env.parameterStatus(t, "carts-001"); name != "default.redis7" {
		t.Errorf("the group's members use %s", name)
	}
	if _, err := env.ec.DeleteCacheParameterGroup(ctx, &elasticache.DeleteCacheParameterGroupInput{CacheParameterGroupName: aws.String("sessions-params")}); err != nil {
		t.Fatalf("delete once no cluster uses it: %v", err)
	}
}
