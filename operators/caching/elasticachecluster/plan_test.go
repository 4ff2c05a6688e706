package elasticachecluster

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
)

// TestPlan checks which settings plan finds differing, with changes pending for the
// maintenance window and without.
func TestPlan(t *testing.T) {
	spec := func(mutate func(*v1alpha1.ElastiCacheClusterSpec)) *v1alpha1.ElastiCacheClusterSpec {
		s := &v1alpha1.ElastiCacheClusterSpec{Engine: "redis", EngineVersion: "7.1", NodeType: "cache.t3.small", NumCacheNodes: 1}
		mutate(s)
		return s
	}
	cluster := func(pending *types.PendingModifiedValues) *State {
		return &State{Cluster: &types.CacheCluster{Engine: aws.String("redis"), EngineVersion: aws.String("7.0"), CacheNodeType: aws.String("cache.t3.micro"),
			NumCacheNodes: aws.Int32(1), SnapshotRetentionLimit: aws.Int32(0), PendingModifiedValues: pending}}
	}
	pending := &types.PendingModifiedValues{CacheNodeType: aws.String("cache.t3.small"), EngineVersion: aws.String("7.1")}
	cases := map[string]struct {
		reason string
		spec   *v1alpha1.ElastiCacheClusterSpec
		state  *State
		want   []string
	}{
		"Immediately": {reason: "Differing node type and version are changed.", spec: spec(func(*v1alpha1.ElastiCacheClusterSpec) {}),
			state: cluster(nil), want: []string{"nodeType", "engineVersion"}},
		"PendingInWindow": {reason: "Values already pending for the maintenance window are not sent again.",
			spec: spec(func(s *v1alpha1.ElastiCacheClusterSpec) { s.ApplyImmediately = aws.Bool(false) }), state: cluster(pending)},
		"PendingApplyNow": {reason: "With applyImmediately, pending values are sent again so that AWS applies them now.",
			spec: spec(func(*v1alpha1.ElastiCacheClusterSpec) {}), state: cluster(pending), want: []string{"nodeType", "engineVersion"}},
		"Unmanaged": {reason: "Settings the spec leaves unset are not managed.", spec: spec(func(s *v1alpha1.ElastiCacheClusterSpec) {
			s.EngineVersion, s.NodeType = "", "cache.t3.micro"
		}), state: cluster(nil)},
		"ParameterGroupMoved": {reason: "A parameter group of another name (in any case) than the cluster's is set.", spec: spec(func(s *v1alpha1.ElastiCacheClusterSpec) {
			s.EngineVersion, s.NodeType, s.ParameterGroupName = "", "cache.t3.micro", "Tuned"
		}), state: func() *State {
			st := cluster(nil)
			st.Cluster.CacheParameterGroup = &types.CacheParameterGroupStatus{CacheParameterGroupName: aws.String("default.redis7")}
			return st
		}(), want: []string{"parameterGroupName"}},
		"ParameterGroupSame": {reason: "The cluster's parameter group, named in another case, is not set again.", spec: spec(func(s *v1alpha1.ElastiCacheClusterSpec) {
			s.EngineVersion, s.NodeType, s.ParameterGroupName = "", "cache.t3.micro", "Tuned"
		}), state: func() *State {
			st := cluster(nil)
			st.Cluster.CacheParameterGroup = &types.CacheParameterGroupStatus{CacheParameterGroupName: aws.String("tuned")}
			return st
		}()},
		"GroupSnapshots": {reason: "A replication group's snapshot retention is its own, not its member's.", spec: spec(func(s *v1alpha1.ElastiCacheClusterSpec) {
			s.EngineVersion, s.NodeType, s.SnapshotRetentionLimit = "", "cache.t3.micro", aws.Int32(5)
		}), state: func() *State {
			st := cluster(nil)
			st.Group = &types.ReplicationGroup{SnapshotRetentionLimit: aws.Int32(5)}
			return st
		}()},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, got := plan(tc.spec, tc.state)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nplan() fields (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestOlder checks the engine version order downgrade relies on.
func TestOlder(t *testing.T) {
	cases := map[string]struct {
		a, b string
		want bool
	}{
		"MajorOlder":   {"6.2", "7.0", true},
		"MinorNewer":   {"7.1", "7.0", false},
		"Same":         {"7.0", "7.0", false},
		"ShorterSame":  {"7", "7.0", false},
		"PatchOlder":   {"1.6.6", "1.6.17", true},
		"NumericOrder": {"1.6.22", "1.6.6", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := older(tc.a, tc.b); got != tc.want {
				t.Errorf("older(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}
