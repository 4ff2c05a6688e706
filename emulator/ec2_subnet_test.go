package emulator_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"
)

func TestEC2CreateSubnetValidation(t *testing.T) {
	_, c := ec2Client(t)
	vpc := createVpc(t, c, "10.0.0.0/16")
	if _, err := c.CreateSubnet(context.Background(), &ec2.CreateSubnetInput{VpcId: aws.String(vpc), CidrBlock: aws.String("10.0.1.0/24"),
		AvailabilityZone: aws.String("us-east-1a")}); err != nil {
		t.Fatal(err)
	}
	type args struct{ vpc, cidr, zone, zoneID string }
	cases := map[string]struct {
		reason string
		args   args
		want   string
	}{
		"Valid":         {reason: "A free /24 inside the VPC in a zone of the region.", args: args{cidr: "10.0.2.0/24", zone: "us-east-1b"}},
		"ByZoneID":      {reason: "The zone may be named by its ID.", args: args{cidr: "10.0.3.0/24", zoneID: "use1-az3"}},
		"Smallest":      {reason: "Subnets go down to /28.", args: args{cidr: "10.0.4.0/28"}},
		"OutsideVpc":    {reason: "A subnet lies within its VPC's CIDR.", args: args{cidr: "10.1.0.0/24"}, want: "InvalidSubnet.Range"},
		"TooSmall":      {reason: "Subnets are /16 to /28.", args: args{cidr: "10.0.5.0/29"}, want: "InvalidSubnet.Range"},
		"TooLarge":      {reason: "Subnets are /16 to /28.", args: args{cidr: "10.0.0.0/15"}, want: "InvalidSubnet.Range"},
		"Overlap":       {reason: "Subnets of a VPC do not overlap.", args: args{cidr: "10.0.1.128/25"}, want: "InvalidSubnet.Conflict"},
		"Covering":      {reason: "Nor may one contain another.", args: args{cidr: "10.0.0.0/20"}, want: "InvalidSubnet.Conflict"},
		"Malformed":     {reason: "Not a CIDR block.", args: args{cidr: "10.0.6.0/33"}, want: "InvalidParameterValue"},
		"UnknownZone":   {reason: "The zone must be one of the region's.", args: args{cidr: "10.0.7.0/24", zone: "us-east-1z"}, want: "InvalidParameterValue"},
		"UnknownZoneID": {reason: "The zone ID must be one of the region's.", args: args{cidr: "10.0.8.0/24", zoneID: "use1-az9"}, want: "InvalidParameterValue"},
		"MissingVpc":    {reason: "The VPC must exist.", args: args{vpc: "vpc-0123456789abcdef0", cidr: "10.0.9.0/24"}, want: "InvalidVpcID.NotFound"},
		"MalformedVpc":  {reason: "A VPC id has the VPC form.", args: args{vpc: "subnet-0123456789abcdef0", cidr: "10.0.9.0/24"}, want: "InvalidVpcID.Malformed"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := &ec2.CreateSubnetInput{VpcId: aws.String(vpc), CidrBlock: aws.String(tc.args.cidr)}
			if tc.args.vpc != "" {
				in.VpcId = aws.String(tc.args.vpc)
			}
			if tc.args.zone != "" {
				in.AvailabilityZone = aws.String(tc.args.zone)
			}
			if tc.args.zoneID != "" {
				in.AvailabilityZoneId = aws.String(tc.args.zoneID)
			}
			_, err := c.CreateSubnet(context.Background(), in)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestEC2SubnetLifecycle(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	v, err := c.CreateVpc(ctx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.0.0.0/16"), AmazonProvidedIpv6CidrBlock: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	vpc := aws.ToString(v.Vpc.VpcId)
	block := aws.ToString(v.Vpc.Ipv6CidrBlockAssociationSet[0].Ipv6CidrBlock) // 2600:1f18:xxxx:xx00::/56
	ipv6 := strings.Replace(block, "00::/56", "01::/64", 1)
	created, err := c.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: aws.String(vpc), CidrBlock: aws.String("10.0.1.0/24"), AvailabilityZone: aws.String("us-east-1c"),
		Ipv6CidrBlock: aws.String(ipv6), TagSpecifications: nameTag(types.ResourceTypeSubnet, "public-a")})
	if err != nil {
		t.Fatal(err)
	}
	s := created.Subnet
	want := types.Subnet{SubnetId: s.SubnetId, VpcId: aws.String(vpc), CidrBlock: aws.String("10.0.1.0/24"), State: types.SubnetStatePending,
		AvailabilityZone: aws.String("us-east-1c"), AvailabilityZoneId: aws.String("use1-az3"), AvailableIpAddressCount: aws.Int32(251)}
	got := types.Subnet{SubnetId: s.SubnetId, VpcId: s.VpcId, CidrBlock: s.CidrBlock, State: s.State, AvailabilityZone: s.AvailabilityZone,
		AvailabilityZoneId: s.AvailabilityZoneId, AvailableIpAddressCount: s.AvailableIpAddressCount}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(types.Subnet{})); diff != "" {
		t.Errorf("a new /24 subnet: -want +got:\n%s", diff)
	}
	if len(s.Ipv6CidrBlockAssociationSet) != 1 || aws.ToString(s.Ipv6CidrBlockAssociationSet[0].Ipv6CidrBlock) != ipv6 || len(s.Tags) != 1 {
		t.Errorf("IPv6 block and tags: %+v %+v", s.Ipv6CidrBlockAssociationSet, s.Tags)
	}
	if _, err := c.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: aws.String(vpc), CidrBlock: aws.String("10.0.2.0/24"), Ipv6CidrBlock: aws.String(ipv6)}); errorCode(err) != "InvalidSubnet.Conflict" {
		t.Errorf("a second subnet with the same IPv6 block gave %v", err)
	}
	e.Clock.Advance(2 * time.Second)
	for _, f := range []types.Filter{filter("vpc-id", vpc), filter("tag:Name", "public-*"), filter("tag-key", "Name"), filter("availability-zone", "us-east-1c"), filter("state", "available")} {
		// The default VPC's subnets, one per zone, are left out by default-for-az.
		out, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{Filters: []types.Filter{f, filter("default-for-az", "false")}})
		if err != nil || len(out.Subnets) != 1 || out.Subnets[0].State != types.SubnetStateAvailable {
			t.Errorf("DescribeSubnets %s=%v: %+v, %v", aws.ToString(f.Name), f.Values, out, err)
		}
	}
	if _, err := c.ModifySubnetAttribute(ctx, &ec2.ModifySubnetAttributeInput{SubnetId: s.SubnetId, MapPublicIpOnLaunch: &types.AttributeBooleanValue{Value: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ModifySubnetAttribute(ctx, &ec2.ModifySubnetAttributeInput{SubnetId: s.SubnetId, AssignIpv6AddressOnCreation: &types.AttributeBooleanValue{Value: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	both := &ec2.ModifySubnetAttributeInput{SubnetId: s.SubnetId, MapPublicIpOnLaunch: &types.AttributeBooleanValue{Value: aws.Bool(false)},
		AssignIpv6AddressOnCreation: &types.AttributeBooleanValue{Value: aws.Bool(false)}}
	if _, err := c.ModifySubnetAttribute(ctx, both); errorCode(err) != "InvalidParameterCombination" {
		t.Errorf("two attributes at once gave %v", err)
	}
	out, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: []string{aws.ToString(s.SubnetId)}, Filters: []types.Filter{filter("map-public-ip-on-launch", "true")}})
	if err != nil || len(out.Subnets) != 1 || !aws.ToBool(out.Subnets[0].AssignIpv6AddressOnCreation) {
		t.Errorf("after ModifySubnetAttribute: %+v, %v", out, err)
	}

	for i := 2; i < 8; i++ {
		createSubnet(t, c, vpc, fmt.Sprintf("10.0.%d.0/24", i))
	}
	mine := []types.Filter{filter("vpc-id", vpc)}
	first, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{MaxResults: aws.Int32(5), Filters: mine})
	if err != nil || len(first.Subnets) != 5 || first.NextToken == nil {
		t.Fatalf("first page: %+v, %v", first, err)
	}
	second, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{MaxResults: aws.Int32(5), NextToken: first.NextToken, Filters: mine})
	if err != nil || len(second.Subnets) != 2 || second.NextToken != nil {
		t.Errorf("second page: %+v, %v", second, err)
	}
	if _, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{MaxResults: aws.Int32(3)}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("MaxResults 3 gave %v", err)
	}
	if _, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{Filters: []types.Filter{filter("no-such-filter", "x")}}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("an unknown filter gave %v", err)
	}
	if _, err := c.DeleteSubnet(ctx, &ec2.DeleteSubnetInput{SubnetId: s.SubnetId}); err != nil {
		t.Fatal(err)
	}
	gone := []string{aws.ToString(s.SubnetId), "subnet-0123456789abcdef0"}
	_, err = c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: gone})
	if errorCode(err) != "InvalidSubnetID.NotFound" || !strings.Contains(err.Error(), gone[0]) || !strings.Contains(err.Error(), gone[1]) {
		t.Errorf("describing missing subnets gave %v, want InvalidSubnetID.NotFound naming both", err)
	}
}

// TestEC2DescribeSubnetsBatch reads 500 subnets with one call, as the operator does.
func TestEC2DescribeSubnetsBatch(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	var ids []string
	for i := range 500 {
		ids = append(ids, createSubnet(t, c, vpc, fmt.Sprintf("10.0.%d.%d/28", i/16, i%16*16)))
	}
	before := e.Calls.Total("EC2", "DescribeSubnets")
	out, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: ids})
	if err != nil {
		t.Fatal(err)
	}
	if calls := e.Calls.Total("EC2", "DescribeSubnets") - before; len(out.Subnets) != 500 || calls != 1 || out.NextToken != nil {
		t.Errorf("500 ids gave %d subnets in %d calls", len(out.Subnets), calls)
	}
	if n := aws.ToInt32(out.Subnets[0].AvailableIpAddressCount); n != 11 {
		t.Errorf("a /28 has %d free addresses, want 11", n)
	}
	_, err = c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: append(ids[:10:10], "subnet-0000000000000000a")})
	if errorCode(err) != "InvalidSubnetID.NotFound" || !strings.Contains(err.Error(), "subnet-0000000000000000a") {
		t.Errorf("a batch with a missing id gave %v", err)
	}
}
