package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"

	"github.com/runner-codes/infra-operator/emulator"
)

// defaultCaches is one side's ElastiCache client, how it lets lifecycles finish, and its
// region's default VPC.
type defaultCaches struct {
	ec     *elasticache.Client
	settle func()
	vpc    string
}

// defaultSubnetGroupSteps is the sequence both sides run on a new account: a cluster that names
// no cache subnet group, the "default" group it lands in, and the refusal to delete that group.
func defaultSubnetGroupSteps() []step[*defaultCaches] {
	ctx := context.Background()
	return []step[*defaultCaches]{
		{"CreateClusterWithoutSubnetGroup", func(c *defaultCaches) outcome {
			out, err := c.ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("diff-plain"), Engine: aws.String("memcached"),
				CacheNodeType: aws.String("cache.t3.micro"), NumCacheNodes: aws.Int32(1)})
			if err != nil {
				return observe(err, nil)
			}
			c.settle()
			return observe(nil, map[string]string{"subnetGroup": aws.ToString(out.CacheCluster.CacheSubnetGroupName)})
		}},
		{"DescribeDefaultSubnetGroup", func(c *defaultCaches) outcome {
			out, err := c.ec.DescribeCacheSubnetGroups(ctx, &elasticache.DescribeCacheSubnetGroupsInput{CacheSubnetGroupName: aws.String("default")})
			if err != nil {
				return observe(err, nil)
			}
			g := out.CacheSubnetGroups[0]
			return observe(nil, map[string]string{"inDefaultVpc": strconv.FormatBool(aws.ToString(g.VpcId) == c.vpc), "subnets": strconv.Itoa(len(g.Subnets))})
		}},
		{"DeleteDefaultSubnetGroup", errorOutcome(func(c *defaultCaches) error {
			_, err := c.ec.DeleteCacheSubnetGroup(ctx, &elasticache.DeleteCacheSubnetGroupInput{CacheSubnetGroupName: aws.String("default")})
			return err
		})},
	}
}

// newDefaultCaches returns a side's ElastiCache client with its default VPC.
func newDefaultCaches(t *testing.T, url string, settle func()) *defaultCaches {
	t.Helper()
	cfg := sdkConfig(t, url)
	out, err := ec2.NewFromConfig(cfg).DescribeVpcs(context.Background(), &ec2.DescribeVpcsInput{Filters: []types.Filter{filter("is-default", "true")}})
	if err != nil || len(out.Vpcs) != 1 {
		t.Fatalf("the default VPC: %+v, %v", out, err)
	}
	return &defaultCaches{ec: elasticache.NewFromConfig(cfg), settle: settle, vpc: aws.ToString(out.Vpcs[0].VpcId)}
}

// TestElastiCacheDefaultSubnetGroupAgainstMoto compares ElastiCache's "default" cache subnet
// group with moto's.
func TestElastiCacheDefaultSubnetGroupAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	emuSide := newDefaultCaches(t, emu.URL, func() { e.Clock.Advance(time.Minute) })
	peerSide := newDefaultCaches(t, peerURL, func() {})
	// ElastiCache (Subnets and subnet groups): "ElastiCache provides a default IPv4 subnet group";
	// a cluster that names none is in the "default" group of the default VPC, and
	// DeleteCacheSubnetGroup: "You cannot delete a default cache subnet group". moto has no
	// default group: it leaves the cluster's group empty and does not implement the delete.
	const noDefaultGroup = "moto has no default cache subnet group; AWS puts a cluster that names none in the \"default\" group of the default VPC's subnets"
	compare(t, emuSide, peerSide, "moto "+motoVersion, defaultSubnetGroupSteps(), map[string]string{
		"CreateClusterWithoutSubnetGroup": noDefaultGroup,
		"DescribeDefaultSubnetGroup":      noDefaultGroup,
		"DeleteDefaultSubnetGroup":        "moto does not implement the operation (HTTP 500, NotImplementedError); AWS refuses to delete the default group",
	})
}
