package elasticachecluster

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
)

// TestWantFailover checks when a replication group's automatic failover is turned on or off as
// its node count changes: on only once the replicas are there, off before the last one goes.
func TestWantFailover(t *testing.T) {
	cases := map[string]struct {
		nodes       int32
		members     int
		failover    types.AutomaticFailoverStatus
		want, moves bool
	}{
		"GrowingNotYet":   {nodes: 3, members: 1, failover: types.AutomaticFailoverStatusDisabled, want: false, moves: false},
		"GrownTurnOn":     {nodes: 3, members: 3, failover: types.AutomaticFailoverStatusDisabled, want: true, moves: true},
		"SteadyOn":        {nodes: 2, members: 2, failover: types.AutomaticFailoverStatusEnabled, want: true, moves: false},
		"ShrinkToOneOff":  {nodes: 1, members: 2, failover: types.AutomaticFailoverStatusEnabled, want: false, moves: true},
		"EnablingCounted": {nodes: 2, members: 2, failover: types.AutomaticFailoverStatusEnabling, want: true, moves: false},
		"SingleSteadyOff": {nodes: 1, members: 1, failover: types.AutomaticFailoverStatusDisabled, want: false, moves: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			g := &types.ReplicationGroup{AutomaticFailover: tc.failover, MemberClusters: make([]string, tc.members)}
			want, moves := wantFailover(&v1alpha1.ElastiCacheClusterSpec{Engine: "redis", NumCacheNodes: tc.nodes}, g)
			if want != tc.want || moves != tc.moves {
				t.Errorf("wantFailover() = %v, %v; want %v, %v", want, moves, tc.want, tc.moves)
			}
		})
	}
}

// TestSubnetGroupNameDefault checks that a spec naming no subnet group and no subnets (the
// Memcached seed) sends no CacheSubnetGroupName, so that AWS places the cluster in the default
// VPC's "default" group, while subnets make the operator's own group.
func TestSubnetGroupNameDefault(t *testing.T) {
	c := &v1alpha1.ElastiCacheCluster{Spec: v1alpha1.ElastiCacheClusterSpec{ClusterID: "Production-Memcached-01", Engine: "memcached"}}
	if got := optional(subnetGroupName(c)); got != nil {
		t.Errorf("CacheSubnetGroupName = %q, want none", *got)
	}
	c.Spec.SubnetIDs = []string{"subnet-1"}
	if got := subnetGroupName(c); got != "production-memcached-01" {
		t.Errorf("subnetGroupName() with subnets = %q", got)
	}
}
