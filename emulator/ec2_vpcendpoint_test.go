package emulator_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

const s3Service = "com.amazonaws.us-east-1.s3"

// describeEndpoint returns one endpoint as DescribeVpcEndpoints answers it.
func describeEndpoint(t *testing.T, c *ec2.Client, id string) types.VpcEndpoint {
	t.Helper()
	out, err := c.DescribeVpcEndpoints(context.Background(), &ec2.DescribeVpcEndpointsInput{VpcEndpointIds: []string{id}})
	if err != nil || len(out.VpcEndpoints) != 1 {
		t.Fatalf("describe %s: %+v, %v", id, out, err)
	}
	return out.VpcEndpoints[0]
}

// prefixListRoute returns the route of a table to a prefix list, or nil.
func prefixListRoute(t *testing.T, c *ec2.Client, table string) *types.Route {
	t.Helper()
	out, err := c.DescribeRouteTables(context.Background(), &ec2.DescribeRouteTablesInput{RouteTableIds: []string{table}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range out.RouteTables[0].Routes {
		if r.DestinationPrefixListId != nil {
			return &r
		}
	}
	return nil
}

func TestEC2VPCEndpointGateway(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	main := aws.ToString(mainTable(t, c, vpc).RouteTableId)
	second, err := c.CreateRouteTable(ctx, &ec2.CreateRouteTableInput{VpcId: aws.String(vpc)})
	if err != nil {
		t.Fatal(err)
	}
	other := aws.ToString(second.RouteTable.RouteTableId)
	in := &ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc), ServiceName: aws.String(s3Service), VpcEndpointType: types.VpcEndpointTypeGateway,
		RouteTableIds: []string{main}, ClientToken: aws.String("token-1"), TagSpecifications: nameTag(types.ResourceTypeVpcEndpoint, "s3")}
	created, err := c.CreateVpcEndpoint(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(created.VpcEndpoint.VpcEndpointId)
	if got := created.VpcEndpoint.State; got != "available" {
		t.Errorf("a new gateway endpoint is %q, want available at once as on AWS", got)
	}
	again, err := c.CreateVpcEndpoint(ctx, in)
	if err != nil || aws.ToString(again.VpcEndpoint.VpcEndpointId) != id {
		t.Errorf("a repeated ClientToken answers the same endpoint: %v, %v", again, err)
	}
	route := prefixListRoute(t, c, main)
	if route == nil || aws.ToString(route.GatewayId) != id || !strings.HasPrefix(aws.ToString(route.DestinationPrefixListId), "pl-") {
		t.Fatalf("the main table routes the S3 prefix list to the endpoint: %+v", route)
	}
	e.Clock.Advance(2 * time.Second)
	got := describeEndpoint(t, c, id)
	if got.State != "available" || aws.ToString(got.PolicyDocument) == "" || len(got.DnsEntries) != 0 {
		t.Errorf("an available gateway endpoint with the default policy and no DNS entries: %+v", got)
	}

	policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"*"}]}`
	if _, err := c.ModifyVpcEndpoint(ctx, &ec2.ModifyVpcEndpointInput{VpcEndpointId: aws.String(id), AddRouteTableIds: []string{other},
		RemoveRouteTableIds: []string{main}, PolicyDocument: aws.String(policy)}); err != nil {
		t.Fatal(err)
	}
	got = describeEndpoint(t, c, id)
	if diff := cmp.Diff([]string{other}, got.RouteTableIds); diff != "" || aws.ToString(got.PolicyDocument) != policy {
		t.Errorf("route tables after the change: -want +got:\n%s; policy %s", diff, aws.ToString(got.PolicyDocument))
	}
	if prefixListRoute(t, c, main) != nil || prefixListRoute(t, c, other) == nil {
		t.Error("the route moves from the removed table to the added one")
	}
	_, err = c.CreateVpcEndpoint(ctx, &ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc), ServiceName: aws.String(s3Service), RouteTableIds: []string{other}})
	wantCode(t, "a second S3 gateway endpoint on the same table", err, "RouteAlreadyExists")

	for name, f := range map[string][]types.Filter{
		"vpc-id": {filter("vpc-id", vpc)}, "service-name": {filter("service-name", s3Service)},
		"vpc-endpoint-state": {filter("vpc-endpoint-state", "available")}, "tag": {filter("tag:Name", "s3")},
	} {
		out, err := c.DescribeVpcEndpoints(ctx, &ec2.DescribeVpcEndpointsInput{Filters: f})
		if err != nil || len(out.VpcEndpoints) != 1 {
			t.Errorf("filter %s finds the endpoint: %+v, %v", name, out, err)
		}
	}

	deleted, err := c.DeleteVpcEndpoints(ctx, &ec2.DeleteVpcEndpointsInput{VpcEndpointIds: []string{id, "vpce-0123456789abcdef0"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(deleted.Unsuccessful) != 1 || aws.ToString(deleted.Unsuccessful[0].Error.Code) != "InvalidVpcEndpointId.NotFound" {
		t.Errorf("an unknown id is an unsuccessful item: %+v", deleted.Unsuccessful)
	}
	if got := describeEndpoint(t, c, id).State; got != "deleting" {
		t.Errorf("a deleted endpoint is %q, want deleting", got)
	}
	if prefixListRoute(t, c, other) != nil {
		t.Error("deleting the endpoint takes its route away")
	}
	e.Clock.Advance(2 * time.Second)
	if got := describeEndpoint(t, c, id).State; got != "deleted" {
		t.Errorf("after the transition the endpoint is %q, want deleted", got)
	}
}

func TestEC2VPCEndpointInterface(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	a, b := createSubnet(t, c, vpc, "10.0.0.0/24"), createSubnet(t, c, vpc, "10.0.1.0/24")
	created, err := c.CreateVpcEndpoint(ctx, &ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc), ServiceName: aws.String("com.amazonaws.us-east-1.ecr.api"),
		VpcEndpointType: types.VpcEndpointTypeInterface, SubnetIds: []string{a}})
	if err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(created.VpcEndpoint.VpcEndpointId)
	if got := describeEndpoint(t, c, id).State; got != "pending" {
		t.Errorf("a new interface endpoint is %q, want pending", got)
	}
	e.Clock.Advance(2 * time.Second)
	got := describeEndpoint(t, c, id)
	if got.State != "available" || !aws.ToBool(got.PrivateDnsEnabled) || len(got.Groups) != 1 || len(got.DnsEntries) != 3 {
		t.Errorf("private DNS on by default, the VPC's default group, regional, zonal and private DNS names: %+v", got)
	}
	if _, err := c.ModifyVpcEndpoint(ctx, &ec2.ModifyVpcEndpointInput{VpcEndpointId: aws.String(id), AddSubnetIds: []string{b}, PrivateDnsEnabled: aws.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	got = describeEndpoint(t, c, id)
	if diff := cmp.Diff(slices.Sorted(slices.Values([]string{a, b})), got.SubnetIds); diff != "" || aws.ToBool(got.PrivateDnsEnabled) || len(got.DnsEntries) != 3 {
		t.Errorf("subnets after adding one: -want +got:\n%s; private DNS %v, entries %d", diff, aws.ToBool(got.PrivateDnsEnabled), len(got.DnsEntries))
	}
	sameZone, err := c.CreateSubnet(ctx, &ec2.CreateSubnetInput{VpcId: aws.String(vpc), CidrBlock: aws.String("10.0.2.0/24"),
		AvailabilityZone: describeSubnetZone(t, c, a)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ModifyVpcEndpoint(ctx, &ec2.ModifyVpcEndpointInput{VpcEndpointId: aws.String(id), AddSubnetIds: []string{aws.ToString(sameZone.Subnet.SubnetId)}})
	wantCode(t, "a second subnet in one zone", err, "DuplicateSubnetsInSameZone")
}

// describeSubnetZone returns a subnet's availability zone.
func describeSubnetZone(t *testing.T, c *ec2.Client, id string) *string {
	t.Helper()
	out, err := c.DescribeSubnets(context.Background(), &ec2.DescribeSubnetsInput{SubnetIds: []string{id}})
	if err != nil {
		t.Fatal(err)
	}
	return out.Subnets[0].AvailabilityZone
}

func TestEC2VPCEndpointErrors(t *testing.T) {
	_, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	subnet := createSubnet(t, c, vpc, "10.0.0.0/24")
	cases := map[string]struct {
		reason string
		args   ec2.CreateVpcEndpointInput
		want   string
	}{
		"UnknownVpc":        {reason: "The VPC must exist.", args: ec2.CreateVpcEndpointInput{VpcId: aws.String("vpc-0123456789abcdef0"), ServiceName: aws.String(s3Service)}, want: "InvalidVpcID.NotFound"},
		"UnknownService":    {reason: "The service must exist in the region.", args: ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc), ServiceName: aws.String("com.amazonaws.us-east-1.nothing")}, want: "InvalidServiceName"},
		"OtherRegion":       {reason: "A service name of another region is unknown.", args: ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc), ServiceName: aws.String("com.amazonaws.eu-west-1.s3")}, want: "InvalidServiceName"},
		"GatewayForECR":     {reason: "Gateway endpoints are for S3 and DynamoDB only.", args: ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc), ServiceName: aws.String("com.amazonaws.us-east-1.ecr.api"), VpcEndpointType: types.VpcEndpointTypeGateway}, want: "InvalidParameter"},
		"UnknownTable":      {reason: "Route tables must exist.", args: ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc), ServiceName: aws.String(s3Service), RouteTableIds: []string{"rtb-0123456789abcdef0"}}, want: "InvalidRouteTableID.NotFound"},
		"GatewaySubnets":    {reason: "Gateway endpoints take no subnets.", args: ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc), ServiceName: aws.String(s3Service), SubnetIds: []string{subnet}}, want: "InvalidParameter"},
		"UnknownSubnet":     {reason: "Subnets must exist.", args: ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc), ServiceName: aws.String("com.amazonaws.us-east-1.sts"), VpcEndpointType: types.VpcEndpointTypeInterface, SubnetIds: []string{"subnet-0123456789abcdef0"}}, want: "InvalidSubnetID.NotFound"},
		"InterfaceTables":   {reason: "Interface endpoints take no route tables.", args: ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc), ServiceName: aws.String("com.amazonaws.us-east-1.sts"), VpcEndpointType: types.VpcEndpointTypeInterface, RouteTableIds: []string{aws.ToString(mainTable(t, c, vpc).RouteTableId)}}, want: "InvalidParameter"},
		"MissingService":    {reason: "ServiceName is required.", args: ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc)}, want: "MissingParameter"},
		"UnknownEndpoint":   {reason: "Describe names unknown ids.", want: "InvalidVpcEndpointId.NotFound"},
		"MalformedEndpoint": {reason: "Describe checks the form of ids.", want: "InvalidVpcEndpointId.Malformed"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var err error
			switch name {
			case "UnknownEndpoint":
				_, err = c.DescribeVpcEndpoints(ctx, &ec2.DescribeVpcEndpointsInput{VpcEndpointIds: []string{"vpce-0123456789abcdef0"}})
			case "MalformedEndpoint":
				_, err = c.DescribeVpcEndpoints(ctx, &ec2.DescribeVpcEndpointsInput{VpcEndpointIds: []string{"nope"}})
			default:
				_, err = c.CreateVpcEndpoint(ctx, &tc.args)
			}
			if got := errorCode(err); got != tc.want {
				t.Errorf("%s\nerror %q, want %s", tc.reason, got, tc.want)
			}
		})
	}
}

func TestEC2VPCEndpointServices(t *testing.T) {
	_, c := ec2Client(t)
	ctx := context.Background()
	out, err := c.DescribeVpcEndpointServices(ctx, &ec2.DescribeVpcEndpointServicesInput{Filters: []types.Filter{filter("service-type", "Gateway")}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"com.amazonaws.us-east-1.dynamodb", s3Service}, out.ServiceNames); diff != "" {
		t.Errorf("the gateway services: -want +got:\n%s", diff)
	}
	both, err := c.DescribeVpcEndpointServices(ctx, &ec2.DescribeVpcEndpointServicesInput{ServiceNames: []string{s3Service}})
	if err != nil || len(both.ServiceDetails) != 2 {
		t.Errorf("S3 has a gateway and an interface service, one detail each: %+v, %v", both, err)
	}
	one, err := c.DescribeVpcEndpointServices(ctx, &ec2.DescribeVpcEndpointServicesInput{ServiceNames: []string{"com.amazonaws.us-east-1.ecr.dkr"}})
	if err != nil || len(one.ServiceDetails) != 1 || aws.ToString(one.ServiceDetails[0].PrivateDnsName) != "*.dkr.ecr.us-east-1.amazonaws.com" {
		t.Errorf("ecr.dkr by name, with its private DNS name: %+v, %v", one, err)
	}
	_, err = c.DescribeVpcEndpointServices(ctx, &ec2.DescribeVpcEndpointServicesInput{ServiceNames: []string{"com.amazonaws.us-east-1.nothing"}})
	wantCode(t, "an unknown service", err, "InvalidServiceName")
}

// TestEC2VPCEndpointReadAfterCreate checks an endpoint under the ReadAfterCreateDelay fault: it is
// missing from DescribeVpcEndpoints and unknown to CreateTags until the delay passes, while a
// create repeated with the same ClientToken answers it; afterwards CreateTags reaches it.
func TestEC2VPCEndpointReadAfterCreate(t *testing.T) {
	const delay = 5 * time.Second
	e, url := start(t, emulator.Options{Faults: map[string]emulator.Fault{"EC2": {ReadAfterCreateDelay: emulator.Duration(delay)}}})
	e.Clock.Freeze()
	c := ec2.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	vpc := aws.ToString(defaultVpc(t, c).VpcId)
	in := &ec2.CreateVpcEndpointInput{VpcId: aws.String(vpc), ServiceName: aws.String(s3Service), ClientToken: aws.String("s3-1")}
	created, err := c.CreateVpcEndpoint(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(created.VpcEndpoint.VpcEndpointId)
	_, err = c.DescribeVpcEndpoints(ctx, &ec2.DescribeVpcEndpointsInput{VpcEndpointIds: []string{id}})
	wantCode(t, "describe while hidden", err, "InvalidVpcEndpointId.NotFound")
	tag := []types.Tag{{Key: aws.String("owner"), Value: aws.String("uid-1")}}
	_, err = c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{id}, Tags: tag})
	wantCode(t, "tag while hidden", err, "InvalidVpcEndpointId.NotFound")
	again, err := c.CreateVpcEndpoint(ctx, in)
	if err != nil || aws.ToString(again.VpcEndpoint.VpcEndpointId) != id {
		t.Errorf("a repeated ClientToken answers the hidden endpoint: %+v, %v", again, err)
	}
	e.Clock.Advance(delay + time.Second)
	if _, err := c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{id}, Tags: tag}); err != nil {
		t.Fatal(err)
	}
	out, err := c.DescribeVpcEndpoints(ctx, &ec2.DescribeVpcEndpointsInput{Filters: []types.Filter{filter("tag:owner", "uid-1")}})
	if err != nil || len(out.VpcEndpoints) != 1 || aws.ToString(out.VpcEndpoints[0].VpcEndpointId) != id {
		t.Errorf("the owner tag finds the endpoint once visible: %+v, %v", out, err)
	}
}
