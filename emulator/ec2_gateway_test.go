package emulator_test

import (
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"
)

func TestEC2InternetGatewayAttachment(t *testing.T) {
	_, c := ec2Client(t)
	ctx := context.Background()
	vpc, other := createVpc(t, c, "10.0.0.0/16"), createVpc(t, c, "10.1.0.0/16")
	created, err := c.CreateInternetGateway(ctx, &ec2.CreateInternetGatewayInput{TagSpecifications: nameTag(types.ResourceTypeInternetGateway, "main")})
	if err != nil {
		t.Fatal(err)
	}
	igw := created.InternetGateway.InternetGatewayId
	second, err := c.CreateInternetGateway(ctx, &ec2.CreateInternetGatewayInput{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AttachInternetGateway(ctx, &ec2.AttachInternetGatewayInput{InternetGatewayId: igw, VpcId: aws.String(vpc)}); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		args   func() error
		want   string
	}{
		"VpcHasOne": {reason: "A VPC has one internet gateway.", want: "Resource.AlreadyAssociated", args: func() error {
			_, err := c.AttachInternetGateway(ctx, &ec2.AttachInternetGatewayInput{InternetGatewayId: second.InternetGateway.InternetGatewayId, VpcId: aws.String(vpc)})
			return err
		}},
		"GatewayAttached": {reason: "A gateway serves one VPC.", want: "Resource.AlreadyAssociated", args: func() error {
			_, err := c.AttachInternetGateway(ctx, &ec2.AttachInternetGatewayInput{InternetGatewayId: igw, VpcId: aws.String(other)})
			return err
		}},
		"NoVpc": {reason: "The VPC must exist.", want: "InvalidVpcID.NotFound", args: func() error {
			_, err := c.AttachInternetGateway(ctx, &ec2.AttachInternetGatewayInput{InternetGatewayId: second.InternetGateway.InternetGatewayId, VpcId: aws.String("vpc-0123456789abcdef0")})
			return err
		}},
		"NoGateway": {reason: "The gateway must exist.", want: "InvalidInternetGatewayID.NotFound", args: func() error {
			_, err := c.AttachInternetGateway(ctx, &ec2.AttachInternetGatewayInput{InternetGatewayId: aws.String("igw-0123456789abcdef0"), VpcId: aws.String(vpc)})
			return err
		}},
		"DetachElsewhere": {reason: "Detaching from a VPC the gateway is not attached to.", want: "Gateway.NotAttached", args: func() error {
			_, err := c.DetachInternetGateway(ctx, &ec2.DetachInternetGatewayInput{InternetGatewayId: igw, VpcId: aws.String(other)})
			return err
		}},
		"DeleteAttached": {reason: "An attached gateway cannot be deleted.", want: "DependencyViolation", args: func() error {
			_, err := c.DeleteInternetGateway(ctx, &ec2.DeleteInternetGatewayInput{InternetGatewayId: igw})
			return err
		}},
		"DescribeMissing": {reason: "Describing an unknown gateway.", want: "InvalidInternetGatewayID.NotFound", args: func() error {
			_, err := c.DescribeInternetGateways(ctx, &ec2.DescribeInternetGatewaysInput{InternetGatewayIds: []string{"igw-0123456789abcdef0"}})
			return err
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errorCode(tc.args())); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	out, err := c.DescribeInternetGateways(ctx, &ec2.DescribeInternetGatewaysInput{Filters: []types.Filter{filter("attachment.vpc-id", vpc), filter("tag:Name", "main")}})
	if err != nil || len(out.InternetGateways) != 1 || aws.ToString(out.InternetGateways[0].Attachments[0].VpcId) != vpc || out.InternetGateways[0].Attachments[0].State != "available" {
		t.Fatalf("by attachment.vpc-id: %+v, %v", out, err)
	}
	if _, err := c.DetachInternetGateway(ctx, &ec2.DetachInternetGatewayInput{InternetGatewayId: igw, VpcId: aws.String(vpc)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteInternetGateway(ctx, &ec2.DeleteInternetGatewayInput{InternetGatewayId: igw}); err != nil {
		t.Fatal(err)
	}
}

func TestEC2ElasticIPs(t *testing.T) {
	_, c := ec2Client(t)
	ctx := context.Background()
	out, err := c.AllocateAddress(ctx, &ec2.AllocateAddressInput{Domain: types.DomainTypeVpc, TagSpecifications: nameTag(types.ResourceTypeElasticIp, "nat-a")})
	if err != nil {
		t.Fatal(err)
	}
	ip, err := netip.ParseAddr(aws.ToString(out.PublicIp))
	if err != nil || !netip.MustParsePrefix("203.0.113.0/24").Contains(ip) || out.Domain != types.DomainTypeVpc || len(aws.ToString(out.AllocationId)) != len("eipalloc-0123456789abcdef0") {
		t.Errorf("AllocateAddress = %+v", out)
	}
	plain, err := c.AllocateAddress(ctx, &ec2.AllocateAddressInput{})
	if err != nil || aws.ToString(plain.PublicIp) == aws.ToString(out.PublicIp) {
		t.Fatalf("a second address: %+v, %v", plain, err)
	}
	got, err := c.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{Filters: []types.Filter{filter("tag:Name", "nat-a"), filter("domain", "vpc")}})
	if err != nil || len(got.Addresses) != 1 || aws.ToString(got.Addresses[0].AllocationId) != aws.ToString(out.AllocationId) {
		t.Errorf("DescribeAddresses by tag: %+v, %v", got, err)
	}
	both, err := c.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{AllocationIds: []string{aws.ToString(out.AllocationId), aws.ToString(plain.AllocationId)}})
	if err != nil || len(both.Addresses) != 2 {
		t.Errorf("DescribeAddresses by ids: %+v, %v", both, err)
	}
	if _, err := c.ReleaseAddress(ctx, &ec2.ReleaseAddressInput{AllocationId: plain.AllocationId}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReleaseAddress(ctx, &ec2.ReleaseAddressInput{AllocationId: plain.AllocationId}); errorCode(err) != "InvalidAllocationID.NotFound" {
		t.Errorf("releasing twice gave %v", err)
	}
	if _, err := c.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{AllocationIds: []string{aws.ToString(plain.AllocationId)}}); errorCode(err) != "InvalidAllocationID.NotFound" {
		t.Errorf("describing a released address gave %v", err)
	}
}

// natState returns a NAT gateway as DescribeNatGateways shows it.
func natState(t *testing.T, c *ec2.Client, id *string) types.NatGateway {
	t.Helper()
	out, err := c.DescribeNatGateways(context.Background(), &ec2.DescribeNatGatewaysInput{NatGatewayIds: []string{aws.ToString(id)}})
	if err != nil || len(out.NatGateways) != 1 {
		t.Fatalf("DescribeNatGateways %s: %+v, %v", aws.ToString(id), out, err)
	}
	return out.NatGateways[0]
}

func TestEC2NatGatewayLifecycle(t *testing.T) {
	e, c := ec2Client(t)
	ctx := context.Background()
	vpc := createVpc(t, c, "10.0.0.0/16")
	igw := attachedIgw(t, c, vpc)
	subnet, other := createSubnet(t, c, vpc, "10.0.0.0/24"), createSubnet(t, c, vpc, "10.0.1.0/24")
	eip, err := c.AllocateAddress(ctx, &ec2.AllocateAddressInput{Domain: types.DomainTypeVpc})
	if err != nil {
		t.Fatal(err)
	}
	in := &ec2.CreateNatGatewayInput{SubnetId: aws.String(subnet), AllocationId: eip.AllocationId, ClientToken: aws.String("natgateway-public-a"),
		TagSpecifications: nameTag(types.ResourceTypeNatgateway, "public-a")}
	created, err := c.CreateNatGateway(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	nat := created.NatGateway.NatGatewayId
	if created.NatGateway.State != types.NatGatewayStatePending || created.NatGateway.ConnectivityType != types.ConnectivityTypePublic || aws.ToString(created.ClientToken) != "natgateway-public-a" {
		t.Errorf("a new NAT gateway: %+v", created)
	}
	again, err := c.CreateNatGateway(ctx, in)
	if err != nil || aws.ToString(again.NatGateway.NatGatewayId) != aws.ToString(nat) {
		t.Errorf("the same ClientToken gave %+v, %v; want the same gateway", again, err)
	}
	changed := *in
	changed.SubnetId = aws.String(other)
	if _, err := c.CreateNatGateway(ctx, &changed); errorCode(err) != "IdempotentParameterMismatch" {
		t.Errorf("the same ClientToken with another subnet gave %v", err)
	}

	e.Clock.Advance(2 * time.Second)
	g := natState(t, c, nat)
	addr := g.NatGatewayAddresses[0]
	if g.State != types.NatGatewayStateAvailable || aws.ToString(addr.AllocationId) != aws.ToString(eip.AllocationId) || aws.ToString(addr.PublicIp) != aws.ToString(eip.PublicIp) ||
		aws.ToString(addr.PrivateIp) != "10.0.0.4" || aws.ToString(g.VpcId) != vpc {
		t.Errorf("an available NAT gateway: %+v %+v", g, addr)
	}
	addrs, err := c.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{AllocationIds: []string{aws.ToString(eip.AllocationId)}})
	if err != nil || addrs.Addresses[0].AssociationId == nil || aws.ToString(addrs.Addresses[0].NetworkInterfaceId) != aws.ToString(addr.NetworkInterfaceId) {
		t.Errorf("the NAT gateway's address: %+v, %v", addrs, err)
	}
	byFilter, err := c.DescribeNatGateways(ctx, &ec2.DescribeNatGatewaysInput{Filter: []types.Filter{filter("subnet-id", subnet), filter("state", "available"), filter("tag:Name", "public-a")}})
	if err != nil || len(byFilter.NatGateways) != 1 {
		t.Errorf("DescribeNatGateways by filters: %+v, %v", byFilter, err)
	}
	subnets, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: []string{subnet}})
	if err != nil || aws.ToInt32(subnets.Subnets[0].AvailableIpAddressCount) != 250 {
		t.Errorf("the NAT gateway's interface takes an address of its subnet: %+v, %v", subnets, err)
	}

	cases := map[string]struct {
		reason string
		args   func() error
		want   string
	}{
		"ReleaseInUse": {reason: "A NAT gateway's Elastic IP cannot be released.", want: "InvalidIPAddress.InUse", args: func() error {
			_, err := c.ReleaseAddress(ctx, &ec2.ReleaseAddressInput{AllocationId: eip.AllocationId})
			return err
		}},
		"DeleteSubnet": {reason: "The gateway's interface is in the subnet.", want: "DependencyViolation", args: func() error {
			_, err := c.DeleteSubnet(ctx, &ec2.DeleteSubnetInput{SubnetId: aws.String(subnet)})
			return err
		}},
		"DetachGateway": {reason: "The VPC has a public address mapped through its internet gateway.", want: "DependencyViolation", args: func() error {
			_, err := c.DetachInternetGateway(ctx, &ec2.DetachInternetGatewayInput{InternetGatewayId: aws.String(igw), VpcId: aws.String(vpc)})
			return err
		}},
		"UnknownSubnet": {reason: "The subnet must exist.", want: "InvalidSubnetID.NotFound", args: func() error {
			_, err := c.CreateNatGateway(ctx, &ec2.CreateNatGatewayInput{SubnetId: aws.String("subnet-0123456789abcdef0"), AllocationId: eip.AllocationId})
			return err
		}},
		"UnknownAllocation": {reason: "The Elastic IP must exist.", want: "InvalidAllocationID.NotFound", args: func() error {
			_, err := c.CreateNatGateway(ctx, &ec2.CreateNatGatewayInput{SubnetId: aws.String(other), AllocationId: aws.String("eipalloc-0123456789abcdef0")})
			return err
		}},
		"PublicWithoutAllocation": {reason: "A public NAT gateway needs an Elastic IP.", want: "MissingParameter", args: func() error {
			_, err := c.CreateNatGateway(ctx, &ec2.CreateNatGatewayInput{SubnetId: aws.String(other)})
			return err
		}},
		"DescribeMissing": {reason: "Describing an unknown gateway.", want: "NatGatewayNotFound", args: func() error {
			_, err := c.DescribeNatGateways(ctx, &ec2.DescribeNatGatewaysInput{NatGatewayIds: []string{"nat-0123456789abcdef0"}})
			return err
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errorCode(tc.args())); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}

	// As on AWS, a second gateway with the same Elastic IP is accepted and then fails.
	dup, err := c.CreateNatGateway(ctx, &ec2.CreateNatGatewayInput{SubnetId: aws.String(other), AllocationId: eip.AllocationId})
	if err != nil {
		t.Fatal(err)
	}
	private, err := c.CreateNatGateway(ctx, &ec2.CreateNatGatewayInput{SubnetId: aws.String(other), ConnectivityType: types.ConnectivityTypePrivate})
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	if g := natState(t, c, dup.NatGateway.NatGatewayId); g.State != types.NatGatewayStateFailed || aws.ToString(g.FailureCode) != "Resource.AlreadyAssociated" {
		t.Errorf("a second gateway on the same Elastic IP: %+v", g)
	}
	if g := natState(t, c, private.NatGateway.NatGatewayId); g.State != types.NatGatewayStateAvailable || g.NatGatewayAddresses[0].PublicIp != nil {
		t.Errorf("a private NAT gateway: %+v", g)
	}

	deleted, err := c.DeleteNatGateway(ctx, &ec2.DeleteNatGatewayInput{NatGatewayId: nat})
	if err != nil || aws.ToString(deleted.NatGatewayId) != aws.ToString(nat) {
		t.Fatalf("DeleteNatGateway: %+v, %v", deleted, err)
	}
	if g := natState(t, c, nat); g.State != types.NatGatewayStateDeleting {
		t.Errorf("a gateway being deleted is %s", g.State)
	}
	if _, err := c.ReleaseAddress(ctx, &ec2.ReleaseAddressInput{AllocationId: eip.AllocationId}); errorCode(err) != "InvalidIPAddress.InUse" {
		t.Errorf("releasing the address of a deleting gateway gave %v", err)
	}
	e.Clock.Advance(2 * time.Second)
	if g := natState(t, c, nat); g.State != types.NatGatewayStateDeleted || g.DeleteTime == nil {
		t.Errorf("a deleted gateway stays visible as deleted: %+v", g)
	}
	if _, err := c.ReleaseAddress(ctx, &ec2.ReleaseAddressInput{AllocationId: eip.AllocationId}); err != nil {
		t.Errorf("the address of a deleted gateway is free: %v", err)
	}
	if _, err := c.DeleteSubnet(ctx, &ec2.DeleteSubnetInput{SubnetId: aws.String(subnet)}); err != nil {
		t.Errorf("the subnet of a deleted gateway can go: %v", err)
	}
	e.Clock.Advance(61 * time.Minute)
	if _, err := c.DescribeNatGateways(ctx, &ec2.DescribeNatGatewaysInput{NatGatewayIds: []string{aws.ToString(nat)}}); errorCode(err) != "NatGatewayNotFound" {
		t.Errorf("an hour after deletion the gateway gave %v, want NatGatewayNotFound", err)
	}

	// A public NAT gateway in a VPC without an internet gateway fails, as on AWS.
	bare := createVpc(t, c, "10.9.0.0/16")
	eip2, err := c.AllocateAddress(ctx, &ec2.AllocateAddressInput{})
	if err != nil {
		t.Fatal(err)
	}
	lonely, err := c.CreateNatGateway(ctx, &ec2.CreateNatGatewayInput{SubnetId: aws.String(createSubnet(t, c, bare, "10.9.0.0/24")), AllocationId: eip2.AllocationId})
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	if g := natState(t, c, lonely.NatGateway.NatGatewayId); g.State != types.NatGatewayStateFailed || aws.ToString(g.FailureCode) != "Gateway.NotAttached" {
		t.Errorf("a NAT gateway without an internet gateway: %+v", g)
	}
}
