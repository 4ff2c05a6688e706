package emulator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
)

// TestElastiCacheReplicaCounts grows a replication group of one node to three and shrinks it
// again with AWS's rules: only at once, never below one replica while automatic failover is on,
// never above five, the named replica (not the primary) removed, the group modifying meanwhile
// and its members and node groups following.
func TestElastiCacheReplicaCounts(t *testing.T) {
	env := newCacheEnv(t)
	ctx := context.Background()
	if _, err := env.ec.CreateReplicationGroup(ctx, &elasticache.CreateReplicationGroupInput{ReplicationGroupId: aws.String("grow"),
		ReplicationGroupDescription: aws.String("grow"), Engine: aws.String("redis"), CacheNodeType: aws.String("cache.t3.micro"),
		NumCacheClusters: aws.Int32(1), CacheSubnetGroupName: aws.String("cache")}); err != nil {
		t.Fatal(err)
	}
	_, err := env.ec.IncreaseReplicaCount(ctx, &elasticache.IncreaseReplicaCountInput{ReplicationGroupId: aws.String("grow"), NewReplicaCount: aws.Int32(2), ApplyImmediately: aws.Bool(true)})
	wantCode(t, "increase while creating", err, "InvalidReplicationGroupState")
	env.e.Clock.Advance(cacheTransition)

	_, err = env.ec.IncreaseReplicaCount(ctx, &elasticache.IncreaseReplicaCountInput{ReplicationGroupId: aws.String("grow"), NewReplicaCount: aws.Int32(2), ApplyImmediately: aws.Bool(false)})
	wantCode(t, "increase in the window", err, "InvalidParameterValue")
	_, err = env.ec.IncreaseReplicaCount(ctx, &elasticache.IncreaseReplicaCountInput{ReplicationGroupId: aws.String("grow"), NewReplicaCount: aws.Int32(6), ApplyImmediately: aws.Bool(true)})
	wantCode(t, "six replicas", err, "NodeQuotaForClusterExceeded")
	_, err = env.ec.IncreaseReplicaCount(ctx, &elasticache.IncreaseReplicaCountInput{ReplicationGroupId: aws.String("missing"), NewReplicaCount: aws.Int32(1), ApplyImmediately: aws.Bool(true)})
	wantCode(t, "missing group", err, "ReplicationGroupNotFoundFault")

	up, err := env.ec.IncreaseReplicaCount(ctx, &elasticache.IncreaseReplicaCountInput{ReplicationGroupId: aws.String("grow"), NewReplicaCount: aws.Int32(2), ApplyImmediately: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if g := up.ReplicationGroup; aws.ToString(g.Status) != "modifying" || strings.Join(g.MemberClusters, ",") != "grow-001,grow-002,grow-003" {
		t.Errorf("after the increase: %s %v", aws.ToString(g.Status), g.MemberClusters)
	}
	env.e.Clock.Advance(cacheTransition)
	g := env.replicationGroup(t, "grow")
	if aws.ToString(g.Status) != "available" || len(g.NodeGroups[0].NodeGroupMembers) != 3 || aws.ToString(env.cluster(t, "grow-003").ReplicationGroupId) != "grow" {
		t.Errorf("the grown group: %+v", g)
	}
	_, err = env.ec.IncreaseReplicaCount(ctx, &elasticache.IncreaseReplicaCountInput{ReplicationGroupId: aws.String("grow"), NewReplicaCount: aws.Int32(2), ApplyImmediately: aws.Bool(true)})
	wantCode(t, "increase to the same count", err, "InvalidParameterValue")

	if _, err := env.ec.ModifyReplicationGroup(ctx, &elasticache.ModifyReplicationGroupInput{ReplicationGroupId: aws.String("grow"), AutomaticFailoverEnabled: aws.Bool(true),
		MultiAZEnabled: aws.Bool(true), ApplyImmediately: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	_, err = env.ec.DecreaseReplicaCount(ctx, &elasticache.DecreaseReplicaCountInput{ReplicationGroupId: aws.String("grow"), NewReplicaCount: aws.Int32(0), ApplyImmediately: aws.Bool(true)})
	wantCode(t, "no replica with failover", err, "InvalidParameterValue")
	_, err = env.ec.DecreaseReplicaCount(ctx, &elasticache.DecreaseReplicaCountInput{ReplicationGroupId: aws.String("grow"), ReplicasToRemove: []string{"grow-001"}, ApplyImmediately: aws.Bool(true)})
	wantCode(t, "remove the primary", err, "InvalidParameterValue")

	down, err := env.ec.DecreaseReplicaCount(ctx, &elasticache.DecreaseReplicaCountInput{ReplicationGroupId: aws.String("grow"), ReplicasToRemove: []string{"grow-002"}, ApplyImmediately: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if g := down.ReplicationGroup; strings.Join(g.MemberClusters, ",") != "grow-001,grow-003" {
		t.Errorf("after removing grow-002: %v", g.MemberClusters)
	}
	_, err = env.ec.DescribeCacheClusters(ctx, &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String("grow-002")})
	wantCode(t, "the removed replica", err, "CacheClusterNotFound")
	env.e.Clock.Advance(cacheTransition)

	if _, err := env.ec.ModifyReplicationGroup(ctx, &elasticache.ModifyReplicationGroupInput{ReplicationGroupId: aws.String("grow"), AutomaticFailoverEnabled: aws.Bool(false),
		MultiAZEnabled: aws.Bool(false), ApplyImmediately: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.ec.DecreaseReplicaCount(ctx, &elasticache.DecreaseReplicaCountInput{ReplicationGroupId: aws.String("grow"), NewReplicaCount: aws.Int32(0), ApplyImmediately: aws.Bool(true)}); err != nil {
		t.Fatalf("decrease to no replica without failover: %v", err)
	}
	env.e.Clock.Advance(cacheTransition)
	if g := env.replicationGroup(t, "grow"); strings.Join(g.MemberClusters, ",") != "grow-001" || aws.ToString(g.Status) != "available" {
		t.Errorf("the shrunk group: %s %v", aws.ToString(g.Status), g.MemberClusters)
	}
}
