package elasticachecluster

import (
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// downgrade refuses an engine version older than the one the cluster runs: ElastiCache
// upgrades engines and never downgrades them.
func downgrade(s *v1alpha1.ElastiCacheClusterSpec, cl *types.CacheCluster) error {
	have := aws.ToString(cl.EngineVersion)
	if s.EngineVersion == "" || !older(s.EngineVersion, have) {
		return nil
	}
	return managed.Terminal(condition.ReasonInvalidSpec, "engineVersion %s is older than the %s cluster %s runs, and ElastiCache cannot downgrade an engine; "+
		"set engineVersion to %s or later, or create a new ElastiCacheCluster with the older version", s.EngineVersion, have, aws.ToString(cl.CacheClusterId), have)
}

// older reports whether engine version a is older than b, comparing their numbers in order
// ("6.2" is older than "7.0", "7" is not older than "7.0").
func older(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := range min(len(as), len(bs)) {
		x, _ := strconv.Atoi(as[i])
		y, _ := strconv.Atoi(bs[i])
		if x != y {
			return x < y
		}
	}
	return false
}
