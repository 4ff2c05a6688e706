package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// caches is one side's ElastiCache client, how it lets lifecycles finish, the subnets of its
// EC2 and the account of its ARNs.
type caches struct {
	ec      *elasticache.Client
	settle  func()
	subnets []string
	account string
}

// cacheARN returns the ARN of a resource of the side, kind being cluster, subnetgroup or
// replicationgroup.
func (c *caches) cacheARN(kind, name string) *string {
	return aws.String("arn:aws:elasticache:us-east-1:" + c.account + ":" + kind + ":" + name)
}

// elastiCacheSteps is the ElastiCache sequence both sides run: a subnet group, Redis and
// Memcached clusters, a replication group, modifications, replica counts, tags, snapshots, deletion, and the
// errors AWS documents.
func elastiCacheSteps() []step[*caches] {
	ctx := context.Background()
	describe := func(id string) func(c *caches) outcome {
		return func(c *caches) outcome {
			out, err := c.ec.DescribeCacheClusters(ctx, &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String(id), ShowCacheNodeInfo: aws.Bool(true)})
			if err != nil {
				return observe(err, nil)
			}
			cl := out.CacheClusters[0]
			return observe(nil, map[string]string{"status": aws.ToString(cl.CacheClusterStatus), "engine": aws.ToString(cl.Engine),
				"version": aws.ToString(cl.EngineVersion), "type": aws.ToString(cl.CacheNodeType), "nodes": strconv.Itoa(len(cl.CacheNodes)),
				"arn": accountPart.ReplaceAllString(aws.ToString(cl.ARN), ":<account>:")})
		}
	}
	return []step[*caches]{
		{"CreateCacheSubnetGroup", func(c *caches) outcome {
			out, err := c.ec.CreateCacheSubnetGroup(ctx, &elasticache.CreateCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("diff-cache"),
				CacheSubnetGroupDescription: aws.String("diff"), SubnetIds: c.subnets})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"subnets": strconv.Itoa(len(out.CacheSubnetGroup.Subnets)),
				"arn": accountPart.ReplaceAllString(aws.ToString(out.CacheSubnetGroup.ARN), ":<account>:")})
		}},
		{"CreateSubnetGroupAgain", errorOutcome(func(c *caches) error {
			_, err := c.ec.CreateCacheSubnetGroup(ctx, &elasticache.CreateCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("diff-cache"),
				CacheSubnetGroupDescription: aws.String("diff"), SubnetIds: c.subnets})
			return err
		})},
		{"CreateSubnetGroupMissingSubnet", errorOutcome(func(c *caches) error {
			_, err := c.ec.CreateCacheSubnetGroup(ctx, &elasticache.CreateCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("diff-other"),
				CacheSubnetGroupDescription: aws.String("diff"), SubnetIds: []string{"subnet-0123456789abcdef0"}})
			return err
		})},
		{"DescribeCacheSubnetGroups", func(c *caches) outcome {
			out, err := c.ec.DescribeCacheSubnetGroups(ctx, &elasticache.DescribeCacheSubnetGroupsInput{CacheSubnetGroupName: aws.String("diff-cache")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"description": aws.ToString(out.CacheSubnetGroups[0].CacheSubnetGroupDescription)})
		}},
		{"ModifyCacheSubnetGroup", errorOutcome(func(c *caches) error {
			_, err := c.ec.ModifyCacheSubnetGroup(ctx, &elasticache.ModifyCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("diff-cache"),
				CacheSubnetGroupDescription: aws.String("diff, changed")})
			return err
		})},
		{"CreateRedisCluster", errorOutcome(func(c *caches) error {
			_, err := c.ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("diff-redis"), Engine: aws.String("redis"),
				EngineVersion: aws.String("7.1"), CacheNodeType: aws.String("cache.t3.micro"), NumCacheNodes: aws.Int32(1), CacheSubnetGroupName: aws.String("diff-cache"),
				Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}}})
			return err
		})},
		{"CreateClusterAgain", errorOutcome(func(c *caches) error {
			_, err := c.ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("diff-redis"), Engine: aws.String("redis"),
				CacheNodeType: aws.String("cache.t3.micro"), NumCacheNodes: aws.Int32(1), CacheSubnetGroupName: aws.String("diff-cache")})
			return err
		})},
		{"CreateTwoNodeRedis", errorOutcome(func(c *caches) error {
			_, err := c.ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("diff-two"), Engine: aws.String("redis"),
				CacheNodeType: aws.String("cache.t3.micro"), NumCacheNodes: aws.Int32(2), CacheSubnetGroupName: aws.String("diff-cache")})
			return err
		})},
		{"CreateTokenWithoutTransit", errorOutcome(func(c *caches) error {
			_, err := c.ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("diff-token"), Engine: aws.String("redis"),
				CacheNodeType: aws.String("cache.t3.micro"), NumCacheNodes: aws.Int32(1), CacheSubnetGroupName: aws.String("diff-cache"), AuthToken: aws.String("0123456789abcdef")})
			return err
		})},
		{"CreateMemcachedCluster", errorOutcome(func(c *caches) error {
			_, err := c.ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("diff-mc"), Engine: aws.String("memcached"),
				CacheNodeType: aws.String("cache.t3.micro"), NumCacheNodes: aws.Int32(2), CacheSubnetGroupName: aws.String("diff-cache")})
			return err
		})},
		{"DescribeRedis", func(c *caches) outcome {
			c.settle()
			return describe("diff-redis")(c)
		}},
		{"DescribeMemcached", describe("diff-mc")},
		{"DescribeMissing", describe("diff-missing")},
		{"ModifyCacheCluster", errorOutcome(func(c *caches) error {
			_, err := c.ec.ModifyCacheCluster(ctx, &elasticache.ModifyCacheClusterInput{CacheClusterId: aws.String("diff-redis"), SnapshotRetentionLimit: aws.Int32(3)})
			return err
		})},
		{"CreateReplicationGroup", errorOutcome(func(c *caches) error {
			_, err := c.ec.CreateReplicationGroup(ctx, &elasticache.CreateReplicationGroupInput{ReplicationGroupId: aws.String("diff-rg"),
				ReplicationGroupDescription: aws.String("diff"), Engine: aws.String("redis"), CacheNodeType: aws.String("cache.t3.micro"), NumCacheClusters: aws.Int32(2),
				AutomaticFailoverEnabled: aws.Bool(true), AtRestEncryptionEnabled: aws.Bool(true), TransitEncryptionEnabled: aws.Bool(true),
				AuthToken: aws.String("Diff-Token-0123456789"), CacheSubnetGroupName: aws.String("diff-cache")})
			return err
		})},
		{"DescribeReplicationGroups", func(c *caches) outcome {
			c.settle()
			out, err := c.ec.DescribeReplicationGroups(ctx, &elasticache.DescribeReplicationGroupsInput{ReplicationGroupId: aws.String("diff-rg")})
			if err != nil {
				return observe(err, nil)
			}
			g := out.ReplicationGroups[0]
			return observe(nil, map[string]string{"status": aws.ToString(g.Status), "members": strings.Join(g.MemberClusters, ","),
				"failover": string(g.AutomaticFailover), "atRest": strconv.FormatBool(aws.ToBool(g.AtRestEncryptionEnabled)),
				"auth": strconv.FormatBool(aws.ToBool(g.AuthTokenEnabled))})
		}},
		{"ModifyReplicationGroup", errorOutcome(func(c *caches) error {
			_, err := c.ec.ModifyReplicationGroup(ctx, &elasticache.ModifyReplicationGroupInput{ReplicationGroupId: aws.String("diff-rg"),
				ReplicationGroupDescription: aws.String("diff, changed"), SnapshotRetentionLimit: aws.Int32(2)})
			return err
		})},
		{"IncreaseReplicaCount", errorOutcome(func(c *caches) error {
			_, err := c.ec.IncreaseReplicaCount(ctx, &elasticache.IncreaseReplicaCountInput{ReplicationGroupId: aws.String("diff-rg"),
				NewReplicaCount: aws.Int32(2), ApplyImmediately: aws.Bool(true)})
			return err
		})},
		{"DecreaseReplicaCountBelowFailover", errorOutcome(func(c *caches) error {
			c.settle()
			_, err := c.ec.DecreaseReplicaCount(ctx, &elasticache.DecreaseReplicaCountInput{ReplicationGroupId: aws.String("diff-rg"),
				NewReplicaCount: aws.Int32(0), ApplyImmediately: aws.Bool(true)})
			return err
		})},
		{"DecreaseReplicaCount", errorOutcome(func(c *caches) error {
			_, err := c.ec.DecreaseReplicaCount(ctx, &elasticache.DecreaseReplicaCountInput{ReplicationGroupId: aws.String("diff-rg"),
				NewReplicaCount: aws.Int32(1), ApplyImmediately: aws.Bool(true)})
			return err
		})},
		{"AddTagsToResource", errorOutcome(func(c *caches) error {
			_, err := c.ec.AddTagsToResource(ctx, &elasticache.AddTagsToResourceInput{ResourceName: c.cacheARN("cluster", "diff-redis"),
				Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")}}})
			return err
		})},
		{"RemoveTagsFromResource", errorOutcome(func(c *caches) error {
			_, err := c.ec.RemoveTagsFromResource(ctx, &elasticache.RemoveTagsFromResourceInput{ResourceName: c.cacheARN("cluster", "diff-redis"), TagKeys: []string{"team"}})
			return err
		})},
		{"ListTagsForResource", func(c *caches) outcome {
			out, err := c.ec.ListTagsForResource(ctx, &elasticache.ListTagsForResourceInput{ResourceName: c.cacheARN("cluster", "diff-redis")})
			if err != nil {
				return observe(err, nil)
			}
			var tags []string
			for _, t := range out.TagList {
				tags = append(tags, aws.ToString(t.Key)+"="+aws.ToString(t.Value))
			}
			return observe(nil, map[string]string{"tags": strings.Join(tags, ",")})
		}},
		{"CreateSnapshot", errorOutcome(func(c *caches) error {
			_, err := c.ec.CreateSnapshot(ctx, &elasticache.CreateSnapshotInput{SnapshotName: aws.String("diff-snap"), CacheClusterId: aws.String("diff-redis")})
			return err
		})},
		{"DescribeSnapshots", func(c *caches) outcome {
			c.settle()
			out, err := c.ec.DescribeSnapshots(ctx, &elasticache.DescribeSnapshotsInput{SnapshotName: aws.String("diff-snap")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"snapshots": strconv.Itoa(len(out.Snapshots))})
		}},
		{"DeleteSnapshot", errorOutcome(func(c *caches) error {
			_, err := c.ec.DeleteSnapshot(ctx, &elasticache.DeleteSnapshotInput{SnapshotName: aws.String("diff-snap")})
			return err
		})},
		{"DeleteSubnetGroupInUse", errorOutcome(func(c *caches) error {
			_, err := c.ec.DeleteCacheSubnetGroup(ctx, &elasticache.DeleteCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("diff-cache")})
			return err
		})},
		{"DeleteReplicationGroup", errorOutcome(func(c *caches) error {
			_, err := c.ec.DeleteReplicationGroup(ctx, &elasticache.DeleteReplicationGroupInput{ReplicationGroupId: aws.String("diff-rg")})
			return err
		})},
		{"DeleteCacheCluster", func(c *caches) outcome {
			out, err := c.ec.DeleteCacheCluster(ctx, &elasticache.DeleteCacheClusterInput{CacheClusterId: aws.String("diff-redis")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": aws.ToString(out.CacheCluster.CacheClusterStatus)})
		}},
		{"DeleteMemcached", errorOutcome(func(c *caches) error {
			_, err := c.ec.DeleteCacheCluster(ctx, &elasticache.DeleteCacheClusterInput{CacheClusterId: aws.String("diff-mc")})
			return err
		})},
		{"DescribeDeleted", func(c *caches) outcome {
			c.settle()
			return describe("diff-redis")(c)
		}},
		{"DeleteCacheSubnetGroup", errorOutcome(func(c *caches) error {
			_, err := c.ec.DeleteCacheSubnetGroup(ctx, &elasticache.DeleteCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("diff-cache")})
			return err
		})},
	}
}

// newCaches returns the ElastiCache client of a side with two subnets made in its EC2.
func newCaches(t *testing.T, url, account string, settle func()) *caches {
	t.Helper()
	cfg := sdkConfig(t, url)
	network := ec2.NewFromConfig(cfg)
	ctx := context.Background()
	vpc, err := network.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.78.0.0/16")})
	if err != nil {
		t.Fatal(err)
	}
	c := &caches{ec: elasticache.NewFromConfig(cfg), settle: settle, account: account}
	for _, cidr := range []string{"10.78.1.0/24", "10.78.2.0/24"} {
		s, err := network.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String(cidr)})
		if err != nil {
			t.Fatal(err)
		}
		c.subnets = append(c.subnets, aws.ToString(s.Subnet.SubnetId))
	}
	return c
}

// TestElastiCacheAgainstMoto compares ElastiCache with moto's.
func TestElastiCacheAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	emuSide := newCaches(t, emu.URL, emulator.DefaultAccount, func() { e.Clock.Advance(time.Minute) })
	peerSide := newCaches(t, peerURL, "123456789012", func() {})
	const unimplemented = "moto does not implement the operation (HTTP 500, NotImplementedError)"
	compare(t, emuSide, peerSide, "moto "+motoVersion, elastiCacheSteps(), map[string]string{
		"CreateSubnetGroupMissingSubnet":    "moto accepts a subnet that does not exist; AWS answers InvalidSubnet (CreateCacheSubnetGroup)",
		"ModifyCacheSubnetGroup":            unimplemented,
		"ModifyCacheCluster":                unimplemented,
		"ModifyReplicationGroup":            unimplemented,
		"IncreaseReplicaCount":              unimplemented,
		"DecreaseReplicaCountBelowFailover": unimplemented,
		"DecreaseReplicaCount":              unimplemented,
		"DeleteSubnetGroupInUse":            unimplemented,
		"DeleteCacheSubnetGroup":            unimplemented,
		"CreateTwoNodeRedis": "moto makes a Redis OSS cluster of 2 nodes; AWS answers InvalidParameterValue: outside a replication group a Valkey or " +
			"Redis OSS cluster has 1 node (CreateCacheCluster, NumCacheNodes)",
		"CreateTokenWithoutTransit": "moto accepts an AUTH token without encryption in transit; AWS takes AuthToken only with TransitEncryptionEnabled " +
			"(CreateCacheCluster, AuthToken) and answers InvalidParameterCombination",
		"DescribeRedis":     "moto lists no cache nodes even with ShowCacheNodeInfo; AWS lists each node with its endpoint",
		"DescribeMemcached": "moto lists no cache nodes and no engine version for a Memcached cluster created without one; AWS takes the latest version and lists the nodes",
		"DescribeReplicationGroups": "moto makes one member cluster whatever NumCacheClusters says; AWS makes NumCacheClusters of them " +
			"(<id>-001 the primary, then the replicas)",
		"DescribeDeleted": "moto keeps a deleted cluster as deleting for good; AWS removes it once deleted (the emulator after its transition time)",
	})
}
