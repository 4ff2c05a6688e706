package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

func TestEC2CreateVpcValidation(t *testing.T) {
	_, url := start(t, emulator.Options{})
	c := ec2.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	cases := map[string]struct {
		reason string
		args   string
		want   string
	}{
		"Valid":       {reason: "The seed's /16 is accepted.", args: "10.0.0.0/16"},
		"TooLarge":    {reason: "VPCs are /16 to /28.", args: "10.0.0.0/8", want: "InvalidVpc.Range"},
		"TooSmall":    {reason: "VPCs are /16 to /28.", args: "10.0.0.0/29", want: "InvalidVpc.Range"},
		"Malformed":   {reason: "Not a CIDR block.", args: "10.0.0.300/16", want: "InvalidParameterValue"},
		"HostBitsSet": {reason: "A CIDR block names a network.", args: "10.0.0.1/16", want: "InvalidParameterValue"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.CreateVpc(context.Background(), &ec2.CreateVpcInput{CidrBlock: aws.String(tc.args)})
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestEC2VpcLifecycle(t *testing.T) {
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	c := ec2.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	created, err := c.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16"), InstanceTenancy: types.TenancyDefault,
		TagSpecifications: []types.TagSpecification{{ResourceType: types.ResourceTypeVpc, Tags: []types.Tag{{Key: aws.String("Name"), Value: aws.String("production-vpc")}}}}})
	if err != nil {
		t.Fatal(err)
	}
	vpc := created.Vpc
	if vpc.State != types.VpcStatePending || len(aws.ToString(vpc.VpcId)) != len("vpc-0123456789abcdef0") || len(vpc.Tags) != 1 {
		t.Errorf("a new VPC is %+v; want pending, with an AWS-shaped id and its tag", vpc)
	}
	e.Clock.Advance(2 * time.Second)
	byTag, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{Filters: []types.Filter{{Name: aws.String("tag:Name"), Values: []string{"production-*"}}}})
	if err != nil || len(byTag.Vpcs) != 1 || byTag.Vpcs[0].State != types.VpcStateAvailable || aws.ToString(byTag.Vpcs[0].CidrBlock) != "10.0.0.0/16" {
		t.Fatalf("DescribeVpcs by tag = %+v, %v", byTag, err)
	}
	if _, err := c.ModifyVpcAttribute(ctx, &ec2.ModifyVpcAttributeInput{VpcId: vpc.VpcId, EnableDnsHostnames: &types.AttributeBooleanValue{Value: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	attr, err := c.DescribeVpcAttribute(ctx, &ec2.DescribeVpcAttributeInput{VpcId: vpc.VpcId, Attribute: types.VpcAttributeNameEnableDnsHostnames})
	if err != nil || !aws.ToBool(attr.EnableDnsHostnames.Value) {
		t.Errorf("enableDnsHostnames = %+v, %v", attr, err)
	}
	if _, err := c.DeleteTags(ctx, &ec2.DeleteTagsInput{Resources: []string{aws.ToString(vpc.VpcId)}, Tags: []types.Tag{{Key: aws.String("Name")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{aws.ToString(vpc.VpcId)}, Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("net")}}}); err != nil {
		t.Fatal(err)
	}
	byID, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{VpcIds: []string{aws.ToString(vpc.VpcId)}})
	if err != nil || len(byID.Vpcs) != 1 || len(byID.Vpcs[0].Tags) != 1 || aws.ToString(byID.Vpcs[0].Tags[0].Key) != "team" {
		t.Errorf("after retagging: %+v, %v", byID, err)
	}
	if _, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{Filters: []types.Filter{{Name: aws.String("no-such-filter"), Values: []string{"x"}}}}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("an unknown filter gave %v", err)
	}
	if _, err := c.DeleteVpc(ctx, &ec2.DeleteVpcInput{VpcId: vpc.VpcId}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{VpcIds: []string{aws.ToString(vpc.VpcId)}}); errorCode(err) != "InvalidVpcID.NotFound" {
		t.Errorf("a deleted VPC gave %v, want InvalidVpcID.NotFound", err)
	}
	zones, err := c.DescribeAvailabilityZones(ctx, &ec2.DescribeAvailabilityZonesInput{})
	if err != nil || len(zones.AvailabilityZones) != 6 || aws.ToString(zones.AvailabilityZones[0].ZoneName) != "us-east-1a" || aws.ToString(zones.AvailabilityZones[0].ZoneId) != "use1-az1" {
		t.Errorf("us-east-1 zones = %+v, %v", zones, err)
	}
}

// ec2Client starts an emulator with a frozen clock and returns it with an EC2 client.
func ec2Client(t *testing.T) (*emulator.Server, *ec2.Client) {
	t.Helper()
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	return e, ec2.NewFromConfig(sdkConfig(t, url, "AKID", 1))
}

// createVpc creates a VPC and returns its id.
func createVpc(t *testing.T, c *ec2.Client, cidr string) string {
	t.Helper()
	out, err := c.CreateVpc(context.Background(), &ec2.CreateVpcInput{CidrBlock: aws.String(cidr)})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.Vpc.VpcId)
}

// createSubnet creates a subnet and returns its id.
func createSubnet(t *testing.T, c *ec2.Client, vpc, cidr string) string {
	t.Helper()
	out, err := c.CreateSubnet(context.Background(), &ec2.CreateSubnetInput{VpcId: aws.String(vpc), CidrBlock: aws.String(cidr)})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.Subnet.SubnetId)
}

// attachedIgw creates an internet gateway attached to vpc and returns its id.
func attachedIgw(t *testing.T, c *ec2.Client, vpc string) string {
	t.Helper()
	ctx := context.Background()
	out, err := c.CreateInternetGateway(ctx, &ec2.CreateInternetGatewayInput{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AttachInternetGateway(ctx, &ec2.AttachInternetGatewayInput{InternetGatewayId: out.InternetGateway.InternetGatewayId, VpcId: aws.String(vpc)}); err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.InternetGateway.InternetGatewayId)
}

// nameTag is a TagSpecification giving a resource of type rt a Name tag.
func nameTag(rt types.ResourceType, name string) []types.TagSpecification {
	return []types.TagSpecification{{ResourceType: rt, Tags: []types.Tag{{Key: aws.String("Name"), Value: aws.String(name)}}}}
}

// filter is one EC2 filter.
func filter(name string, values ...string) types.Filter {
	return types.Filter{Name: aws.String(name), Values: values}
}
