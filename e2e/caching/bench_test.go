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
	cluster := func(name string) shared.Managed {
		return &v1alpha1.ElastiCacheCluster{ObjectMeta: seedMeta("default", name)}
	}
	for _, tc := range []struct {
		file, name string
		swap       map[string]any
		// object is the example's object whose figures are reported; only the file's objects
		// of its kind are applied.
		object shared.Managed
	}{
		{"elasticachecluster-redis.yaml", "session-cache", map[string]any{"securityGroupIDs": []any{group}}, cluster("session-cache")},
		{"elasticachecluster-memcached.yaml", "object-cache", nil, cluster("object-cache")},
		// The tuned group, then the cluster of the same file that uses it by reference.
		{"elasticacheparametergroup.yaml", "session-cache-tuned", nil,
			&v1alpha1.ElastiCacheParameterGroup{ObjectMeta: seedMeta("default", "session-cache-tuned")}},
		{"elasticacheparametergroup.yaml", "tuned-session-cache", nil, cluster("tuned-session-cache")},
	} {
		b.Run(tc.file+"/"+tc.name, func(b *testing.B) {
			if b.N > 1 {
				b.Skip("each example is created once; run with -benchtime=1x")
			}
			h.emu.Calls.Reset()
			began := time.Now()
			h.applyKind(b, tc.file, "default", tc.object, tc.swap)
			o := kubetest.WaitFor(b, h.c, tc.object, time.Minute, "Ready", isReady)
			kubetest.SeedFigures(b, h.c, o, began, h.calls, h.emu.Calls.Reset)
		})
	}
}
