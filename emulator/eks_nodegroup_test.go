package emulator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// nodegroupInput is the CreateNodegroup request of the seed's node group.
func nodegroupInput(cluster, name string, n eksNetwork) *eks.CreateNodegroupInput {
	return &eks.CreateNodegroupInput{
		ClusterName: aws.String(cluster), NodegroupName: aws.String(name), Subnets: n.subnets,
		NodeRole:      aws.String("arn:aws:iam::123456789012:role/eks-node-role"),
		ScalingConfig: &types.NodegroupScalingConfig{MinSize: aws.Int32(1), MaxSize: aws.Int32(4), DesiredSize: aws.Int32(2)},
		InstanceTypes: []string{"m6i.large"}, CapacityType: types.CapacityTypesOnDemand, DiskSize: aws.Int32(50),
		Labels: map[string]string{"role": "general"},
		Taints: []types.Taint{{Key: aws.String("dedicated"), Value: aws.String("general"), Effect: types.TaintEffectNoSchedule}},
		Tags:   map[string]string{"team": "platform"},
	}
}

func describeNodegroup(t *testing.T, c *eks.Client, cluster, name string) *types.Nodegroup {
	t.Helper()
	out, err := c.DescribeNodegroup(context.Background(), &eks.DescribeNodegroupInput{ClusterName: aws.String(cluster), NodegroupName: aws.String(name)})
	if err != nil {
		t.Fatalf("describe node group %s: %v", name, err)
	}
	return out.Nodegroup
}

// TestEKSNodegroupLifecycle creates a managed node group in an ACTIVE cluster, scales it,
// changes its labels and taints, upgrades it after its cluster, and removes it and the
// cluster.
func TestEKSNodegroupLifecycle(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	if _, err := c.CreateCluster(ctx, clusterInput("production", n)); err != nil {
		t.Fatal(err)
	}
	in := nodegroupInput("production", "general", n)
	in.ClientRequestToken = aws.String("ng-general-1")
	if _, err := c.CreateNodegroup(ctx, in); errorCode(err) != "InvalidRequestException" {
		t.Errorf("creating a node group in a CREATING cluster gave %v; want InvalidRequestException", err)
	}
	e.Clock.Advance(eksTransition)
	created, err := c.CreateNodegroup(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	g := created.Nodegroup
	if g.Status != types.NodegroupStatusCreating || aws.ToString(g.Version) != "1.31" || !strings.HasPrefix(aws.ToString(g.ReleaseVersion), "1.31.") ||
		g.AmiType != types.AMITypesAl2023X8664Standard || aws.ToInt32(g.DiskSize) != 50 || g.Labels["role"] != "general" || len(g.Taints) != 1 ||
		!strings.HasPrefix(aws.ToString(g.NodegroupArn), "arn:aws:eks:us-east-1:000000000000:nodegroup/production/general/") ||
		len(g.Resources.AutoScalingGroups) != 1 || aws.ToInt32(g.UpdateConfig.MaxUnavailable) != 1 || g.Tags["team"] != "platform" {
		t.Errorf("new node group = %+v", g)
	}
	again, err := c.CreateNodegroup(ctx, in)
	if err != nil || aws.ToString(again.Nodegroup.NodegroupArn) != aws.ToString(g.NodegroupArn) {
		t.Errorf("repeating the create with its token = %v; want the same node group", err)
	}
	in.ClientRequestToken = aws.String("ng-general-2")
	if _, err := c.CreateNodegroup(ctx, in); errorCode(err) != "ResourceInUseException" {
		t.Errorf("creating the name again gave %v; want ResourceInUseException", err)
	}
	name := aws.String("general")
	scale := &eks.UpdateNodegroupConfigInput{ClusterName: aws.String("production"), NodegroupName: name,
		ScalingConfig: &types.NodegroupScalingConfig{DesiredSize: aws.Int32(3)}}
	if _, err := c.UpdateNodegroupConfig(ctx, scale); errorCode(err) != "ResourceInUseException" {
		t.Errorf("scaling a CREATING node group gave %v; want ResourceInUseException", err)
	}
	e.Clock.Advance(eksTransition)
	if s := describeNodegroup(t, c, "production", "general").Status; s != types.NodegroupStatusActive {
		t.Fatalf("after the transition the node group is %s", s)
	}

	up, err := c.UpdateNodegroupConfig(ctx, scale)
	if err != nil || up.Update.Type != types.UpdateTypeConfigUpdate || updateParams(up.Update)[types.UpdateParamTypeDesiredSize] != "3" {
		t.Fatalf("scaling = %+v, %v", up, err)
	}
	if got := describeNodegroup(t, c, "production", "general"); got.Status != types.NodegroupStatusUpdating || aws.ToInt32(got.ScalingConfig.DesiredSize) != 2 {
		t.Errorf("during the update the node group is %s with %d desired", got.Status, aws.ToInt32(got.ScalingConfig.DesiredSize))
	}
	second := *scale
	second.ClientRequestToken = nil // the SDK filled in the first request's token, which would repeat the first update
	if _, err := c.UpdateNodegroupConfig(ctx, &second); errorCode(err) != "ResourceInUseException" {
		t.Errorf("a second update during the first gave %v", err)
	}
	e.Clock.Advance(eksTransition)
	if got := describeNodegroup(t, c, "production", "general"); aws.ToInt32(got.ScalingConfig.DesiredSize) != 3 || aws.ToInt32(got.ScalingConfig.MaxSize) != 4 {
		t.Errorf("after scaling: %+v", got.ScalingConfig)
	}
	for what, s := range map[string]*types.NodegroupScalingConfig{
		"min above desired": {MinSize: aws.Int32(4)},
		"desired above max": {DesiredSize: aws.Int32(5)},
		"max above 450":     {MaxSize: aws.Int32(451)},
	} {
		if _, err := c.UpdateNodegroupConfig(ctx, &eks.UpdateNodegroupConfigInput{ClusterName: aws.String("production"), NodegroupName: name, ScalingConfig: s}); errorCode(err) != "InvalidParameterException" {
			t.Errorf("%s gave %v; want InvalidParameterException", what, err)
		}
	}
	relabel := &eks.UpdateNodegroupConfigInput{ClusterName: aws.String("production"), NodegroupName: name,
		Labels: &types.UpdateLabelsPayload{AddOrUpdateLabels: map[string]string{"tier": "web"}, RemoveLabels: []string{"role"}},
		Taints: &types.UpdateTaintsPayload{
			AddOrUpdateTaints: []types.Taint{{Key: aws.String("spot"), Value: aws.String("true"), Effect: types.TaintEffectPreferNoSchedule}},
			RemoveTaints:      []types.Taint{{Key: aws.String("dedicated"), Effect: types.TaintEffectNoSchedule}}},
		UpdateConfig: &types.NodegroupUpdateConfig{MaxUnavailablePercentage: aws.Int32(25)},
	}
	if _, err := c.UpdateNodegroupConfig(ctx, relabel); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(eksTransition)
	got := describeNodegroup(t, c, "production", "general")
	if len(got.Labels) != 1 || got.Labels["tier"] != "web" || len(got.Taints) != 1 || aws.ToString(got.Taints[0].Key) != "spot" ||
		aws.ToInt32(got.UpdateConfig.MaxUnavailablePercentage) != 25 || got.UpdateConfig.MaxUnavailable != nil {
		t.Errorf("after relabelling: labels %v, taints %+v, update config %+v", got.Labels, got.Taints, got.UpdateConfig)
	}

	if _, err := c.UpdateNodegroupVersion(ctx, &eks.UpdateNodegroupVersionInput{ClusterName: aws.String("production"), NodegroupName: name, Version: aws.String("1.32")}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("upgrading the node group past its cluster gave %v", err)
	}
	if _, err := c.UpdateClusterVersion(ctx, &eks.UpdateClusterVersionInput{Name: aws.String("production"), Version: aws.String("1.32")}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(eksTransition)
	version, err := c.UpdateNodegroupVersion(ctx, &eks.UpdateNodegroupVersionInput{ClusterName: aws.String("production"), NodegroupName: name, Version: aws.String("1.32")})
	if err != nil || version.Update.Type != types.UpdateTypeVersionUpdate {
		t.Fatalf("UpdateNodegroupVersion = %+v, %v", version, err)
	}
	e.Clock.Advance(eksTransition)
	if got := describeNodegroup(t, c, "production", "general"); aws.ToString(got.Version) != "1.32" || !strings.HasPrefix(aws.ToString(got.ReleaseVersion), "1.32.") {
		t.Errorf("after the upgrade: version %s, release %s", aws.ToString(got.Version), aws.ToString(got.ReleaseVersion))
	}
	updates, err := c.ListUpdates(ctx, &eks.ListUpdatesInput{Name: aws.String("production"), NodegroupName: name})
	if err != nil || len(updates.UpdateIds) != 3 {
		t.Errorf("the node group's updates = %+v, %v; want 3", updates, err)
	}
	if d, err := c.DescribeUpdate(ctx, &eks.DescribeUpdateInput{Name: aws.String("production"), NodegroupName: name, UpdateId: version.Update.Id}); err != nil || d.Update.Status != types.UpdateStatusSuccessful {
		t.Errorf("DescribeUpdate of the node group = %+v, %v", d, err)
	}

	list, err := c.ListNodegroups(ctx, &eks.ListNodegroupsInput{ClusterName: aws.String("production")})
	if err != nil || strings.Join(list.Nodegroups, ",") != "general" {
		t.Errorf("ListNodegroups = %+v, %v", list, err)
	}
	if _, err := c.DeleteCluster(ctx, &eks.DeleteClusterInput{Name: aws.String("production")}); errorCode(err) != "ResourceInUseException" {
		t.Errorf("deleting a cluster with a node group gave %v; want ResourceInUseException", err)
	}
	deleted, err := c.DeleteNodegroup(ctx, &eks.DeleteNodegroupInput{ClusterName: aws.String("production"), NodegroupName: name})
	if err != nil || deleted.Nodegroup.Status != types.NodegroupStatusDeleting {
		t.Fatalf("DeleteNodegroup = %+v, %v", deleted, err)
	}
	if _, err := c.DeleteCluster(ctx, &eks.DeleteClusterInput{Name: aws.String("production")}); errorCode(err) != "ResourceInUseException" {
		t.Errorf("deleting the cluster while its node group is DELETING gave %v", err)
	}
	e.Clock.Advance(eksTransition)
	if _, err := c.DescribeNodegroup(ctx, &eks.DescribeNodegroupInput{ClusterName: aws.String("production"), NodegroupName: name}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("describing the deleted node group gave %v", err)
	}
	if _, err := c.DeleteCluster(ctx, &eks.DeleteClusterInput{Name: aws.String("production")}); err != nil {
		t.Errorf("deleting the cluster without node groups: %v", err)
	}
}

// TestEKSCreateNodegroupValidation checks CreateNodegroup's defaults and refusals.
func TestEKSCreateNodegroupValidation(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	in := clusterInput("production", n)
	in.Version = aws.String("1.33")
	activeCluster(t, e, c, in)
	defaults, err := c.CreateNodegroup(ctx, &eks.CreateNodegroupInput{ClusterName: aws.String("production"), NodegroupName: aws.String("defaults"),
		Subnets: n.subnets[:1], NodeRole: aws.String("arn:aws:iam::123456789012:role/eks-node-role")})
	if err != nil {
		t.Fatal(err)
	}
	g := defaults.Nodegroup
	if s := g.ScalingConfig; aws.ToInt32(s.MinSize) != 1 || aws.ToInt32(s.MaxSize) != 2 || aws.ToInt32(s.DesiredSize) != 2 ||
		g.InstanceTypes[0] != "t3.medium" || g.CapacityType != types.CapacityTypesOnDemand || aws.ToInt32(g.DiskSize) != 20 || aws.ToString(g.Version) != "1.33" {
		t.Errorf("default node group = %+v, scaling %+v", g, g.ScalingConfig)
	}
	cases := map[string]struct {
		change func(in *eks.CreateNodegroupInput)
		code   string
	}{
		"unknown cluster":     {func(in *eks.CreateNodegroupInput) { in.ClusterName = aws.String("missing") }, "ResourceNotFoundException"},
		"bad name":            {func(in *eks.CreateNodegroupInput) { in.NodegroupName = aws.String("-general") }, "InvalidParameterException"},
		"role not an ARN":     {func(in *eks.CreateNodegroupInput) { in.NodeRole = aws.String("eks-node-role") }, "InvalidParameterException"},
		"unknown subnet":      {func(in *eks.CreateNodegroupInput) { in.Subnets = []string{"subnet-0123456789abcdef0"} }, "InvalidParameterException"},
		"subnet of other VPC": {func(in *eks.CreateNodegroupInput) { in.Subnets = []string{n.otherSubnet} }, "InvalidParameterException"},
		"min above desired":   {func(in *eks.CreateNodegroupInput) { in.ScalingConfig.MinSize = aws.Int32(3) }, "InvalidParameterException"},
		"desired above max":   {func(in *eks.CreateNodegroupInput) { in.ScalingConfig.DesiredSize = aws.Int32(5) }, "InvalidParameterException"},
		"max of 0": {func(in *eks.CreateNodegroupInput) {
			in.ScalingConfig = &types.NodegroupScalingConfig{MinSize: aws.Int32(0), MaxSize: aws.Int32(0), DesiredSize: aws.Int32(0)}
		}, "InvalidParameterException"},
		"AL2 on 1.33":          {func(in *eks.CreateNodegroupInput) { in.AmiType = types.AMITypesAl2X8664 }, "InvalidParameterException"},
		"unknown capacity":     {func(in *eks.CreateNodegroupInput) { in.CapacityType = "RESERVED" }, "InvalidParameterException"},
		"bad instance type":    {func(in *eks.CreateNodegroupInput) { in.InstanceTypes = []string{"large"} }, "InvalidParameterException"},
		"newer than cluster":   {func(in *eks.CreateNodegroupInput) { in.Version = aws.String("1.34") }, "InvalidParameterException"},
		"wrong release":        {func(in *eks.CreateNodegroupInput) { in.ReleaseVersion = aws.String("1.29.15-20250519") }, "InvalidParameterException"},
		"taint without effect": {func(in *eks.CreateNodegroupInput) { in.Taints = []types.Taint{{Key: aws.String("x")}} }, "InvalidParameterException"},
		"disk size with template": {func(in *eks.CreateNodegroupInput) {
			in.LaunchTemplate = &types.LaunchTemplateSpecification{Name: aws.String("nodes"), Version: aws.String("1")}
		}, "InvalidParameterException"},
		"max unavailable above max": {func(in *eks.CreateNodegroupInput) {
			in.UpdateConfig = &types.NodegroupUpdateConfig{MaxUnavailable: aws.Int32(5)}
		}, "InvalidParameterException"},
		"aws: tag": {func(in *eks.CreateNodegroupInput) { in.Tags = map[string]string{"AWS:team": "x"} }, "InvalidParameterException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := nodegroupInput("production", "refused", n)
			tc.change(in)
			if _, err := c.CreateNodegroup(ctx, in); errorCode(err) != tc.code {
				t.Errorf("CreateNodegroup gave %v; want %s", err, tc.code)
			}
		})
	}
}
