package ekscluster

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// activeCluster returns an ACTIVE cluster on Kubernetes 1.31 that matches spec(): api and
// audit logs, public access from anywhere, two subnets, no node groups or add-ons.
func activeCluster() *types.Cluster {
	return &types.Cluster{Name: aws.String("c"), Arn: aws.String("arn:aws:eks:us-east-1:123456789012:cluster/c"), Status: types.ClusterStatusActive,
		Version: aws.String("1.31"), RoleArn: aws.String("arn:aws:iam::123456789012:role/r"),
		Logging: logging([]string{"api", "audit"}),
		ResourcesVpcConfig: &types.VpcConfigResponse{SubnetIds: []string{"subnet-a", "subnet-b"}, EndpointPublicAccess: true,
			PublicAccessCidrs: []string{"0.0.0.0/0"}}}
}

// spec returns an EKSCluster that activeCluster matches, changed by mutate.
func spec(mutate func(*v1alpha1.EKSClusterSpec)) *v1alpha1.EKSCluster {
	o := &v1alpha1.EKSCluster{}
	o.Spec.ClusterName, o.Spec.Version, o.Spec.RoleARN = "c", "1.31", "arn:aws:iam::123456789012:role/r"
	o.Spec.Logging = []string{"audit", "api"}
	o.Spec.ResourcesVPCConfig.SubnetIDs = []string{"subnet-b", "subnet-a"}
	if mutate != nil {
		mutate(&o.Spec)
	}
	return o
}

// TestPlanCluster checks that one observation plans at most one update of the cluster itself,
// the first that differs, and that the version goes up one minor version only once the node
// groups have settled.
func TestPlanCluster(t *testing.T) {
	type args struct {
		o        *v1alpha1.EKSCluster
		groups   map[string]types.Nodegroup
		mutateUp func(*types.Cluster)
	}
	type want struct {
		fields []string
		ready  bool
	}
	ngSpec := v1alpha1.EKSNodeGroup{Name: "ng", NodeRoleARN: "arn:aws:iam::123456789012:role/n", Scaling: v1alpha1.EKSNodeGroupScaling{MinSize: 1, DesiredSize: 1, MaxSize: 1}}
	ng := func(version string, status types.NodegroupStatus) map[string]types.Nodegroup {
		return map[string]types.Nodegroup{"ng": {NodegroupName: aws.String("ng"), Status: status, Version: aws.String(version), NodeRole: aws.String(ngSpec.NodeRoleARN),
			ScalingConfig: &types.NodegroupScalingConfig{MinSize: aws.Int32(1), DesiredSize: aws.Int32(1), MaxSize: aws.Int32(1)}}}
	}
	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"Matching": {
			reason: "A cluster that matches the spec plans nothing and is Ready.",
			args:   args{o: spec(nil)},
			want:   want{ready: true},
		},
		"LoggingBeforeEndpoint": {
			reason: "Logging and endpoint access both differ: only the logging update is planned.",
			args: args{o: spec(func(s *v1alpha1.EKSClusterSpec) {
				s.Logging = []string{"api"}
				s.ResourcesVPCConfig.EndpointPrivateAccess = aws.Bool(true)
			})},
			want: want{fields: []string{"logging"}, ready: true},
		},
		"Endpoint": {
			reason: "Only the public CIDR blocks differ: one endpoint access update.",
			args: args{o: spec(func(s *v1alpha1.EKSClusterSpec) {
				s.ResourcesVPCConfig.PublicAccessCIDRs = []string{"203.0.113.0/24"}
			})},
			want: want{fields: []string{"resourcesVPCConfig.endpointPublicAccess", "resourcesVPCConfig.endpointPrivateAccess", "resourcesVPCConfig.publicAccessCIDRs"}, ready: true},
		},
		"UpgradeOneMinor": {
			reason: "Settled node groups on the control plane's version: the control plane goes up one minor version.",
			args: args{o: spec(func(s *v1alpha1.EKSClusterSpec) {
				s.Version, s.NodeGroups = "1.32", []v1alpha1.EKSNodeGroup{ngSpec}
			}), groups: ng("1.31", types.NodegroupStatusActive)},
			want: want{fields: []string{"version"}},
		},
		"UpgradeWaitsForNodeGroups": {
			reason: "A node group being updated holds the upgrade back.",
			args: args{o: spec(func(s *v1alpha1.EKSClusterSpec) {
				s.Version, s.NodeGroups = "1.32", []v1alpha1.EKSNodeGroup{ngSpec}
			}), groups: ng("1.31", types.NodegroupStatusUpdating)},
			want: want{},
		},
		"NodeGroupsFollow": {
			reason: "After the control plane's upgrade the node group is upgraded.",
			args: args{o: spec(func(s *v1alpha1.EKSClusterSpec) {
				s.Version, s.NodeGroups = "1.32", []v1alpha1.EKSNodeGroup{ngSpec}
			}), groups: ng("1.31", types.NodegroupStatusActive), mutateUp: func(c *types.Cluster) { c.Version = aws.String("1.32") }},
			want: want{fields: []string{"nodeGroups[ng].version"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := activeCluster()
			if tc.args.mutateUp != nil {
				tc.args.mutateUp(c)
			}
			obs := managed.Observation[State]{Exists: true, State: &State{Cluster: c, NodeGroups: tc.args.groups}}
			(&driver{}).plan(&obs, tc.args.o, nil)
			got := want{fields: obs.Changes.Fields(), ready: obs.Ready}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nplan: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestTaintChanges checks the taints added, changed and removed, a taint being identified by
// its key and effect.
func TestTaintChanges(t *testing.T) {
	taint := func(k, v string, e types.TaintEffect) types.Taint {
		return types.Taint{Key: aws.String(k), Value: aws.String(v), Effect: e}
	}
	type want struct{ add, remove []types.Taint }
	cases := map[string]struct {
		reason string
		want   []v1alpha1.EKSTaint
		got    []types.Taint
		out    want
	}{
		"Same": {
			reason: "Equal taints change nothing.",
			want:   []v1alpha1.EKSTaint{{Key: "a", Value: "1", Effect: "NO_SCHEDULE"}},
			got:    []types.Taint{taint("a", "1", types.TaintEffectNoSchedule)},
		},
		"ValueChanged": {
			reason: "A new value for the same key and effect is an update.",
			want:   []v1alpha1.EKSTaint{{Key: "a", Value: "2", Effect: "NO_SCHEDULE"}},
			got:    []types.Taint{taint("a", "1", types.TaintEffectNoSchedule)},
			out:    want{add: []types.Taint{taint("a", "2", types.TaintEffectNoSchedule)}},
		},
		"EffectChanged": {
			reason: "Another effect is another taint: added, and the old one removed.",
			want:   []v1alpha1.EKSTaint{{Key: "a", Value: "1", Effect: "NO_EXECUTE"}},
			got:    []types.Taint{taint("a", "1", types.TaintEffectNoSchedule)},
			out: want{add: []types.Taint{taint("a", "1", types.TaintEffectNoExecute)},
				remove: []types.Taint{{Key: aws.String("a"), Effect: types.TaintEffectNoSchedule}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			add, remove := taintChanges(tc.want, tc.got)
			if diff := cmp.Diff(tc.out, want{add: add, remove: remove}, cmp.AllowUnexported(want{}, types.Taint{})); diff != "" {
				t.Errorf("%s\ntaintChanges: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
