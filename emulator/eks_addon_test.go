package emulator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// TestEKSAddonVersions checks DescribeAddonVersions' catalogue and filters.
func TestEKSAddonVersions(t *testing.T) {
	_, c, _ := eksClient(t)
	ctx := context.Background()
	all, err := c.DescribeAddonVersions(ctx, &eks.DescribeAddonVersionsInput{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range all.Addons {
		names = append(names, aws.ToString(a.AddonName))
	}
	if strings.Join(names, ",") != "aws-ebs-csi-driver,coredns,kube-proxy,vpc-cni" {
		t.Errorf("add-ons = %v", names)
	}
	proxy, err := c.DescribeAddonVersions(ctx, &eks.DescribeAddonVersionsInput{AddonName: aws.String("kube-proxy"), KubernetesVersion: aws.String("1.32")})
	if err != nil || len(proxy.Addons) != 1 {
		t.Fatalf("kube-proxy for 1.32 = %+v, %v", proxy, err)
	}
	versions := proxy.Addons[0].AddonVersions
	if len(versions) != 1 || aws.ToString(versions[0].AddonVersion) != "v1.32.3-eksbuild.7" || !versions[0].Compatibilities[0].DefaultVersion ||
		aws.ToString(versions[0].Compatibilities[0].ClusterVersion) != "1.32" || aws.ToString(proxy.Addons[0].Type) != "networking" {
		t.Errorf("kube-proxy versions for 1.32 = %+v", versions)
	}
	storage, err := c.DescribeAddonVersions(ctx, &eks.DescribeAddonVersionsInput{Types: []string{"storage"}, MaxResults: aws.Int32(1)})
	if err != nil || len(storage.Addons) != 1 || aws.ToString(storage.Addons[0].AddonName) != "aws-ebs-csi-driver" || storage.NextToken != nil {
		t.Errorf("storage add-ons = %+v, %v", storage, err)
	}
	paged, err := c.DescribeAddonVersions(ctx, &eks.DescribeAddonVersionsInput{MaxResults: aws.Int32(3)})
	if err != nil || len(paged.Addons) != 3 || paged.NextToken == nil {
		t.Errorf("first page of 3 = %+v, %v", paged, err)
	}
	none, err := c.DescribeAddonVersions(ctx, &eks.DescribeAddonVersionsInput{AddonName: aws.String("istio")})
	if err != nil || len(none.Addons) != 0 {
		t.Errorf("an unknown add-on = %+v, %v; want none", none, err)
	}
}

// TestEKSAddonLifecycle installs add-ons on a cluster, updates one and deletes them, the last
// with the cluster.
func TestEKSAddonLifecycle(t *testing.T) {
	e, c, n := eksClient(t)
	ctx := context.Background()
	if _, err := c.CreateCluster(ctx, clusterInput("production", n)); err != nil {
		t.Fatal(err)
	}
	cluster := aws.String("production")
	create := func(name, version string) (*eks.CreateAddonOutput, error) {
		in := &eks.CreateAddonInput{ClusterName: cluster, AddonName: aws.String(name), Tags: map[string]string{"team": "platform"}}
		if version != "" {
			in.AddonVersion = aws.String(version)
		}
		return c.CreateAddon(ctx, in)
	}
	if _, err := create("vpc-cni", ""); errorCode(err) != "InvalidRequestException" {
		t.Errorf("an add-on on a CREATING cluster gave %v; want InvalidRequestException", err)
	}
	e.Clock.Advance(eksTransition)
	created, err := create("coredns", "")
	if err != nil {
		t.Fatal(err)
	}
	a := created.Addon
	if a.Status != types.AddonStatusCreating || aws.ToString(a.AddonVersion) != "v1.11.4-eksbuild.14" || aws.ToString(a.Owner) != "aws" ||
		!strings.HasPrefix(aws.ToString(a.AddonArn), "arn:aws:eks:us-east-1:000000000000:addon/production/coredns/") || a.Tags["team"] != "platform" {
		t.Errorf("new add-on = %+v", a)
	}
	if _, err := create("coredns", ""); errorCode(err) != "ResourceInUseException" {
		t.Errorf("creating it twice gave %v", err)
	}
	if _, err := create("istio", ""); errorCode(err) != "InvalidParameterException" {
		t.Errorf("an add-on not offered gave %v", err)
	}
	if _, err := create("kube-proxy", "v1.33.0-eksbuild.2"); errorCode(err) != "InvalidParameterException" {
		t.Errorf("a version not for 1.31 gave %v", err)
	}
	role := aws.String("arn:aws:iam::123456789012:role/ebs-csi")
	if _, err := c.CreateAddon(ctx, &eks.CreateAddonInput{ClusterName: cluster, AddonName: aws.String("aws-ebs-csi-driver"), ServiceAccountRoleArn: role,
		ResolveConflicts: types.ResolveConflictsOverwrite}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(eksTransition)
	got, err := c.DescribeAddon(ctx, &eks.DescribeAddonInput{ClusterName: cluster, AddonName: aws.String("coredns")})
	if err != nil || got.Addon.Status != types.AddonStatusActive {
		t.Fatalf("DescribeAddon = %+v, %v; want ACTIVE", got, err)
	}
	up, err := c.UpdateAddon(ctx, &eks.UpdateAddonInput{ClusterName: cluster, AddonName: aws.String("coredns"), AddonVersion: aws.String("v1.11.4-eksbuild.2"),
		ConfigurationValues: aws.String(`{"replicaCount":3}`), ResolveConflicts: types.ResolveConflictsPreserve})
	if err != nil || up.Update.Type != types.UpdateTypeAddonUpdate || updateParams(up.Update)[types.UpdateParamTypeAddonVersion] != "v1.11.4-eksbuild.2" {
		t.Fatalf("UpdateAddon = %+v, %v", up, err)
	}
	if _, err := c.UpdateAddon(ctx, &eks.UpdateAddonInput{ClusterName: cluster, AddonName: aws.String("coredns"), AddonVersion: aws.String("v1.11.4-eksbuild.14")}); errorCode(err) != "ResourceInUseException" {
		t.Errorf("a second add-on update during the first gave %v", err)
	}
	e.Clock.Advance(eksTransition)
	got, _ = c.DescribeAddon(ctx, &eks.DescribeAddonInput{ClusterName: cluster, AddonName: aws.String("coredns")})
	if aws.ToString(got.Addon.AddonVersion) != "v1.11.4-eksbuild.2" || aws.ToString(got.Addon.ConfigurationValues) != `{"replicaCount":3}` {
		t.Errorf("after the update: %+v", got.Addon)
	}
	if d, err := c.DescribeUpdate(ctx, &eks.DescribeUpdateInput{Name: cluster, AddonName: aws.String("coredns"), UpdateId: up.Update.Id}); err != nil || d.Update.Status != types.UpdateStatusSuccessful {
		t.Errorf("DescribeUpdate of the add-on = %+v, %v", d, err)
	}
	if _, err := c.UpdateAddon(ctx, &eks.UpdateAddonInput{ClusterName: cluster, AddonName: aws.String("coredns"), AddonVersion: aws.String("v1.12.1-eksbuild.2")}); errorCode(err) != "InvalidParameterException" {
		t.Errorf("a version not for 1.31 gave %v", err)
	}
	list, err := c.ListAddons(ctx, &eks.ListAddonsInput{ClusterName: cluster})
	if err != nil || strings.Join(list.Addons, ",") != "aws-ebs-csi-driver,coredns" {
		t.Errorf("ListAddons = %+v, %v", list, err)
	}
	deleted, err := c.DeleteAddon(ctx, &eks.DeleteAddonInput{ClusterName: cluster, AddonName: aws.String("coredns")})
	if err != nil || deleted.Addon.Status != types.AddonStatusDeleting {
		t.Fatalf("DeleteAddon = %+v, %v", deleted, err)
	}
	e.Clock.Advance(eksTransition)
	if _, err := c.DescribeAddon(ctx, &eks.DescribeAddonInput{ClusterName: cluster, AddonName: aws.String("coredns")}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("describing the deleted add-on gave %v", err)
	}
	if _, err := c.DeleteCluster(ctx, &eks.DeleteClusterInput{Name: cluster}); err != nil {
		t.Fatalf("deleting a cluster with an add-on: %v", err)
	}
	if got, err := c.DescribeAddon(ctx, &eks.DescribeAddonInput{ClusterName: cluster, AddonName: aws.String("aws-ebs-csi-driver")}); err != nil || got.Addon.Status != types.AddonStatusDeleting {
		t.Errorf("the add-on of a DELETING cluster = %+v, %v; want DELETING", got, err)
	}
}
