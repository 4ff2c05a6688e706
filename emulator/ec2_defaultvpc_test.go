package emulator_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"
)

// defaultVpc returns the region's default VPC, failing the test unless there is exactly one.
func defaultVpc(t *testing.T, c *ec2.Client) types.Vpc {
	t.Helper()
	out, err := c.DescribeVpcs(context.Background(), &ec2.DescribeVpcsInput{Filters: []types.Filter{filter("is-default", "true")}})
	if err != nil || len(out.Vpcs) != 1 {
		t.Fatalf("DescribeVpcs is-default=true: %+v, %v", out, err)
	}
	return out.Vpcs[0]
}

// defaultSubnets returns the default subnets of the region as zone -> CIDR block, checking that
// each is in vpc and maps public addresses on launch.
func defaultSubnets(t *testing.T, c *ec2.Client, vpc string) map[string]string {
	t.Helper()
	out, err := c.DescribeSubnets(context.Background(), &ec2.DescribeSubnetsInput{Filters: []types.Filter{filter("default-for-az", "true")}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range out.Subnets {
		if aws.ToString(s.VpcId) != vpc || !aws.ToBool(s.DefaultForAz) || !aws.ToBool(s.MapPublicIpOnLaunch) || s.State != types.SubnetStateAvailable {
			t.Errorf("default subnet %s: vpc %s, defaultForAz %v, mapPublicIpOnLaunch %v, state %s", aws.ToString(s.SubnetId), aws.ToString(s.VpcId),
				aws.ToBool(s.DefaultForAz), aws.ToBool(s.MapPublicIpOnLaunch), s.State)
		}
		got[aws.ToString(s.AvailabilityZone)] = aws.ToString(s.CidrBlock)
	}
	return got
}

// TestEC2DefaultVpc checks the default VPC every account has in every region: its blocks, its
// default subnets, internet gateway, main route table and default security group, that
// RunInstances and CreateSecurityGroup use it when the request names no subnet or VPC, and that
// once deleted it stays deleted.
func TestEC2DefaultVpc(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	v := defaultVpc(t, c)
	vpc := aws.ToString(v.VpcId)
	if aws.ToString(v.CidrBlock) != "172.31.0.0/16" || !aws.ToBool(v.IsDefault) || v.State != types.VpcStateAvailable {
		t.Errorf("default VPC: %s %v %s", aws.ToString(v.CidrBlock), aws.ToBool(v.IsDefault), v.State)
	}
	if out, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{Filters: []types.Filter{filter("is-default", "false")}}); err != nil || len(out.Vpcs) != 0 {
		t.Errorf("DescribeVpcs is-default=false in a new account: %+v, %v", out, err)
	}
	hostnames, err := c.DescribeVpcAttribute(ctx, &ec2.DescribeVpcAttributeInput{VpcId: v.VpcId, Attribute: types.VpcAttributeNameEnableDnsHostnames})
	if err != nil || !aws.ToBool(hostnames.EnableDnsHostnames.Value) {
		t.Errorf("a default VPC has DNS hostnames on: %+v, %v", hostnames, err)
	}
	want := map[string]string{}
	for n, z := range "abcdef" {
		want["us-east-1"+string(z)] = fmt.Sprintf("172.31.%d.0/20", 16*n)
	}
	if diff := cmp.Diff(want, defaultSubnets(t, c, vpc)); diff != "" {
		t.Errorf("default subnets in us-east-1: -want +got:\n%s", diff)
	}
	west := ec2.New(c.Options(), func(o *ec2.Options) { o.Region = "eu-west-1" })
	westVpc := defaultVpc(t, west)
	wantWest := map[string]string{"eu-west-1a": "172.31.0.0/20", "eu-west-1b": "172.31.16.0/20", "eu-west-1c": "172.31.32.0/20"}
	if diff := cmp.Diff(wantWest, defaultSubnets(t, west, aws.ToString(westVpc.VpcId))); diff != "" {
		t.Errorf("default subnets in eu-west-1: -want +got:\n%s", diff)
	}

	igws, err := c.DescribeInternetGateways(ctx, &ec2.DescribeInternetGatewaysInput{Filters: []types.Filter{filter("attachment.vpc-id", vpc)}})
	if err != nil || len(igws.InternetGateways) != 1 {
		t.Fatalf("the default VPC's internet gateway: %+v, %v", igws, err)
	}
	igw := aws.ToString(igws.InternetGateways[0].InternetGatewayId)
	main := mainTable(t, c, vpc)
	if r := routeTo(main, "0.0.0.0/0"); r == nil || aws.ToString(r.GatewayId) != igw || r.State != types.RouteStateActive {
		t.Errorf("the main route table sends 0.0.0.0/0 to the gateway: %+v", r)
	}
	if r := routeTo(main, "172.31.0.0/16"); r == nil || aws.ToString(r.GatewayId) != "local" {
		t.Errorf("the main route table has the local route: %+v", r)
	}
	byName, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupNames: []string{"default"}})
	if err != nil || len(byName.SecurityGroups) != 1 || aws.ToString(byName.SecurityGroups[0].VpcId) != vpc {
		t.Fatalf("DescribeSecurityGroups GroupNames=default: %+v, %v", byName, err)
	}
	defaultGroup := aws.ToString(byName.SecurityGroups[0].GroupId)

	web, err := c.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{GroupName: aws.String("web"), Description: aws.String("web")})
	if err != nil {
		t.Fatal(err)
	}
	inVpc, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupIds: []string{aws.ToString(web.GroupId)}})
	if err != nil || aws.ToString(inVpc.SecurityGroups[0].VpcId) != vpc {
		t.Errorf("CreateSecurityGroup without VpcId creates in the default VPC: %+v, %v", inVpc, err)
	}
	https := tcp(443)
	https.IpRanges = []types.IpRange{{CidrIp: aws.String("0.0.0.0/0")}}
	if _, err := c.AuthorizeSecurityGroupIngress(ctx, &ec2.AuthorizeSecurityGroupIngressInput{GroupName: aws.String("web"), IpPermissions: []types.IpPermission{https}}); err != nil {
		t.Errorf("AuthorizeSecurityGroupIngress by name in the default VPC: %v", err)
	}

	first := runInstance(t, c, &ec2.RunInstancesInput{ImageId: aws.String(testAMI), MinCount: aws.Int32(1), MaxCount: aws.Int32(1)})
	if aws.ToString(first.Placement.AvailabilityZone) != "us-east-1a" || aws.ToString(first.VpcId) != vpc || first.PublicIpAddress == nil ||
		len(first.SecurityGroups) != 1 || aws.ToString(first.SecurityGroups[0].GroupId) != defaultGroup {
		t.Errorf("RunInstances without a subnet: zone %s, vpc %s, public %v, groups %+v", aws.ToString(first.Placement.AvailabilityZone),
			aws.ToString(first.VpcId), first.PublicIpAddress, first.SecurityGroups)
	}
	placed := runInstance(t, c, &ec2.RunInstancesInput{ImageId: aws.String(testAMI), MinCount: aws.Int32(1), MaxCount: aws.Int32(1),
		Placement: &types.Placement{AvailabilityZone: aws.String("us-east-1c")}, SecurityGroups: []string{"web"}})
	if aws.ToString(placed.Placement.AvailabilityZone) != "us-east-1c" || len(placed.SecurityGroups) != 1 ||
		aws.ToString(placed.SecurityGroups[0].GroupId) != aws.ToString(web.GroupId) {
		t.Errorf("RunInstances in us-east-1c with group web: zone %s, groups %+v", aws.ToString(placed.Placement.AvailabilityZone), placed.SecurityGroups)
	}
	if _, err := c.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String(testAMI), MinCount: aws.Int32(1), MaxCount: aws.Int32(1),
		SecurityGroups: []string{"db"}}); errorCode(err) != "InvalidGroup.NotFound" {
		t.Errorf("RunInstances with an unknown group name gave %v", err)
	}

	// Take the default VPC apart as AWS requires, then delete it.
	if _, err := c.TerminateInstances(ctx, &ec2.TerminateInstancesInput{InstanceIds: []string{aws.ToString(first.InstanceId), aws.ToString(placed.InstanceId)}}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	if _, err := c.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupName: aws.String("web")}); err != nil {
		t.Fatal(err)
	}
	subnets, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{Filters: []types.Filter{filter("vpc-id", vpc)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range subnets.Subnets {
		if _, err := c.DeleteSubnet(ctx, &ec2.DeleteSubnetInput{SubnetId: s.SubnetId}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String(testAMI), MinCount: aws.Int32(1), MaxCount: aws.Int32(1)}); errorCode(err) != "MissingInput" {
		t.Errorf("RunInstances without a subnet in a default VPC without subnets gave %v", err)
	}
	if _, err := c.DetachInternetGateway(ctx, &ec2.DetachInternetGatewayInput{InternetGatewayId: aws.String(igw), VpcId: aws.String(vpc)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteVpc(ctx, &ec2.DeleteVpcInput{VpcId: aws.String(vpc)}); err != nil {
		t.Fatalf("AWS lets the default VPC be deleted: %v", err)
	}
	if out, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{}); err != nil || len(out.Vpcs) != 0 {
		t.Errorf("after deleting the default VPC, DescribeVpcs: %+v, %v", out, err)
	}
	noDefault := map[string]func() error{
		"RunInstances": func() error {
			_, err := c.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String(testAMI), MinCount: aws.Int32(1), MaxCount: aws.Int32(1)})
			return err
		},
		"CreateSecurityGroup": func() error {
			_, err := c.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{GroupName: aws.String("x"), Description: aws.String("x")})
			return err
		},
		"DescribeSecurityGroups": func() error {
			_, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupNames: []string{"default"}})
			return err
		},
	}
	for name, call := range noDefault {
		if code := errorCode(call()); code != "VPCIdNotSpecified" {
			t.Errorf("%s without a default VPC gave %s, want VPCIdNotSpecified", name, code)
		}
	}
	if out, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{}); err != nil || len(out.Vpcs) != 0 {
		t.Errorf("the default VPC came back: %+v, %v", out, err)
	}
}
