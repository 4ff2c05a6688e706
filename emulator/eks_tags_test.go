package emulator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
)

// TestEKSTags tags a cluster, a node group and an add-on by ARN within EKS's limits.
func TestEKSTags(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	cluster := activeCluster(t, e, c, clusterInput("production", n))
	group, err := c.CreateNodegroup(ctx, nodegroupInput("production", "general", n))
	if err != nil {
		t.Fatal(err)
	}
	addon, err := c.CreateAddon(ctx, &eks.CreateAddonInput{ClusterName: aws.String("production"), AddonName: aws.String("vpc-cni")})
	if err != nil {
		t.Fatal(err)
	}
	for _, arn := range []*string{cluster.Arn, group.Nodegroup.NodegroupArn, addon.Addon.AddonArn} {
		if _, err := c.TagResource(ctx, &eks.TagResourceInput{ResourceArn: arn, Tags: map[string]string{"env": "prod", "owner": "sre"}}); err != nil {
			t.Fatalf("tag %s: %v", aws.ToString(arn), err)
		}
		if _, err := c.UntagResource(ctx, &eks.UntagResourceInput{ResourceArn: arn, TagKeys: []string{"owner", "absent"}}); err != nil {
			t.Fatalf("untag %s: %v", aws.ToString(arn), err)
		}
		got, err := c.ListTagsForResource(ctx, &eks.ListTagsForResourceInput{ResourceArn: arn})
		if err != nil || got.Tags["env"] != "prod" || got.Tags["owner"] != "" {
			t.Errorf("tags of %s = %v, %v", aws.ToString(arn), got, err)
		}
	}
	if got := describeCluster(t, c, "production"); got.Tags["env"] != "prod" || got.Tags["team"] != "platform" {
		t.Errorf("DescribeCluster's tags = %v", got.Tags)
	}
	if _, err := c.TagResource(ctx, &eks.TagResourceInput{ResourceArn: cluster.Arn, Tags: map[string]string{"aws:cloudformation:stack-name": "x"}}); errorCode(err) != "BadRequestException" {
		t.Errorf("an aws: tag gave %v; want BadRequestException", err)
	}
	if _, err := c.TagResource(ctx, &eks.TagResourceInput{ResourceArn: cluster.Arn, Tags: manyTags(49)}); errorCode(err) != "BadRequestException" {
		t.Errorf("a 51st tag gave %v; want BadRequestException", err)
	}
	if _, err := c.TagResource(ctx, &eks.TagResourceInput{ResourceArn: cluster.Arn, Tags: map[string]string{strings.Repeat("k", 129): "v"}}); errorCode(err) != "BadRequestException" {
		t.Errorf("a key of 129 characters gave %v; want BadRequestException", err)
	}
	missing := aws.String("arn:aws:eks:us-east-1:000000000000:cluster/missing")
	if _, err := c.ListTagsForResource(ctx, &eks.ListTagsForResourceInput{ResourceArn: missing}); errorCode(err) != "NotFoundException" {
		t.Errorf("a missing cluster's tags gave %v; want NotFoundException", err)
	}
	if _, err := c.ListTagsForResource(ctx, &eks.ListTagsForResourceInput{ResourceArn: aws.String("arn:aws:s3:::bucket")}); errorCode(err) != "BadRequestException" {
		t.Errorf("an ARN of another service gave %v; want BadRequestException", err)
	}
}

// TestEKSStateDump checks that the admin state dump shows EKS clusters with their node groups
// and add-ons.
func TestEKSStateDump(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	activeCluster(t, e, c, clusterInput("production", n))
	if _, err := c.CreateNodegroup(ctx, nodegroupInput("production", "general", n)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateAddon(ctx, &eks.CreateAddonInput{ClusterName: aws.String("production"), AddonName: aws.String("kube-proxy")}); err != nil {
		t.Fatal(err)
	}
	var state map[string]map[string]struct {
		Status     string
		Version    string
		Nodegroups map[string]map[string]any
		Addons     map[string]map[string]any
	}
	getJSON(t, n.url+"/_emulator/state", &state)
	got := state["EKS"]["000000000000/us-east-1/production"]
	if got.Status != "ACTIVE" || got.Version != "1.31" || got.Nodegroups["general"]["status"] != "CREATING" || got.Addons["kube-proxy"]["version"] != "v1.31.7-eksbuild.7" {
		t.Errorf("EKS state = %+v", state["EKS"])
	}
}
