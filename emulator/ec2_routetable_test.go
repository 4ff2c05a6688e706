package emulator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"
)

// mainTable returns a VPC's main route table as DescribeRouteTables finds it.
func mainTable(t *testing.T, c *ec2.Client, vpc string) types.RouteTable {
	t.Helper()
	out, err := c.DescribeRouteTables(context.Background(), &ec2.DescribeRouteTablesInput{Filters: []types.Filter{filter("vpc-id", vpc), filter("association.main", "true")}})
	if err != nil || len(out.RouteTables) != 1 {
		t.Fatalf("the main route table of %s: %+v, %v", vpc, out, err)
	}
	return out.RouteTables[0]
}

// routeTo returns the route of a table to a destination.
func routeTo(rt types.RouteTable, dest string) *types.Route {
	for _, r := range rt.Routes {
		if aws.ToString(r.DestinationCidrBlock) == dest || aws.ToString(r.DestinationIpv6CidrBlock) == dest {
			return &r
		}
	}
	return nil
}

func TestEC2RouteTables(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc, other := createVpc(t, c, "10.0.0.0/16"), createVpc(t, c, "10.1.0.0/16")
	igw := attachedIgw(t, c, vpc)
	public, private := createSubnet(t, c, vpc, "10.0.0.0/24"), createSubnet(t, c, vpc, "10.0.1.0/24")
	eip, err := c.AllocateAddress(ctx, &ec2.AllocateAddressInput{})
	if err != nil {
		t.Fatal(err)
	}
	nat, err := c.CreateNatGateway(ctx, &ec2.CreateNatGatewayInput{SubnetId: aws.String(public), AllocationId: eip.AllocationId})
	if err != nil {
		t.Fatal(err)
	}
	natID := nat.NatGateway.NatGatewayId
	e.Clock.Advance(2 * time.Second)

	created, err := c.CreateRouteTable(ctx, &ec2.CreateRouteTableInput{VpcId: aws.String(vpc), TagSpecifications: nameTag(types.ResourceTypeRouteTable, "private")})
	if err != nil {
		t.Fatal(err)
	}
	rtb := created.RouteTable.RouteTableId
	local := types.Route{DestinationCidrBlock: aws.String("10.0.0.0/16"), GatewayId: aws.String("local"), Origin: types.RouteOriginCreateRouteTable, State: types.RouteStateActive}
	if diff := cmp.Diff([]types.Route{local}, created.RouteTable.Routes, cmp.AllowUnexported(types.Route{})); diff != "" {
		t.Errorf("a new route table has the local route: -want +got:\n%s", diff)
	}
	if _, err := c.CreateRoute(ctx, &ec2.CreateRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("0.0.0.0/0"), GatewayId: aws.String(igw)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateRoute(ctx, &ec2.CreateRouteInput{RouteTableId: rtb, DestinationIpv6CidrBlock: aws.String("::/0"), GatewayId: aws.String(igw)}); err != nil {
		t.Fatal(err)
	}
	pcx, err := c.CreateVpcPeeringConnection(ctx, &ec2.CreateVpcPeeringConnectionInput{VpcId: aws.String(vpc), PeerVpcId: aws.String(other)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateRoute(ctx, &ec2.CreateRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("172.16.0.0/12"), VpcPeeringConnectionId: pcx.VpcPeeringConnection.VpcPeeringConnectionId}); err != nil {
		t.Errorf("a route through a peering connection of the table's VPC: %v", err)
	}
	otherTable := mainTable(t, c, other).RouteTableId
	cases := map[string]struct {
		reason string
		args   ec2.CreateRouteInput
		want   string
	}{
		"Duplicate":        {reason: "One route per destination.", args: ec2.CreateRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("0.0.0.0/0"), NatGatewayId: natID}, want: "RouteAlreadyExists"},
		"LocalRoute":       {reason: "The local route is there already.", args: ec2.CreateRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("10.0.0.0/16"), GatewayId: aws.String(igw)}, want: "RouteAlreadyExists"},
		"InsideVpc":        {reason: "Routes more specific than the VPC's block may only target an interface.", args: ec2.CreateRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("10.0.5.0/24"), GatewayId: aws.String(igw)}, want: "InvalidParameterValue"},
		"UnknownGateway":   {reason: "The internet gateway must exist.", args: ec2.CreateRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("1.0.0.0/8"), GatewayId: aws.String("igw-0123456789abcdef0")}, want: "InvalidGatewayID.NotFound"},
		"UnknownNat":       {reason: "The NAT gateway must exist.", args: ec2.CreateRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("1.0.0.0/8"), NatGatewayId: aws.String("nat-0123456789abcdef0")}, want: "InvalidNatGatewayID.NotFound"},
		"GatewayElsewhere": {reason: "The gateway must serve the table's VPC.", args: ec2.CreateRouteInput{RouteTableId: otherTable, DestinationCidrBlock: aws.String("0.0.0.0/0"), GatewayId: aws.String(igw)}, want: "InvalidParameterValue"},
		"TwoTargets":       {reason: "A route has one target.", args: ec2.CreateRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("1.0.0.0/8"), GatewayId: aws.String(igw), NatGatewayId: natID}, want: "InvalidParameterCombination"},
		"BadDestination":   {reason: "Destinations are CIDR blocks.", args: ec2.CreateRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("1.0.0.0/33"), GatewayId: aws.String(igw)}, want: "InvalidParameterValue"},
		"UnknownTable":     {reason: "The route table must exist.", args: ec2.CreateRouteInput{RouteTableId: aws.String("rtb-0123456789abcdef0"), DestinationCidrBlock: aws.String("1.0.0.0/8"), GatewayId: aws.String(igw)}, want: "InvalidRouteTableID.NotFound"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.CreateRoute(ctx, &tc.args)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}

	if _, err := c.ReplaceRoute(ctx, &ec2.ReplaceRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("0.0.0.0/0"), NatGatewayId: natID}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReplaceRoute(ctx, &ec2.ReplaceRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("10.0.0.0/16"), GatewayId: aws.String(igw)}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("replacing the local route gave %v", err)
	}
	if _, err := c.ReplaceRoute(ctx, &ec2.ReplaceRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("8.8.8.0/24"), GatewayId: aws.String(igw)}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("replacing a route that is not there gave %v", err)
	}
	if _, err := c.DeleteRoute(ctx, &ec2.DeleteRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("10.0.0.0/16")}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("deleting the local route gave %v", err)
	}
	if _, err := c.DeleteRoute(ctx, &ec2.DeleteRouteInput{RouteTableId: rtb, DestinationCidrBlock: aws.String("8.8.8.0/24")}); errorCode(err) != "InvalidRoute.NotFound" {
		t.Errorf("deleting a route that is not there gave %v", err)
	}
	if _, err := c.DeleteRoute(ctx, &ec2.DeleteRouteInput{RouteTableId: rtb, DestinationIpv6CidrBlock: aws.String("::/0")}); err != nil {
		t.Fatal(err)
	}

	assoc, err := c.AssociateRouteTable(ctx, &ec2.AssociateRouteTableInput{RouteTableId: rtb, SubnetId: aws.String(private)})
	if err != nil || !strings.HasPrefix(aws.ToString(assoc.AssociationId), "rtbassoc-") || assoc.AssociationState.State != types.RouteTableAssociationStateCodeAssociated {
		t.Fatalf("AssociateRouteTable: %+v, %v", assoc, err)
	}
	if _, err := c.AssociateRouteTable(ctx, &ec2.AssociateRouteTableInput{RouteTableId: mainTable(t, c, vpc).RouteTableId, SubnetId: aws.String(private)}); errorCode(err) != "Resource.AlreadyAssociated" {
		t.Errorf("a second association of the subnet gave %v", err)
	}
	if _, err := c.AssociateRouteTable(ctx, &ec2.AssociateRouteTableInput{RouteTableId: otherTable, SubnetId: aws.String(public)}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("associating a subnet with another VPC's table gave %v", err)
	}
	got, err := c.DescribeRouteTables(ctx, &ec2.DescribeRouteTablesInput{Filters: []types.Filter{filter("association.subnet-id", private), filter("tag:Name", "private")}})
	if err != nil || len(got.RouteTables) != 1 {
		t.Fatalf("by association.subnet-id: %+v, %v", got, err)
	}
	if r := routeTo(got.RouteTables[0], "0.0.0.0/0"); r == nil || aws.ToString(r.NatGatewayId) != aws.ToString(natID) || r.State != types.RouteStateActive {
		t.Errorf("the default route after ReplaceRoute: %+v", r)
	}
	if _, err := c.DeleteRouteTable(ctx, &ec2.DeleteRouteTableInput{RouteTableId: rtb}); errorCode(err) != "DependencyViolation" {
		t.Errorf("deleting an associated table gave %v", err)
	}

	// The NAT gateway goes: its routes become blackholes.
	if _, err := c.DeleteNatGateway(ctx, &ec2.DeleteNatGatewayInput{NatGatewayId: natID}); err != nil {
		t.Fatal(err)
	}
	got, err = c.DescribeRouteTables(ctx, &ec2.DescribeRouteTablesInput{RouteTableIds: []string{aws.ToString(rtb)}})
	if err != nil {
		t.Fatal(err)
	}
	if r := routeTo(got.RouteTables[0], "0.0.0.0/0"); r == nil || r.State != types.RouteStateBlackhole {
		t.Errorf("a route to a deleted NAT gateway: %+v", r)
	}

	// The subnet moves to the main table by replacing its association; then the table becomes main.
	main := mainTable(t, c, vpc)
	moved, err := c.ReplaceRouteTableAssociation(ctx, &ec2.ReplaceRouteTableAssociationInput{AssociationId: assoc.AssociationId, RouteTableId: main.RouteTableId})
	if err != nil {
		t.Fatal(err)
	}
	var mainAssoc *string
	for _, a := range main.Associations {
		if aws.ToBool(a.Main) {
			mainAssoc = a.RouteTableAssociationId
		}
	}
	if _, err := c.ReplaceRouteTableAssociation(ctx, &ec2.ReplaceRouteTableAssociationInput{AssociationId: mainAssoc, RouteTableId: rtb}); err != nil {
		t.Fatal(err)
	}
	if id := mainTable(t, c, vpc).RouteTableId; aws.ToString(id) != aws.ToString(rtb) {
		t.Errorf("the main table is %s, want %s", aws.ToString(id), aws.ToString(rtb))
	}
	if _, err := c.DeleteRouteTable(ctx, &ec2.DeleteRouteTableInput{RouteTableId: rtb}); errorCode(err) != "DependencyViolation" {
		t.Errorf("deleting the main table gave %v", err)
	}
	if _, err := c.DisassociateRouteTable(ctx, &ec2.DisassociateRouteTableInput{AssociationId: moved.NewAssociationId}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DisassociateRouteTable(ctx, &ec2.DisassociateRouteTableInput{AssociationId: moved.NewAssociationId}); errorCode(err) != "InvalidAssociationID.NotFound" {
		t.Errorf("disassociating twice gave %v", err)
	}
	if _, err := c.DeleteRouteTable(ctx, &ec2.DeleteRouteTableInput{RouteTableId: main.RouteTableId}); err != nil {
		t.Errorf("the former main table, unassociated, can go: %v", err)
	}
}

// TestEC2VpcDefaultsAndDependencies follows AWS's DependencyViolation chain: a VPC goes last,
// after its subnets, internet gateway, own security groups and route tables, and takes its
// default security group and main route table with it.
func TestEC2VpcDefaultsAndDependencies(t *testing.T) {
	_, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	groups, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{Filters: []types.Filter{filter("vpc-id", vpc), filter("group-name", "default")}})
	if err != nil || len(groups.SecurityGroups) != 1 {
		t.Fatalf("the default security group: %+v, %v", groups, err)
	}
	def := groups.SecurityGroups[0]
	if len(def.IpPermissions) != 1 || aws.ToString(def.IpPermissions[0].UserIdGroupPairs[0].GroupId) != aws.ToString(def.GroupId) || len(def.IpPermissionsEgress) != 1 {
		t.Errorf("the default group allows traffic from itself in and everything out: %+v", def)
	}
	main := mainTable(t, c, vpc)
	if routeTo(main, "10.0.0.0/16") == nil {
		t.Errorf("the main route table has the local route: %+v", main.Routes)
	}

	subnet := createSubnet(t, c, vpc, "10.0.0.0/24")
	igw := attachedIgw(t, c, vpc)
	web, app := createGroup(t, c, vpc, "web"), createGroup(t, c, vpc, "app")
	fromWeb := tcp(8080)
	fromWeb.UserIdGroupPairs = []types.UserIdGroupPair{{GroupId: aws.String(web)}}
	if _, err := c.AuthorizeSecurityGroupIngress(ctx, &ec2.AuthorizeSecurityGroupIngressInput{GroupId: aws.String(app), IpPermissions: []types.IpPermission{fromWeb}}); err != nil {
		t.Fatal(err)
	}
	rtb, err := c.CreateRouteTable(ctx, &ec2.CreateRouteTableInput{VpcId: aws.String(vpc)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AssociateRouteTable(ctx, &ec2.AssociateRouteTableInput{RouteTableId: rtb.RouteTable.RouteTableId, SubnetId: aws.String(subnet)}); err != nil {
		t.Fatal(err)
	}

	steps := []struct {
		reason string
		remove func() error
	}{
		{"the subnet", func() error {
			_, err := c.DeleteSubnet(ctx, &ec2.DeleteSubnetInput{SubnetId: aws.String(subnet)})
			return err
		}},
		{"the internet gateway's attachment", func() error {
			_, err := c.DetachInternetGateway(ctx, &ec2.DetachInternetGatewayInput{InternetGatewayId: aws.String(igw), VpcId: aws.String(vpc)})
			return err
		}},
		{"the security group another refers to, after the referring one", func() error {
			if _, err := c.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: aws.String(web)}); errorCode(err) != "DependencyViolation" {
				t.Errorf("deleting a referenced group gave %v", err)
			}
			if _, err := c.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: aws.String(app)}); err != nil {
				return err
			}
			_, err := c.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: aws.String(web)})
			return err
		}},
		{"the route table", func() error {
			_, err := c.DeleteRouteTable(ctx, &ec2.DeleteRouteTableInput{RouteTableId: rtb.RouteTable.RouteTableId})
			return err
		}},
	}
	for _, step := range steps {
		if _, err := c.DeleteVpc(ctx, &ec2.DeleteVpcInput{VpcId: aws.String(vpc)}); errorCode(err) != "DependencyViolation" {
			t.Fatalf("deleting the VPC before %s gave %v, want DependencyViolation", step.reason, err)
		}
		if err := step.remove(); err != nil {
			t.Fatalf("removing %s: %v", step.reason, err)
		}
	}
	if _, err := c.DeleteSecurityGroup(ctx, &ec2.DeleteSecurityGroupInput{GroupId: def.GroupId}); errorCode(err) != "CannotDelete" {
		t.Errorf("deleting the default group gave %v", err)
	}
	if _, err := c.DeleteRouteTable(ctx, &ec2.DeleteRouteTableInput{RouteTableId: main.RouteTableId}); errorCode(err) != "DependencyViolation" {
		t.Errorf("deleting the main route table gave %v", err)
	}
	if _, err := c.DeleteVpc(ctx, &ec2.DeleteVpcInput{VpcId: aws.String(vpc)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupIds: []string{aws.ToString(def.GroupId)}}); errorCode(err) != "InvalidGroup.NotFound" {
		t.Errorf("the default group outlived its VPC: %v", err)
	}
	if _, err := c.DescribeRouteTables(ctx, &ec2.DescribeRouteTablesInput{RouteTableIds: []string{aws.ToString(main.RouteTableId)}}); errorCode(err) != "InvalidRouteTableID.NotFound" {
		t.Errorf("the main route table outlived its VPC: %v", err)
	}
}

// TestEC2TagsOnEveryResource puts tags on each kind of resource, and refuses ids that do not
// exist or are of no known kind.
func TestEC2TagsOnEveryResource(t *testing.T) {
	_, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	eip, err := c.AllocateAddress(ctx, &ec2.AllocateAddressInput{})
	if err != nil {
		t.Fatal(err)
	}
	subnet := createSubnet(t, c, vpc, "10.0.0.0/24")
	nat, err := c.CreateNatGateway(ctx, &ec2.CreateNatGatewayInput{SubnetId: aws.String(subnet), ConnectivityType: types.ConnectivityTypePrivate})
	if err != nil {
		t.Fatal(err)
	}
	group := createGroup(t, c, vpc, "web")
	rules, err := c.DescribeSecurityGroupRules(ctx, &ec2.DescribeSecurityGroupRulesInput{Filters: []types.Filter{filter("group-id", group)}})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{"vpc": vpc, "subnet": subnet, "igw": attachedIgw(t, c, vpc), "eip": aws.ToString(eip.AllocationId),
		"nat": aws.ToString(nat.NatGateway.NatGatewayId), "sg": group, "sgr": aws.ToString(rules.SecurityGroupRules[0].SecurityGroupRuleId),
		"rtb": aws.ToString(mainTable(t, c, vpc).RouteTableId)}
	team := []types.Tag{{Key: aws.String("team"), Value: aws.String("net")}}
	for kind, id := range ids {
		if _, err := c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{id}, Tags: team}); err != nil {
			t.Errorf("tagging a %s: %v", kind, err)
		}
	}
	tagged, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{Filters: []types.Filter{filter("tag:team", "net")}})
	if err != nil || len(tagged.Subnets) != 1 {
		t.Errorf("the tagged subnet: %+v, %v", tagged, err)
	}
	cases := map[string]struct {
		reason string
		args   string
		want   string
	}{
		"MissingSubnet": {reason: "The resource must exist.", args: "subnet-0123456789abcdef0", want: "InvalidSubnetID.NotFound"},
		"MissingGroup":  {reason: "The resource must exist.", args: "sg-0123456789abcdef0", want: "InvalidGroup.NotFound"},
		"MissingTable":  {reason: "The resource must exist.", args: "rtb-0123456789abcdef0", want: "InvalidRouteTableID.NotFound"},
		"MissingNat":    {reason: "The resource must exist.", args: "nat-0123456789abcdef0", want: "NatGatewayNotFound"},
		"MalformedIgw":  {reason: "An id of a known kind must be well formed.", args: "igw-xyz", want: "InvalidInternetGatewayID.Malformed"},
		"UnknownKind":   {reason: "Ids of no known kind.", args: "foo-0123456789abcdef0", want: "InvalidID"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{tc.args}, Tags: team})
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
