package emulator_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// cacheTransition is ElastiCache's default transition time.
const cacheTransition = 2 * time.Second

// cacheEnv is an emulator with a frozen clock, its ElastiCache client, a subnet group "cache" of
// two subnets, and a security group of their VPC.
type cacheEnv struct {
	e     *emulator.Server
	ec    *elasticache.Client
	group string
}

// newCacheEnv starts an emulator for ElastiCache tests.
func newCacheEnv(t *testing.T) cacheEnv {
	t.Helper()
	e, url := start(t, emulator.Options{})
	frozenOnSecond(e)
	cfg := sdkConfig(t, url, "AKIDCACHE", 1)
	network := ec2.NewFromConfig(cfg)
	vpc := createVpc(t, network, "10.50.0.0/16")
	a, b := zoneSubnet(t, network, vpc, "10.50.1.0/24", "us-east-1a"), zoneSubnet(t, network, vpc, "10.50.2.0/24", "us-east-1b")
	env := cacheEnv{e: e, ec: elasticache.NewFromConfig(cfg), group: createGroup(t, network, vpc, "cache")}
	if _, err := env.ec.CreateCacheSubnetGroup(context.Background(), &elasticache.CreateCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("cache"),
		CacheSubnetGroupDescription: aws.String("cache subnets"), SubnetIds: []string{a, b}}); err != nil {
		t.Fatal(err)
	}
	return env
}

// cluster describes one cache cluster with its nodes, failing the test on an error.
func (env cacheEnv) cluster(t *testing.T, id string) types.CacheCluster {
	t.Helper()
	out, err := env.ec.DescribeCacheClusters(context.Background(), &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String(id), ShowCacheNodeInfo: aws.Bool(true)})
	if err != nil {
		t.Fatalf("describe %s: %v", id, err)
	}
	return out.CacheClusters[0]
}

// replicationGroup describes one replication group, failing the test on an error.
func (env cacheEnv) replicationGroup(t *testing.T, id string) types.ReplicationGroup {
	t.Helper()
	out, err := env.ec.DescribeReplicationGroups(context.Background(), &elasticache.DescribeReplicationGroupsInput{ReplicationGroupId: aws.String(id)})
	if err != nil {
		t.Fatalf("describe %s: %v", id, err)
	}
	return out.ReplicationGroups[0]
}

// nodeEndpoint is the form of a node endpoint of us-east-1.
var nodeEndpoint = regexp.MustCompile(`^sessions\.[a-z0-9]{6}\.0001\.use1\.cache\.amazonaws\.com$`)

// TestElastiCacheSubnetGroups creates, describes, modifies and deletes a subnet group of EC2
// subnets, with AWS's refusals, and refuses to delete one in use.
func TestElastiCacheSubnetGroups(t *testing.T) {
	env := newCacheEnv(t)
	ctx := context.Background()
	out, err := env.ec.DescribeCacheSubnetGroups(ctx, &elasticache.DescribeCacheSubnetGroupsInput{CacheSubnetGroupName: aws.String("Cache")})
	if err != nil {
		t.Fatal(err)
	}
	g := out.CacheSubnetGroups[0]
	if aws.ToString(g.ARN) != "arn:aws:elasticache:us-east-1:000000000000:subnetgroup:cache" || len(g.Subnets) != 2 ||
		aws.ToString(g.Subnets[1].SubnetAvailabilityZone.Name) != "us-east-1b" || !strings.HasPrefix(aws.ToString(g.VpcId), "vpc-") {
		t.Errorf("subnet group: %+v", g)
	}
	for name, in := range map[string]*elasticache.CreateCacheSubnetGroupInput{
		"exists":         {CacheSubnetGroupName: aws.String("cache"), CacheSubnetGroupDescription: aws.String("d"), SubnetIds: []string{*g.Subnets[0].SubnetIdentifier}},
		"missing subnet": {CacheSubnetGroupName: aws.String("other"), CacheSubnetGroupDescription: aws.String("d"), SubnetIds: []string{"subnet-0123456789abcdef0"}},
		"no subnets":     {CacheSubnetGroupName: aws.String("other"), CacheSubnetGroupDescription: aws.String("d"), SubnetIds: []string{}},
	} {
		_, err := env.ec.CreateCacheSubnetGroup(ctx, in)
		want := map[string]string{"exists": "CacheSubnetGroupAlreadyExists", "missing subnet": "InvalidSubnet", "no subnets": "InvalidParameterValue"}[name]
		wantCode(t, name, err, want)
	}
	mod, err := env.ec.ModifyCacheSubnetGroup(ctx, &elasticache.ModifyCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("cache"),
		CacheSubnetGroupDescription: aws.String("new"), SubnetIds: []string{*g.Subnets[0].SubnetIdentifier}})
	if err != nil || len(mod.CacheSubnetGroup.Subnets) != 1 || aws.ToString(mod.CacheSubnetGroup.CacheSubnetGroupDescription) != "new" {
		t.Fatalf("modify: %+v, %v", mod, err)
	}
	if _, err := env.ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("user"), Engine: aws.String("memcached"),
		CacheNodeType: aws.String("cache.t3.micro"), NumCacheNodes: aws.Int32(1), CacheSubnetGroupName: aws.String("cache")}); err != nil {
		t.Fatal(err)
	}
	_, err = env.ec.DeleteCacheSubnetGroup(ctx, &elasticache.DeleteCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("cache")})
	wantCode(t, "delete while in use", err, "CacheSubnetGroupInUse")
	env.e.Clock.Advance(cacheTransition)
	if _, err := env.ec.DeleteCacheCluster(ctx, &elasticache.DeleteCacheClusterInput{CacheClusterId: aws.String("user")}); err != nil {
		t.Fatal(err)
	}
	env.e.Clock.Advance(cacheTransition)
	if _, err := env.ec.DeleteCacheSubnetGroup(ctx, &elasticache.DeleteCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("cache")}); err != nil {
		t.Fatalf("delete once the cluster is gone: %v", err)
	}
	_, err = env.ec.DescribeCacheSubnetGroups(ctx, &elasticache.DescribeCacheSubnetGroupsInput{CacheSubnetGroupName: aws.String("cache")})
	wantCode(t, "describe deleted", err, "CacheSubnetGroupNotFoundFault")
}

// TestElastiCacheClusterLifecycle creates a Redis OSS cluster with every setting, waits for it to
// be available with a node endpoint, stages a node type change for the maintenance window, applies
// an engine upgrade at once, lets the window apply the rest, and deletes the cluster with a final
// snapshot.
func TestElastiCacheClusterLifecycle(t *testing.T) {
	env := newCacheEnv(t)
	ctx := context.Background()
	out, err := env.ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("Sessions"), Engine: aws.String("redis"),
		EngineVersion: aws.String("7.0"), CacheNodeType: aws.String("cache.t4g.small"), NumCacheNodes: aws.Int32(1), CacheSubnetGroupName: aws.String("cache"),
		SecurityGroupIds: []string{env.group}, SnapshotRetentionLimit: aws.Int32(5), SnapshotWindow: aws.String("01:00-02:00"),
		PreferredMaintenanceWindow: aws.String("mon:03:00-mon:04:00"), TransitEncryptionEnabled: aws.Bool(true), AuthToken: aws.String("a-secret-token-of-16+"[:16]),
		Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}}})
	if err != nil {
		t.Fatal(err)
	}
	c := out.CacheCluster
	if aws.ToString(c.CacheClusterId) != "sessions" || aws.ToString(c.CacheClusterStatus) != "creating" || aws.ToString(c.ARN) != "arn:aws:elasticache:us-east-1:000000000000:cluster:sessions" ||
		!aws.ToBool(c.AuthTokenEnabled) || aws.ToInt32(c.SnapshotRetentionLimit) != 5 || len(c.SecurityGroups) != 1 {
		t.Fatalf("created: %+v", c)
	}
	if got := env.cluster(t, "sessions"); got.CacheNodes[0].Endpoint != nil {
		t.Errorf("a creating node has an endpoint: %+v", got.CacheNodes[0].Endpoint)
	}
	env.e.Clock.Advance(cacheTransition)
	got := env.cluster(t, "sessions")
	if aws.ToString(got.CacheClusterStatus) != "available" || len(got.CacheNodes) != 1 || !nodeEndpoint.MatchString(aws.ToString(got.CacheNodes[0].Endpoint.Address)) ||
		aws.ToInt32(got.CacheNodes[0].Endpoint.Port) != 6379 {
		t.Fatalf("available: %+v", got)
	}
	// A node type change waits for the maintenance window; an engine upgrade asked for now applies now.
	mod, err := env.ec.ModifyCacheCluster(ctx, &elasticache.ModifyCacheClusterInput{CacheClusterId: aws.String("sessions"), CacheNodeType: aws.String("cache.m7g.large")})
	if err != nil || aws.ToString(mod.CacheCluster.PendingModifiedValues.CacheNodeType) != "cache.m7g.large" || aws.ToString(mod.CacheCluster.CacheNodeType) != "cache.t4g.small" {
		t.Fatalf("pending node type: %+v, %v", mod, err)
	}
	mod, err = env.ec.ModifyCacheCluster(ctx, &elasticache.ModifyCacheClusterInput{CacheClusterId: aws.String("sessions"), EngineVersion: aws.String("7.1"), ApplyImmediately: aws.Bool(true)})
	if err != nil || aws.ToString(mod.CacheCluster.EngineVersion) != "7.1" || aws.ToString(mod.CacheCluster.CacheNodeType) != "cache.m7g.large" ||
		aws.ToString(mod.CacheCluster.CacheClusterStatus) != "modifying" {
		t.Fatalf("applied at once with what was pending: %+v, %v", mod, err)
	}
	_, err = env.ec.ModifyCacheCluster(ctx, &elasticache.ModifyCacheClusterInput{CacheClusterId: aws.String("sessions"), SnapshotRetentionLimit: aws.Int32(1)})
	wantCode(t, "modify while modifying", err, "InvalidCacheClusterState")
	env.e.Clock.Advance(cacheTransition)
	_, err = env.ec.ModifyCacheCluster(ctx, &elasticache.ModifyCacheClusterInput{CacheClusterId: aws.String("sessions"), EngineVersion: aws.String("6.2")})
	wantCode(t, "downgrade", err, "InvalidParameterCombination")
	if _, err := env.ec.ModifyCacheCluster(ctx, &elasticache.ModifyCacheClusterInput{CacheClusterId: aws.String("sessions"), CacheNodeType: aws.String("cache.r7g.large")}); err != nil {
		t.Fatal(err)
	}
	// The maintenance window opens on a Monday at 03:00 UTC.
	now := env.e.Clock.Now().UTC()
	next := time.Date(now.Year(), now.Month(), now.Day(), 3, 0, 0, 0, time.UTC)
	for next.Weekday() != time.Monday || next.Before(now) {
		next = next.AddDate(0, 0, 1)
	}
	env.e.Clock.Advance(next.Sub(now) + time.Minute)
	if got := env.cluster(t, "sessions"); aws.ToString(got.CacheNodeType) != "cache.r7g.large" || got.PendingModifiedValues.CacheNodeType != nil {
		t.Errorf("after the maintenance window: %s, pending %v", aws.ToString(got.CacheNodeType), got.PendingModifiedValues.CacheNodeType)
	}
	env.e.Clock.Advance(cacheTransition)
	del, err := env.ec.DeleteCacheCluster(ctx, &elasticache.DeleteCacheClusterInput{CacheClusterId: aws.String("sessions"), FinalSnapshotIdentifier: aws.String("sessions-final")})
	if err != nil || aws.ToString(del.CacheCluster.CacheClusterStatus) != "deleting" {
		t.Fatalf("delete: %+v, %v", del, err)
	}
	env.e.Clock.Advance(cacheTransition)
	_, err = env.ec.DescribeCacheClusters(ctx, &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String("sessions")})
	wantCode(t, "describe deleted", err, "CacheClusterNotFound")
	snaps, err := env.ec.DescribeSnapshots(ctx, &elasticache.DescribeSnapshotsInput{SnapshotName: aws.String("sessions-final")})
	if err != nil || aws.ToString(snaps.Snapshots[0].SnapshotStatus) != "available" || aws.ToString(snaps.Snapshots[0].CacheClusterId) != "sessions" {
		t.Fatalf("final snapshot: %+v, %v", snaps, err)
	}
	if _, err := env.ec.DeleteSnapshot(ctx, &elasticache.DeleteSnapshotInput{SnapshotName: aws.String("sessions-final")}); err != nil {
		t.Fatal(err)
	}
	_, err = env.ec.DeleteSnapshot(ctx, &elasticache.DeleteSnapshotInput{SnapshotName: aws.String("sessions-final")})
	wantCode(t, "delete the snapshot again", err, "SnapshotNotFoundFault")
}

// TestElastiCacheClusterValidation checks CreateCacheCluster's refusals, each with AWS's error
// code, and a cross-AZ Memcached cluster with its configuration endpoint.
func TestElastiCacheClusterValidation(t *testing.T) {
	env := newCacheEnv(t)
	ctx := context.Background()
	base := func(mutate func(in *elasticache.CreateCacheClusterInput)) *elasticache.CreateCacheClusterInput {
		in := &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("c1"), Engine: aws.String("redis"), CacheNodeType: aws.String("cache.t3.micro"),
			NumCacheNodes: aws.Int32(1), CacheSubnetGroupName: aws.String("cache")}
		mutate(in)
		return in
	}
	for _, tc := range []struct {
		name string
		in   *elasticache.CreateCacheClusterInput
		code string
	}{
		{"bad id", base(func(in *elasticache.CreateCacheClusterInput) { in.CacheClusterId = aws.String("1-bad--id") }), "InvalidParameterValue"},
		{"unknown version", base(func(in *elasticache.CreateCacheClusterInput) { in.EngineVersion = aws.String("9.9") }), "InvalidParameterCombination"},
		{"unknown node type", base(func(in *elasticache.CreateCacheClusterInput) { in.CacheNodeType = aws.String("cache.x9.huge") }), "InvalidParameterValue"},
		{"two redis nodes", base(func(in *elasticache.CreateCacheClusterInput) { in.NumCacheNodes = aws.Int32(2) }), "InvalidParameterValue"},
		{"missing subnet group", base(func(in *elasticache.CreateCacheClusterInput) { in.CacheSubnetGroupName = aws.String("nope") }), "CacheSubnetGroupNotFoundFault"},
		{"missing security group", base(func(in *elasticache.CreateCacheClusterInput) { in.SecurityGroupIds = []string{"sg-0123456789abcdef0"} }), "InvalidParameterValue"},
		{"token without transit", base(func(in *elasticache.CreateCacheClusterInput) { in.AuthToken = aws.String("0123456789abcdef") }), "InvalidParameterCombination"},
		{"short token", base(func(in *elasticache.CreateCacheClusterInput) {
			in.TransitEncryptionEnabled, in.AuthToken = aws.Bool(true), aws.String("short")
		}), "InvalidParameterValue"},
		{"token with a quote", base(func(in *elasticache.CreateCacheClusterInput) {
			in.TransitEncryptionEnabled, in.AuthToken = aws.Bool(true), aws.String(`0123456789abcdef"`)
		}), "InvalidParameterValue"},
		{"memcached snapshots", base(func(in *elasticache.CreateCacheClusterInput) {
			in.Engine, in.SnapshotRetentionLimit = aws.String("memcached"), aws.Int32(1)
		}), "InvalidParameterCombination"},
		{"short maintenance window", base(func(in *elasticache.CreateCacheClusterInput) {
			in.PreferredMaintenanceWindow = aws.String("sun:05:00-sun:05:30")
		}), "InvalidParameterValue"},
		{"AZ mode for Redis OSS", base(func(in *elasticache.CreateCacheClusterInput) { in.AZMode = types.AZModeSingleAz }), "InvalidParameterValue"},
		{"overlapping windows", base(func(in *elasticache.CreateCacheClusterInput) {
			in.PreferredMaintenanceWindow, in.SnapshotWindow = aws.String("sun:05:00-sun:06:00"), aws.String("05:30-06:30")
		}), "InvalidParameterValue"},
	} {
		_, err := env.ec.CreateCacheCluster(ctx, tc.in)
		wantCode(t, tc.name, err, tc.code)
	}
	out, err := env.ec.CreateCacheCluster(ctx, base(func(in *elasticache.CreateCacheClusterInput) {
		in.CacheClusterId, in.Engine, in.NumCacheNodes, in.AZMode = aws.String("mc"), aws.String("memcached"), aws.Int32(3), types.AZModeCrossAz
	}))
	if err != nil || aws.ToString(out.CacheCluster.EngineVersion) != "1.6.22" {
		t.Fatalf("memcached of 3 nodes on the latest version: %+v, %v", out, err)
	}
	_, err = env.ec.CreateCacheCluster(ctx, base(func(in *elasticache.CreateCacheClusterInput) { in.CacheClusterId = aws.String("MC") }))
	wantCode(t, "same id in upper case", err, "CacheClusterAlreadyExists")
	env.e.Clock.Advance(cacheTransition)
	mc := env.cluster(t, "mc")
	if len(mc.CacheNodes) != 3 || !strings.HasPrefix(aws.ToString(mc.ConfigurationEndpoint.Address), "mc.") ||
		!strings.Contains(aws.ToString(mc.ConfigurationEndpoint.Address), ".cfg.use1.") || aws.ToInt32(mc.ConfigurationEndpoint.Port) != 11211 {
		t.Errorf("memcached nodes and configuration endpoint: %+v", mc)
	}
	if aws.ToString(mc.PreferredAvailabilityZone) != "Multiple" || aws.ToString(mc.CacheNodes[0].CustomerAvailabilityZone) != "us-east-1a" ||
		aws.ToString(mc.CacheNodes[1].CustomerAvailabilityZone) != "us-east-1b" {
		t.Errorf("cross-AZ nodes: %s, %s, %s", aws.ToString(mc.PreferredAvailabilityZone), aws.ToString(mc.CacheNodes[0].CustomerAvailabilityZone),
			aws.ToString(mc.CacheNodes[1].CustomerAvailabilityZone))
	}
	list, err := env.ec.DescribeCacheClusters(ctx, &elasticache.DescribeCacheClustersInput{MaxRecords: aws.Int32(20)})
	if err != nil || len(list.CacheClusters) != 1 || list.CacheClusters[0].CacheNodes != nil {
		t.Errorf("list without node info: %+v, %v", list, err)
	}
}

// TestElastiCacheReplicationGroup creates an encrypted replication group with failover and Multi-
// AZ, checks its members and endpoints, modifies it, adds a replica, snapshots it and deletes it
// keeping the primary.
func TestElastiCacheReplicationGroup(t *testing.T) {
	env := newCacheEnv(t)
	ctx := context.Background()
	_, err := env.ec.CreateReplicationGroup(ctx, &elasticache.CreateReplicationGroupInput{ReplicationGroupId: aws.String("orders"), ReplicationGroupDescription: aws.String("orders"),
		CacheNodeType: aws.String("cache.r7g.large"), NumCacheClusters: aws.Int32(1), AutomaticFailoverEnabled: aws.Bool(true), CacheSubnetGroupName: aws.String("cache")})
	wantCode(t, "failover without a replica", err, "InvalidParameterCombination")
	_, err = env.ec.CreateReplicationGroup(ctx, &elasticache.CreateReplicationGroupInput{ReplicationGroupId: aws.String("orders"), ReplicationGroupDescription: aws.String("orders"),
		CacheNodeType: aws.String("cache.r7g.large"), NumNodeGroups: aws.Int32(3), CacheSubnetGroupName: aws.String("cache")})
	wantCode(t, "cluster mode enabled", err, "InvalidParameterCombination")
	out, err := env.ec.CreateReplicationGroup(ctx, &elasticache.CreateReplicationGroupInput{ReplicationGroupId: aws.String("orders"),
		ReplicationGroupDescription: aws.String("orders cache"), Engine: aws.String("valkey"), CacheNodeType: aws.String("cache.r7g.large"),
		NumCacheClusters: aws.Int32(2), AutomaticFailoverEnabled: aws.Bool(true), MultiAZEnabled: aws.Bool(true), AtRestEncryptionEnabled: aws.Bool(true),
		TransitEncryptionEnabled: aws.Bool(true), AuthToken: aws.String("Orders-Token-0123456789"), CacheSubnetGroupName: aws.String("cache"),
		SecurityGroupIds: []string{env.group}, Tags: []types.Tag{{Key: aws.String("app"), Value: aws.String("orders")}}})
	if err != nil {
		t.Fatal(err)
	}
	g := out.ReplicationGroup
	if aws.ToString(g.Status) != "creating" || strings.Join(g.MemberClusters, ",") != "orders-001,orders-002" || g.AutomaticFailover != types.AutomaticFailoverStatusEnabled ||
		!aws.ToBool(g.AtRestEncryptionEnabled) || g.NodeGroups[0].PrimaryEndpoint != nil {
		t.Fatalf("created: %+v", g)
	}
	env.e.Clock.Advance(cacheTransition)
	g2 := env.replicationGroup(t, "orders")
	ng := g2.NodeGroups[0]
	if aws.ToString(g2.Status) != "available" || !strings.HasPrefix(aws.ToString(ng.PrimaryEndpoint.Address), "orders.") ||
		!strings.HasPrefix(aws.ToString(ng.ReaderEndpoint.Address), "orders-ro.") || aws.ToString(ng.NodeGroupMembers[0].CurrentRole) != "primary" ||
		aws.ToString(ng.NodeGroupMembers[1].CurrentRole) != "replica" {
		t.Fatalf("available: %+v", g2)
	}
	if m := env.cluster(t, "orders-002"); aws.ToString(m.ReplicationGroupId) != "orders" || aws.ToString(m.CacheClusterStatus) != "available" {
		t.Errorf("member: %+v", m)
	}
	_, err = env.ec.DeleteCacheCluster(ctx, &elasticache.DeleteCacheClusterInput{CacheClusterId: aws.String("orders-001")})
	wantCode(t, "delete a member", err, "InvalidParameterCombination")
	mod, err := env.ec.ModifyReplicationGroup(ctx, &elasticache.ModifyReplicationGroupInput{ReplicationGroupId: aws.String("orders"),
		CacheNodeType: aws.String("cache.r7g.xlarge"), ApplyImmediately: aws.Bool(true), AuthToken: aws.String("Orders-Token-Rotated-1"),
		AuthTokenUpdateStrategy: types.AuthTokenUpdateStrategyTypeRotate, ReplicationGroupDescription: aws.String("orders, bigger")})
	if err != nil || aws.ToString(mod.ReplicationGroup.Status) != "modifying" || aws.ToString(mod.ReplicationGroup.CacheNodeType) != "cache.r7g.xlarge" {
		t.Fatalf("modify: %+v, %v", mod, err)
	}
	_, err = env.ec.ModifyReplicationGroup(ctx, &elasticache.ModifyReplicationGroupInput{ReplicationGroupId: aws.String("orders"), MultiAZEnabled: aws.Bool(false)})
	wantCode(t, "modify while modifying", err, "InvalidReplicationGroupState")
	env.e.Clock.Advance(cacheTransition)
	_, err = env.ec.ModifyReplicationGroup(ctx, &elasticache.ModifyReplicationGroupInput{ReplicationGroupId: aws.String("orders"), AutomaticFailoverEnabled: aws.Bool(false)})
	wantCode(t, "failover off with Multi-AZ on", err, "InvalidParameterCombination")
	if _, err := env.ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("orders-003"), ReplicationGroupId: aws.String("orders")}); err != nil {
		t.Fatalf("add a replica: %v", err)
	}
	snap, err := env.ec.CreateSnapshot(ctx, &elasticache.CreateSnapshotInput{SnapshotName: aws.String("orders-manual"), ReplicationGroupId: aws.String("orders")})
	if err != nil || aws.ToString(snap.Snapshot.ReplicationGroupId) != "orders" || aws.ToString(snap.Snapshot.SnapshotStatus) != "creating" {
		t.Fatalf("snapshot: %+v, %v", snap, err)
	}
	del, err := env.ec.DeleteReplicationGroup(ctx, &elasticache.DeleteReplicationGroupInput{ReplicationGroupId: aws.String("orders"), RetainPrimaryCluster: aws.Bool(true)})
	if err != nil || aws.ToString(del.ReplicationGroup.Status) != "deleting" {
		t.Fatalf("delete: %+v, %v", del, err)
	}
	env.e.Clock.Advance(cacheTransition)
	_, err = env.ec.DescribeReplicationGroups(ctx, &elasticache.DescribeReplicationGroupsInput{ReplicationGroupId: aws.String("orders")})
	wantCode(t, "describe deleted", err, "ReplicationGroupNotFoundFault")
	if kept := env.cluster(t, "orders-001"); kept.ReplicationGroupId != nil || aws.ToString(kept.CacheClusterStatus) != "available" {
		t.Errorf("retained primary: %+v", kept)
	}
	_, err = env.ec.DescribeCacheClusters(ctx, &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String("orders-002")})
	wantCode(t, "describe a deleted replica", err, "CacheClusterNotFound")
}

// TestElastiCacheTags adds, removes and lists the tags of a subnet group, with the errors for a
// missing key, an unknown cluster, a bad ARN and a reserved key.
func TestElastiCacheTags(t *testing.T) {
	env := newCacheEnv(t)
	ctx := context.Background()
	arn := aws.String("arn:aws:elasticache:us-east-1:000000000000:subnetgroup:cache")
	added, err := env.ec.AddTagsToResource(ctx, &elasticache.AddTagsToResourceInput{ResourceName: arn, Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")},
		{Key: aws.String("team"), Value: aws.String("web")}}})
	if err != nil || len(added.TagList) != 2 {
		t.Fatalf("add: %+v, %v", added, err)
	}
	removed, err := env.ec.RemoveTagsFromResource(ctx, &elasticache.RemoveTagsFromResourceInput{ResourceName: arn, TagKeys: []string{"team"}})
	if err != nil || len(removed.TagList) != 1 {
		t.Fatalf("remove: %+v, %v", removed, err)
	}
	_, err = env.ec.RemoveTagsFromResource(ctx, &elasticache.RemoveTagsFromResourceInput{ResourceName: arn, TagKeys: []string{"team"}})
	wantCode(t, "remove a missing key", err, "TagNotFound")
	list, err := env.ec.ListTagsForResource(ctx, &elasticache.ListTagsForResourceInput{ResourceName: arn})
	if err != nil || len(list.TagList) != 1 || aws.ToString(list.TagList[0].Key) != "env" {
		t.Fatalf("list: %+v, %v", list, err)
	}
	_, err = env.ec.ListTagsForResource(ctx, &elasticache.ListTagsForResourceInput{ResourceName: aws.String("arn:aws:elasticache:us-east-1:000000000000:cluster:nope")})
	wantCode(t, "missing cluster", err, "CacheClusterNotFound")
	_, err = env.ec.ListTagsForResource(ctx, &elasticache.ListTagsForResourceInput{ResourceName: aws.String("nope")})
	wantCode(t, "not an ARN", err, "InvalidARN")
	_, err = env.ec.AddTagsToResource(ctx, &elasticache.AddTagsToResourceInput{ResourceName: arn, Tags: []types.Tag{{Key: aws.String("aws:x"), Value: aws.String("y")}}})
	wantCode(t, "reserved key", err, "InvalidParameterValue")
}

// TestElastiCacheTransitionOption checks that Options.Transitions["ElastiCache"] of zero makes a
// new cluster available at once.
func TestElastiCacheTransitionOption(t *testing.T) {
	e, url := start(t, emulator.Options{Transitions: map[string]time.Duration{"ElastiCache": 0}})
	e.Clock.Freeze()
	cfg := sdkConfig(t, url, "AKIDCACHE", 1)
	network := ec2.NewFromConfig(cfg)
	vpc := createVpc(t, network, "10.51.0.0/16")
	ec := elasticache.NewFromConfig(cfg)
	ctx := context.Background()
	if _, err := ec.CreateCacheSubnetGroup(ctx, &elasticache.CreateCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("now"),
		CacheSubnetGroupDescription: aws.String("now"), SubnetIds: []string{createSubnet(t, network, vpc, "10.51.1.0/24")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("now"), CacheNodeType: aws.String("cache.t3.micro"),
		CacheSubnetGroupName: aws.String("now")}); err != nil {
		t.Fatal(err)
	}
	out, err := ec.DescribeCacheClusters(ctx, &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String("now")})
	if err != nil || aws.ToString(out.CacheClusters[0].CacheClusterStatus) != "available" || aws.ToString(out.CacheClusters[0].Engine) != "redis" {
		t.Fatalf("with a zero transition: %+v, %v", out, err)
	}
}
