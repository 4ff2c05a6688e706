package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"

	"github.com/runner-codes/infra-operator/emulator"
)

// deleteDefaultVpc takes the region's default VPC apart as AWS requires (subnets, internet
// gateway) and deletes it.
func deleteDefaultVpc(t *testing.T, c *ec2.Client) {
	t.Helper()
	ctx := context.Background()
	vpc := defaultVpc(t, c).VpcId
	subnets, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{Filters: []ec2types.Filter{filter("vpc-id", aws.ToString(vpc))}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range subnets.Subnets {
		if _, err := c.DeleteSubnet(ctx, &ec2.DeleteSubnetInput{SubnetId: s.SubnetId}); err != nil {
			t.Fatal(err)
		}
	}
	igws, err := c.DescribeInternetGateways(ctx, &ec2.DescribeInternetGatewaysInput{Filters: []ec2types.Filter{filter("attachment.vpc-id", aws.ToString(vpc))}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range igws.InternetGateways {
		if _, err := c.DetachInternetGateway(ctx, &ec2.DetachInternetGatewayInput{InternetGatewayId: g.InternetGatewayId, VpcId: vpc}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.DeleteVpc(ctx, &ec2.DeleteVpcInput{VpcId: vpc}); err != nil {
		t.Fatal(err)
	}
}

// TestElastiCacheDefaultSubnetGroup checks the "default" cache subnet group: clusters and
// replication groups that name no subnet group use it, it is made from the default VPC's default
// subnets the first time it is used and shows in DescribeCacheSubnetGroups from then on, it
// cannot be deleted, and without a default VPC there is none.
func TestElastiCacheDefaultSubnetGroup(t *testing.T) {
	e, url := start(t, emulator.Options{})
	frozenOnSecond(e)
	cfg := sdkConfig(t, url, "AKIDCACHE", 1)
	ctx := context.Background()
	network, cache := ec2.NewFromConfig(cfg), elasticache.NewFromConfig(cfg)
	if _, err := cache.DescribeCacheSubnetGroups(ctx, &elasticache.DescribeCacheSubnetGroupsInput{CacheSubnetGroupName: aws.String("default")}); errorCode(err) != "CacheSubnetGroupNotFoundFault" {
		t.Errorf("the default group before any use: %v", err)
	}
	cluster, err := cache.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("plain"), Engine: aws.String("memcached"),
		CacheNodeType: aws.String("cache.t3.micro"), NumCacheNodes: aws.Int32(1)})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(cluster.CacheCluster.CacheSubnetGroupName); got != "default" {
		t.Errorf("a cluster without a subnet group is in %q, want default", got)
	}
	out, err := cache.DescribeCacheSubnetGroups(ctx, &elasticache.DescribeCacheSubnetGroupsInput{CacheSubnetGroupName: aws.String("default")})
	if err != nil {
		t.Fatal(err)
	}
	g := out.CacheSubnetGroups[0]
	vpc := aws.ToString(defaultVpc(t, network).VpcId)
	var zones []string
	for _, s := range g.Subnets {
		zones = append(zones, aws.ToString(s.SubnetAvailabilityZone.Name))
	}
	if aws.ToString(g.VpcId) != vpc || len(zones) != 6 || zones[0] != "us-east-1a" || zones[5] != "us-east-1f" ||
		aws.ToString(g.ARN) != "arn:aws:elasticache:us-east-1:000000000000:subnetgroup:default" {
		t.Errorf("the default group: vpc %s (default VPC %s), zones %v, ARN %s", aws.ToString(g.VpcId), vpc, zones, aws.ToString(g.ARN))
	}
	group, err := cache.CreateReplicationGroup(ctx, &elasticache.CreateReplicationGroupInput{ReplicationGroupId: aws.String("orders"),
		ReplicationGroupDescription: aws.String("orders"), Engine: aws.String("redis"), CacheNodeType: aws.String("cache.t3.micro"), NumCacheClusters: aws.Int32(1)})
	if err != nil {
		t.Fatalf("a replication group without a subnet group: %v", err)
	}
	members, err := cache.DescribeCacheClusters(ctx, &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String(group.ReplicationGroup.MemberClusters[0])})
	if err != nil || aws.ToString(members.CacheClusters[0].CacheSubnetGroupName) != "default" {
		t.Errorf("the replication group's member: %+v, %v", members, err)
	}
	_, err = cache.DeleteCacheSubnetGroup(ctx, &elasticache.DeleteCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("default")})
	wantCode(t, "deleting the default group", err, "InvalidParameterValue")

	west := elasticache.NewFromConfig(cfg, func(o *elasticache.Options) { o.Region = "eu-west-1" })
	deleteDefaultVpc(t, ec2.NewFromConfig(cfg, func(o *ec2.Options) { o.Region = "eu-west-1" }))
	_, err = west.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("plain"), Engine: aws.String("memcached"),
		CacheNodeType: aws.String("cache.t3.micro"), NumCacheNodes: aws.Int32(1)})
	wantCode(t, "a cluster without a subnet group where there is no default VPC", err, "CacheSubnetGroupNotFoundFault")
}
