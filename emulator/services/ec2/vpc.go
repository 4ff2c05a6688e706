package ec2

import (
	"net"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// vpc is one VPC.
type vpc struct {
	id, cidr, assoc, dhcp string
	tenancy               types.Tenancy
	available             time.Time // when the VPC leaves pending
	dnsSupport            bool
	dnsHostnames          bool
}

func (v *vpc) describe(owner string, now time.Time, tags map[string]string) types.Vpc {
	state := types.VpcStateAvailable
	if now.Before(v.available) {
		state = types.VpcStatePending
	}
	return types.Vpc{
		VpcId: aws.String(v.id), CidrBlock: aws.String(v.cidr), State: state, OwnerId: aws.String(owner),
		DhcpOptionsId: aws.String(v.dhcp), InstanceTenancy: v.tenancy, IsDefault: aws.Bool(false),
		CidrBlockAssociationSet: []types.VpcCidrBlockAssociation{{AssociationId: aws.String(v.assoc), CidrBlock: aws.String(v.cidr),
			CidrBlockState: &types.VpcCidrBlockState{State: types.VpcCidrBlockStateCodeAssociated}}},
		Tags: tagList(tags),
	}
}

// checkCIDR validates an IPv4 VPC CIDR block as AWS does: a network address with a prefix
// from /16 to /28.
func checkCIDR(cidr string) error {
	ip, n, err := net.ParseCIDR(cidr)
	if err != nil || ip.To4() == nil || !ip.Equal(n.IP) {
		return core.Errorf("InvalidParameterValue", "Value (%s) for parameter cidrBlock is invalid. This is not a valid CIDR block.", cidr)
	}
	if ones, _ := n.Mask.Size(); ones < 16 || ones > 28 {
		return core.Errorf("InvalidVpc.Range", "The CIDR '%s' is invalid.", cidr)
	}
	return nil
}

func vpcNotFound(id string) *core.APIError {
	return core.Errorf("InvalidVpcID.NotFound", "The vpc ID '%s' does not exist", id)
}

// vpcsOf returns the VPCs of the caller's account and region. The caller holds b.mu.
func (b *Backend) vpcsOf(call *core.Call) map[string]*vpc {
	r := b.vpcs[call.Scope()]
	if r == nil {
		r = map[string]*vpc{}
		b.vpcs[call.Scope()] = r
	}
	return r
}

func (b *Backend) createVpc(call *core.Call, in *ec2.CreateVpcInput) (*ec2.CreateVpcOutput, error) {
	cidr := aws.ToString(in.CidrBlock)
	if cidr == "" {
		return nil, core.Errorf("MissingParameter", "Either 'cidrBlock' or 'ipv4IpamPoolId' should be provided.")
	}
	if err := checkCIDR(cidr); err != nil {
		return nil, err
	}
	tenancy := in.InstanceTenancy
	switch tenancy {
	case "":
		tenancy = types.TenancyDefault
	case types.TenancyDefault, types.TenancyDedicated:
	default:
		return nil, core.Errorf("InvalidParameterValue", "Value (%s) for parameter instanceTenancy is invalid.", tenancy)
	}
	if aws.ToBool(in.DryRun) {
		return nil, &core.APIError{Code: "DryRunOperation", Status: 412, Message: "Request would have succeeded, but DryRun flag is set."}
	}
	tags, err := specTags(in.TagSpecifications, types.ResourceTypeVpc)
	if err != nil {
		return nil, err
	}
	v := &vpc{id: newID("vpc"), cidr: cidr, assoc: newID("vpc-cidr-assoc"), dhcp: newID("dopt"), tenancy: tenancy,
		available: call.Now.Add(call.Transition), dnsSupport: true}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.vpcsOf(call)[v.id] = v
	for k, val := range tags {
		b.tagsOf(call.Scope(), v.id)[k] = val
	}
	d := v.describe(call.Account, call.Now, tags)
	return &ec2.CreateVpcOutput{Vpc: &d}, nil
}

func (b *Backend) describeVpcs(call *core.Call, in *ec2.DescribeVpcsInput) (*ec2.DescribeVpcsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	vpcs := b.vpcsOf(call)
	for _, id := range in.VpcIds {
		if _, ok := vpcs[id]; !ok {
			return nil, vpcNotFound(id)
		}
	}
	want := map[string]bool{}
	for _, id := range in.VpcIds {
		want[id] = true
	}
	out := &ec2.DescribeVpcsOutput{Vpcs: []types.Vpc{}}
	for _, id := range core.SortedKeys(vpcs) {
		if len(want) > 0 && !want[id] {
			continue
		}
		d := vpcs[id].describe(call.Account, call.Now, b.tagsOf(call.Scope(), id))
		ok, err := matchFilters(in.Filters, d.Tags, map[string]string{
			"vpc-id": id, "cidr": aws.ToString(d.CidrBlock), "cidr-block-association.cidr-block": aws.ToString(d.CidrBlock),
			"state": string(d.State), "is-default": "false", "owner-id": call.Account, "dhcp-options-id": aws.ToString(d.DhcpOptionsId),
		})
		if err != nil {
			return nil, err
		}
		if ok {
			out.Vpcs = append(out.Vpcs, d)
		}
	}
	return out, nil
}

func (b *Backend) deleteVpc(call *core.Call, in *ec2.DeleteVpcInput) (*ec2.DeleteVpcOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := aws.ToString(in.VpcId)
	if _, ok := b.vpcsOf(call)[id]; !ok {
		return nil, vpcNotFound(id)
	}
	delete(b.vpcsOf(call), id)
	delete(b.tags[call.Scope()], id)
	return &ec2.DeleteVpcOutput{}, nil
}

func (b *Backend) modifyVpcAttribute(call *core.Call, in *ec2.ModifyVpcAttributeInput) (*ec2.ModifyVpcAttributeOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.vpcsOf(call)[aws.ToString(in.VpcId)]
	if !ok {
		return nil, vpcNotFound(aws.ToString(in.VpcId))
	}
	set := 0
	if in.EnableDnsSupport != nil {
		v.dnsSupport, set = aws.ToBool(in.EnableDnsSupport.Value), set+1
	}
	if in.EnableDnsHostnames != nil {
		v.dnsHostnames, set = aws.ToBool(in.EnableDnsHostnames.Value), set+1
	}
	if set != 1 {
		return nil, core.Errorf("InvalidParameterCombination", "Only one attribute can be modified at a time")
	}
	return &ec2.ModifyVpcAttributeOutput{}, nil
}

func (b *Backend) describeVpcAttribute(call *core.Call, in *ec2.DescribeVpcAttributeInput) (*ec2.DescribeVpcAttributeOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.vpcsOf(call)[aws.ToString(in.VpcId)]
	if !ok {
		return nil, vpcNotFound(aws.ToString(in.VpcId))
	}
	out := &ec2.DescribeVpcAttributeOutput{VpcId: in.VpcId}
	switch in.Attribute {
	case types.VpcAttributeNameEnableDnsSupport:
		out.EnableDnsSupport = &types.AttributeBooleanValue{Value: aws.Bool(v.dnsSupport)}
	case types.VpcAttributeNameEnableDnsHostnames:
		out.EnableDnsHostnames = &types.AttributeBooleanValue{Value: aws.Bool(v.dnsHostnames)}
	default:
		return nil, core.Errorf("InvalidParameterValue", "Value (%s) for parameter attribute is invalid.", in.Attribute)
	}
	return out, nil
}
