package caching_test

import (
	"testing"
	"time"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// BenchmarkSeedExamples applies the caching family's seed examples, one after the other, with
// the operator's default options and ElastiCache's emulated lifecycles at their default (2s
// creating), the Redis example's placeholders swapped as in TestElastiCacheClusterSeedExamples
// and the Memcached example as it is, and reports
// for each the ElastiCache calls it took to create, the time from apply to Ready, and the
// ElastiCache calls of one sync at steady state. Run it with -benchtime=1x: every example is
// created once.
func BenchmarkSeedExamples(b *testing.B) {
	h := startWith(b, emulator.Options{}, func(*operator.Options) {})
	subnet, group := h.network(b, "10.6.0.0/16", "10.6.1.0/24")
	h.subnetGroup(b, "production-cache-subnet-group", subnet)
	h.provider(b, "default", "production-aws")
	for _, tc := range []struct {
		file, name string
		swap       map[string]any
	}{
		{"elasticachecluster-redis.yaml", "session-cache", map[string]any{"securityGroupIDs": []any{group}}},
		{"elasticachecluster-memcached.yaml", "object-cache", nil},
	} {
		b.Run(tc.file, func(b *testing.B) {
			if b.N > 1 {
				b.Skip("each example is created once; run with -benchtime=1x")
			}
			h.emu.Calls.Reset()
			began := time.Now()
			h.applySwapped(b, tc.file, "default", tc.swap)
			var o shared.Managed = &v1alpha1.ElastiCacheCluster{ObjectMeta: seedMeta("default", tc.name)}
			o = kubetest.WaitFor(b, h.c, o, time.Minute, "Ready", isReady)
			kubetest.SeedFigures(b, h.c, o, began, h.calls, h.emu.Calls.Reset)
		})
	}
}
