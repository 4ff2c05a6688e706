package differential

import (
	"context"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// cacheParams is one side's ElastiCache client and how it lets lifecycles finish.
type cacheParams struct {
	ec     *elasticache.Client
	settle func()
}

// cacheParameterSteps is the cache parameter group sequence both sides run: a custom Redis OSS 7
// group, its parameters set and reset, AWS's refusals (a name taken, a default group changed or
// deleted, a group in use deleted, a missing group), and a cluster that uses the group and
// reboots.
func cacheParameterSteps() []step[*cacheParams] {
	ctx := context.Background()
	modify := func(group string, pairs ...string) func(c *cacheParams) outcome {
		return func(c *cacheParams) outcome {
			var params []types.ParameterNameValue
			for i := 0; i < len(pairs); i += 2 {
				params = append(params, types.ParameterNameValue{ParameterName: aws.String(pairs[i]), ParameterValue: aws.String(pairs[i+1])})
			}
			out, err := c.ec.ModifyCacheParameterGroup(ctx, &elasticache.ModifyCacheParameterGroupInput{CacheParameterGroupName: aws.String(group), ParameterNameValues: params})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"group": aws.ToString(out.CacheParameterGroupName)})
		}
	}
	create := func(name string) func(c *cacheParams) outcome {
		return func(c *cacheParams) outcome {
			out, err := c.ec.CreateCacheParameterGroup(ctx, &elasticache.CreateCacheParameterGroupInput{CacheParameterGroupName: aws.String(name),
				CacheParameterGroupFamily: aws.String("redis7"), Description: aws.String("tuned")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"name": aws.ToString(out.CacheParameterGroup.CacheParameterGroupName), "family": aws.ToString(out.CacheParameterGroup.CacheParameterGroupFamily)})
		}
	}
	deleteGroup := func(name string) func(c *cacheParams) error {
		return func(c *cacheParams) error {
			_, err := c.ec.DeleteCacheParameterGroup(ctx, &elasticache.DeleteCacheParameterGroupInput{CacheParameterGroupName: aws.String(name)})
			return err
		}
	}
	return []step[*cacheParams]{
		{"CreateGroup", create("diff-tuned")},
		{"CreateTaken", create("diff-tuned")},
		{"DescribeGroup", func(c *cacheParams) outcome {
			out, err := c.ec.DescribeCacheParameterGroups(ctx, &elasticache.DescribeCacheParameterGroupsInput{CacheParameterGroupName: aws.String("diff-tuned")})
			if err != nil {
				return observe(err, nil)
			}
			g := out.CacheParameterGroups[0]
			return observe(nil, map[string]string{"family": aws.ToString(g.CacheParameterGroupFamily), "description": aws.ToString(g.Description)})
		}},
		{"DescribeMissing", errorOutcome(func(c *cacheParams) error {
			_, err := c.ec.DescribeCacheParameterGroups(ctx, &elasticache.DescribeCacheParameterGroupsInput{CacheParameterGroupName: aws.String("diff-missing")})
			return err
		})},
		{"ModifyParameters", modify("diff-tuned", "maxmemory-policy", "allkeys-lru", "timeout", "300")},
		{"ModifyUnknownParameter", modify("diff-tuned", "no-such-parameter", "1")},
		{"ModifyDefaultGroup", modify("default.redis7", "timeout", "300")},
		{"UserParameters", func(c *cacheParams) outcome {
			out, err := c.ec.DescribeCacheParameters(ctx, &elasticache.DescribeCacheParametersInput{CacheParameterGroupName: aws.String("diff-tuned"), Source: aws.String("user")})
			if err != nil {
				return observe(err, nil)
			}
			var got []string
			for _, p := range out.Parameters {
				got = append(got, aws.ToString(p.ParameterName)+"="+aws.ToString(p.ParameterValue))
			}
			sort.Strings(got)
			return observe(nil, map[string]string{"user": strings.Join(got, ", "), "count": strconv.Itoa(len(got))})
		}},
		{"ResetOne", func(c *cacheParams) outcome {
			_, err := c.ec.ResetCacheParameterGroup(ctx, &elasticache.ResetCacheParameterGroupInput{CacheParameterGroupName: aws.String("diff-tuned"),
				ParameterNameValues: []types.ParameterNameValue{{ParameterName: aws.String("timeout")}}})
			return observe(err, nil)
		}},
		{"CreateClusterWithGroup", func(c *cacheParams) outcome {
			out, err := c.ec.CreateCacheCluster(ctx, &elasticache.CreateCacheClusterInput{CacheClusterId: aws.String("diff-params"), Engine: aws.String("redis"),
				EngineVersion: aws.String("7.1"), CacheNodeType: aws.String("cache.t3.micro"), NumCacheNodes: aws.Int32(1), CacheParameterGroupName: aws.String("diff-tuned")})
			if err != nil {
				return observe(err, nil)
			}
			c.settle()
			fields := map[string]string{}
			if g := out.CacheCluster.CacheParameterGroup; g != nil {
				fields["group"] = aws.ToString(g.CacheParameterGroupName)
			}
			return observe(nil, fields)
		}},
		{"RebootCluster", func(c *cacheParams) outcome {
			out, err := c.ec.RebootCacheCluster(ctx, &elasticache.RebootCacheClusterInput{CacheClusterId: aws.String("diff-params"), CacheNodeIdsToReboot: []string{"0001"}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": aws.ToString(out.CacheCluster.CacheClusterStatus)})
		}},
		{"DeleteInUse", errorOutcome(deleteGroup("diff-tuned"))},
		{"DeleteDefaultGroup", errorOutcome(deleteGroup("default.redis7"))},
	}
}

// TestElastiCacheParameterGroupsAgainstMoto compares ElastiCache's cache parameter groups with
// moto's.
func TestElastiCacheParameterGroupsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	emuSide := &cacheParams{ec: elasticache.NewFromConfig(sdkConfig(t, emu.URL)), settle: func() { e.Clock.Advance(time.Minute) }}
	peerSide := &cacheParams{ec: elasticache.NewFromConfig(sdkConfig(t, peerURL)), settle: func() {}}
	// moto 5.2.1 implements none of the cache parameter group operations (CreateCacheParameterGroup,
	// DescribeCacheParameterGroups, ModifyCacheParameterGroup, ResetCacheParameterGroup,
	// DeleteCacheParameterGroup, DescribeCacheParameters), nor RebootCacheCluster: each answers HTTP 500
	// (NotImplementedError). The emulator follows AWS's API reference for each: the error codes
	// CacheParameterGroupAlreadyExists, CacheParameterGroupNotFound (HTTP 404),
	// InvalidParameterValue for a name the family lacks, and InvalidCacheParameterGroupState for a
	// default group ("Cannot be edited by the customer", ElastiCache User Guide, Cache parameter
	// group tiers) or a group a cluster uses.
	const unimplemented = "moto does not implement the operation (HTTP 500, NotImplementedError)"
	compare(t, emuSide, peerSide, "moto "+motoVersion, cacheParameterSteps(), map[string]string{
		"CreateGroup":            unimplemented,
		"CreateTaken":            unimplemented,
		"DescribeGroup":          unimplemented,
		"DescribeMissing":        unimplemented,
		"ModifyParameters":       unimplemented,
		"ModifyUnknownParameter": unimplemented,
		"ModifyDefaultGroup":     unimplemented,
		"UserParameters":         unimplemented,
		"ResetOne":               unimplemented,
		"CreateClusterWithGroup": "moto accepts CacheParameterGroupName without checking that the group exists and reports no CacheParameterGroup; " +
			"AWS reports the group and its ParameterApplyStatus",
		"RebootCluster":      unimplemented,
		"DeleteInUse":        unimplemented,
		"DeleteDefaultGroup": unimplemented,
	})
}
