package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestEC2ReadAfterCreateDelay checks EC2's eventual consistency under the ReadAfterCreateDelay
// fault: every resource a create makes is, until the delay passes on the simulation clock,
// missing from Describe* answers and unknown to calls that name it (the resource's NotFound
// error), while a create repeated with the same ClientToken still answers the same resource.
func TestEC2ReadAfterCreateDelay(t *testing.T) {
	const delay = 5 * time.Second
	e, url := start(t, emulator.Options{Faults: map[string]emulator.Fault{"EC2": {ReadAfterCreateDelay: emulator.Duration(delay)}}})
	e.Clock.Freeze()
	c := ec2.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	vpc := aws.ToString(defaultVpc(t, c).VpcId)
	subnets, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{Filters: []types.Filter{filter("default-for-az", "true"), filter("availability-zone", "us-east-1a")}})
	if err != nil || len(subnets.Subnets) != 1 {
		t.Fatalf("the default VPC is there from the start: %+v, %v", subnets, err)
	}
	defaultSubnet := subnets.Subnets[0].SubnetId

	newVpc, err := c.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.9.0.0/16")})
	if err != nil {
		t.Fatal(err)
	}
	subnet, err := c.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: aws.String(vpc), CidrBlock: aws.String("172.31.128.0/20")})
	if err != nil {
		t.Fatal(err)
	}
	group, err := c.CreateSecurityGroup(ctx, &ec2.CreateSecurityGroupInput{GroupName: aws.String("web"), Description: aws.String("web")})
	if err != nil {
		t.Fatal(err)
	}
	igw, err := c.CreateInternetGateway(ctx, &ec2.CreateInternetGatewayInput{})
	if err != nil {
		t.Fatal(err)
	}
	eip, err := c.AllocateAddress(ctx, &ec2.AllocateAddressInput{Domain: types.DomainTypeVpc})
	if err != nil {
		t.Fatal(err)
	}
	tableIn := &ec2.CreateRouteTableInput{VpcId: aws.String(vpc), ClientToken: aws.String("table-1")}
	table, err := c.CreateRouteTable(ctx, tableIn)
	if err != nil {
		t.Fatal(err)
	}
	runIn := &ec2.RunInstancesInput{ImageId: aws.String(testAMI), MinCount: aws.Int32(1), MaxCount: aws.Int32(1), ClientToken: aws.String("web-1")}
	instance := runInstance(t, c, runIn)

	// reads names each new resource's read by id with the error it gives: NotFound while hidden.
	reads := map[string]func() error{
		"InvalidVpcID.NotFound": func() error {
			_, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{VpcIds: []string{aws.ToString(newVpc.Vpc.VpcId)}})
			return err
		},
		"InvalidSubnetID.NotFound": func() error {
			_, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: []string{aws.ToString(subnet.Subnet.SubnetId)}})
			return err
		},
		"InvalidGroup.NotFound": func() error {
			_, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupIds: []string{aws.ToString(group.GroupId)}})
			return err
		},
		"InvalidInternetGatewayID.NotFound": func() error {
			_, err := c.DescribeInternetGateways(ctx, &ec2.DescribeInternetGatewaysInput{InternetGatewayIds: []string{aws.ToString(igw.InternetGateway.InternetGatewayId)}})
			return err
		},
		"InvalidAllocationID.NotFound": func() error {
			_, err := c.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{AllocationIds: []string{aws.ToString(eip.AllocationId)}})
			return err
		},
		"InvalidRouteTableID.NotFound": func() error {
			_, err := c.DescribeRouteTables(ctx, &ec2.DescribeRouteTablesInput{RouteTableIds: []string{aws.ToString(table.RouteTable.RouteTableId)}})
			return err
		},
		"InvalidInstanceID.NotFound": func() error {
			_, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{InstanceIds: []string{aws.ToString(instance.InstanceId)}})
			return err
		},
	}
	for want, read := range reads {
		if got := errorCode(read()); got != want {
			t.Errorf("right after creation: %s, want %s", got, want)
		}
	}
	if _, err := c.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: newVpc.Vpc.VpcId, CidrBlock: aws.String("10.9.1.0/24")}); errorCode(err) != "InvalidVpcID.NotFound" {
		t.Errorf("a subnet in a VPC not yet visible: %v", err)
	}
	if _, err := c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{aws.ToString(igw.InternetGateway.InternetGatewayId)},
		Tags: []types.Tag{{Key: aws.String("Name"), Value: aws.String("edge")}}}); errorCode(err) != "InvalidInternetGatewayID.NotFound" {
		t.Errorf("tagging a gateway not yet visible: %v", err)
	}
	all, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{})
	if err != nil || len(all.Vpcs) != 1 || aws.ToString(all.Vpcs[0].VpcId) != vpc {
		t.Errorf("listing VPCs shows only the default one: %+v, %v", all, err)
	}
	byToken, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: []types.Filter{filter("client-token", "web-1")}})
	if err != nil || len(byToken.Reservations) != 0 {
		t.Errorf("filtering instances by client token: %+v, %v", byToken, err)
	}
	if again := runInstance(t, c, runIn); aws.ToString(again.InstanceId) != aws.ToString(instance.InstanceId) {
		t.Errorf("RunInstances with the same ClientToken launched %s, want %s again", aws.ToString(again.InstanceId), aws.ToString(instance.InstanceId))
	}
	if again, err := c.CreateRouteTable(ctx, tableIn); err != nil || aws.ToString(again.RouteTable.RouteTableId) != aws.ToString(table.RouteTable.RouteTableId) {
		t.Errorf("CreateRouteTable with the same ClientToken: %+v, %v", again, err)
	}

	e.Clock.Advance(delay)
	natIn := &ec2.CreateNatGatewayInput{SubnetId: defaultSubnet, AllocationId: eip.AllocationId, ClientToken: aws.String("nat-1")}
	nat, err := c.CreateNatGateway(ctx, natIn)
	if err != nil {
		t.Fatalf("once the Elastic IP is visible: %v", err)
	}
	describeNat := func() error {
		_, err := c.DescribeNatGateways(ctx, &ec2.DescribeNatGatewaysInput{NatGatewayIds: []string{aws.ToString(nat.NatGateway.NatGatewayId)}})
		return err
	}
	if code := errorCode(describeNat()); code != "NatGatewayNotFound" {
		t.Errorf("a NAT gateway right after creation: %s", code)
	}
	if again, err := c.CreateNatGateway(ctx, natIn); err != nil || aws.ToString(again.NatGateway.NatGatewayId) != aws.ToString(nat.NatGateway.NatGatewayId) {
		t.Errorf("CreateNatGateway with the same ClientToken: %+v, %v", again, err)
	}
	for _, read := range reads {
		if err := read(); err != nil {
			t.Errorf("after the delay: %v", err)
		}
	}
	e.Clock.Advance(delay)
	if err := describeNat(); err != nil {
		t.Errorf("the NAT gateway after the delay: %v", err)
	}
}
