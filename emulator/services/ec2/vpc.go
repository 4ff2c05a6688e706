package ec2

import (
	"crypto/rand"
	"fmt"
	"net/netip"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// vpc is one VPC.
type vpc struct {
	core.Readable   // hidden from reads for a while after creation, under the ReadAfterCreateDelay fault
	id, assoc, dhcp string
	cidr            netip.Prefix
	ipv6            netip.Prefix // Amazon-provided /56, when asked for
	ipv6Assoc       string
	tenancy         types.Tenancy
	available       time.Time // when the VPC leaves pending
	dnsSupport      bool
	dnsHostnames    bool
	isDefault       bool // the region's default VPC
}

func (v *vpc) describe(owner string, now time.Time, tags []types.Tag) types.Vpc {
	state := types.VpcStateAvailable
	if now.Before(v.available) {
		state = types.VpcStatePending
	}
	d := types.Vpc{
		VpcId: aws.String(v.id), CidrBlock: aws.String(v.cidr.String()), State: state, OwnerId: aws.String(owner),
		DhcpOptionsId: aws.String(v.dhcp), InstanceTenancy: v.tenancy, IsDefault: aws.Bool(v.isDefault),
		CidrBlockAssociationSet: []types.VpcCidrBlockAssociation{{AssociationId: aws.String(v.assoc), CidrBlock: aws.String(v.cidr.String()),
			CidrBlockState: &types.VpcCidrBlockState{State: types.VpcCidrBlockStateCodeAssociated}}},
		Tags: tags,
	}
	if v.ipv6.IsValid() {
		d.Ipv6CidrBlockAssociationSet = []types.VpcIpv6CidrBlockAssociation{{AssociationId: aws.String(v.ipv6Assoc),
			Ipv6CidrBlock: aws.String(v.ipv6.String()), Ipv6Pool: aws.String("Amazon"), NetworkBorderGroup: aws.String(""),
			Ipv6CidrBlockState: &types.VpcCidrBlockState{State: types.VpcCidrBlockStateCodeAssociated}}}
	}
	return d
}

// checkVpcCIDR validates an IPv4 VPC CIDR block as AWS does: a network address with a prefix
// from /16 to /28.
func checkVpcCIDR(cidr string) (netip.Prefix, error) {
	p, err := parseCIDR(cidr, "cidrBlock", false)
	if err != nil {
		return p, err
	}
	if p.Bits() < 16 || p.Bits() > 28 {
		return p, core.Errorf("InvalidVpc.Range", "The CIDR '%s' is invalid.", cidr)
	}
	return p, nil
}

// amazonIPv6 returns an Amazon-provided /56 IPv6 block.
func amazonIPv6() netip.Prefix {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return netip.MustParsePrefix(fmt.Sprintf("2600:1f18:%02x%02x:%02x00::/56", b[0], b[1], b[2]))
}

func (b *Backend) createVpc(call *core.Call, in *ec2.CreateVpcInput) (*ec2.CreateVpcOutput, error) {
	cidr := aws.ToString(in.CidrBlock)
	if cidr == "" {
		return nil, core.Errorf("MissingParameter", "Either 'cidrBlock' or 'ipv4IpamPoolId' should be provided.")
	}
	p, err := checkVpcCIDR(cidr)
	if err != nil {
		return nil, err
	}
	tenancy, err := enumParam(in.InstanceTenancy, "instanceTenancy", types.TenancyDefault, types.TenancyDedicated)
	if err != nil {
		return nil, err
	}
	if aws.ToBool(in.DryRun) {
		return nil, &core.APIError{Code: "DryRunOperation", Status: 412, Message: "Request would have succeeded, but DryRun flag is set."}
	}
	tags, err := specTags(in.TagSpecifications, types.ResourceTypeVpc)
	if err != nil {
		return nil, err
	}
	v := &vpc{Readable: core.ReadableAfter(call), id: newID("vpc"), cidr: p, assoc: newID("vpc-cidr-assoc"), dhcp: newID("dopt"), tenancy: tenancy,
		available: call.Now.Add(call.Transition), dnsSupport: true}
	if aws.ToBool(in.AmazonProvidedIpv6CidrBlock) {
		v.ipv6, v.ipv6Assoc = amazonIPv6(), newID("vpc-cidr-assoc")
	}
	return core.Locked(b.state, call, func(r *region) (*ec2.CreateVpcOutput, error) {
		if err := r.tags.Merge(tags, v.id); err != nil {
			return nil, err
		}
		r.vpcs[v.id] = v
		r.addDefaultGroup(v.id)
		r.addMainTable(v)
		d := v.describe(call.Account, call.Now, r.tagList(v.id))
		return &ec2.CreateVpcOutput{Vpc: &d}, nil
	})
}

func (b *Backend) describeVpcs(call *core.Call, in *ec2.DescribeVpcsInput) (*ec2.DescribeVpcsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DescribeVpcsOutput, error) {
		vpcs, next, err := describe(call, r.vpcs, vpcKind, in.VpcIds, in.Filters, paging{in.MaxResults, in.NextToken, 5, 1000}, func(id string, v *vpc) view[types.Vpc] {
			d := v.describe(call.Account, call.Now, r.tagList(id))
			return view[types.Vpc]{d, d.Tags, fields{
				"vpc-id": {id}, "cidr": {v.cidr.String()}, "cidr-block-association.cidr-block": {v.cidr.String()},
				"ipv6-cidr-block-association.ipv6-cidr-block": text(ipv6Text(v.ipv6)),
				"state": {string(d.State)}, "is-default": boolText(v.isDefault), "owner-id": {call.Account}, "dhcp-options-id": {v.dhcp},
			}}
		})
		return &ec2.DescribeVpcsOutput{Vpcs: vpcs, NextToken: next}, err
	})
}

// ipv6Text is an optional IPv6 block as text.
func ipv6Text(p netip.Prefix) *string {
	if !p.IsValid() {
		return nil
	}
	return aws.String(p.String())
}

// deleteVpc refuses, as AWS does, while the VPC has subnets, an internet gateway, security
// groups other than its default one or route tables other than its main one; those two go
// with it, and so do its VPC peering connections, as on AWS.
func (b *Backend) deleteVpc(call *core.Call, in *ec2.DeleteVpcInput) (*ec2.DeleteVpcOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DeleteVpcOutput, error) {
		id := aws.ToString(in.VpcId)
		if _, err := get(call, r.vpcs, vpcKind, id); err != nil {
			return nil, err
		}
		for _, s := range r.subnets {
			if s.vpc == id {
				return nil, dependencyViolation("vpc", id)
			}
		}
		for _, g := range r.igws {
			if g.vpc == id {
				return nil, dependencyViolation("vpc", id)
			}
		}
		for _, g := range r.groups {
			if g.vpc == id && !g.isDefault {
				return nil, dependencyViolation("vpc", id)
			}
		}
		for _, t := range r.tables {
			if t.vpc == id && t.mainAssoc == "" {
				return nil, dependencyViolation("vpc", id)
			}
		}
		r.endPeeringsOf(call, id)
		for gid, g := range r.groups {
			if g.vpc == id {
				r.dropGroup(gid)
			}
		}
		forget(r, r.tables, func(t *routeTable) bool { return t.vpc == id })
		delete(r.vpcs, id)
		r.tags.Delete(id)
		return &ec2.DeleteVpcOutput{}, nil
	})
}

func (b *Backend) modifyVpcAttribute(call *core.Call, in *ec2.ModifyVpcAttributeInput) (*ec2.ModifyVpcAttributeOutput, error) {
	return withGot(b, call, func(r *region) map[string]*vpc { return r.vpcs }, vpcKind, in.VpcId, func(r *region, v *vpc) (*ec2.ModifyVpcAttributeOutput, error) {
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
	})
}

func (b *Backend) describeVpcAttribute(call *core.Call, in *ec2.DescribeVpcAttributeInput) (*ec2.DescribeVpcAttributeOutput, error) {
	return withGot(b, call, func(r *region) map[string]*vpc { return r.vpcs }, vpcKind, in.VpcId, func(r *region, v *vpc) (*ec2.DescribeVpcAttributeOutput, error) {
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
	})
}
