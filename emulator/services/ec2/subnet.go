package ec2

import (
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// subnet is one subnet of a VPC.
type subnet struct {
	core.Readable // hidden from reads for a while after creation, under the ReadAfterCreateDelay fault
	id, vpc       string
	cidr          netip.Prefix
	ipv6          netip.Prefix
	ipv6Assoc     string
	zone          zone
	available     time.Time // when the subnet leaves pending
	mapPublicIP   bool
	assignIPv6    bool
	defaultForAz  bool // a default subnet of the default VPC
}

// reservedAddresses are the addresses AWS keeps in every subnet: the first four and the last.
const reservedAddresses = 5

func (r *region) describeSubnet(s *subnet, call *core.Call) types.Subnet {
	state := types.SubnetStateAvailable
	if call.Now.Before(s.available) {
		state = types.SubnetStatePending
	}
	free := 1<<(32-s.cidr.Bits()) - reservedAddresses - len(r.heldAddresses(s.id, call.Now))
	d := types.Subnet{
		SubnetId: aws.String(s.id), VpcId: aws.String(s.vpc), CidrBlock: aws.String(s.cidr.String()), State: state,
		AvailabilityZone: aws.String(s.zone.name), AvailabilityZoneId: aws.String(s.zone.id), AvailableIpAddressCount: aws.Int32(int32(free)),
		DefaultForAz: aws.Bool(s.defaultForAz), MapPublicIpOnLaunch: aws.Bool(s.mapPublicIP), AssignIpv6AddressOnCreation: aws.Bool(s.assignIPv6),
		MapCustomerOwnedIpOnLaunch: aws.Bool(false), EnableDns64: aws.Bool(false), Ipv6Native: aws.Bool(false),
		OwnerId: aws.String(call.Account), SubnetArn: aws.String(call.Scope().ARN("ec2", "subnet/"+s.id)),
		Ipv6CidrBlockAssociationSet: []types.SubnetIpv6CidrBlockAssociation{}, Tags: r.tagList(s.id),
	}
	if s.ipv6.IsValid() {
		d.Ipv6CidrBlockAssociationSet = []types.SubnetIpv6CidrBlockAssociation{{AssociationId: aws.String(s.ipv6Assoc),
			Ipv6CidrBlock: aws.String(s.ipv6.String()), Ipv6CidrBlockState: &types.SubnetCidrBlockState{State: types.SubnetCidrBlockStateCodeAssociated}}}
	}
	return d
}

// heldAddresses returns the addresses of a subnet that network interfaces hold: those of its NAT
// gateways and of its instances that are not terminated.
func (r *region) heldAddresses(subnetID string, now time.Time) map[netip.Addr]bool {
	held := map[netip.Addr]bool{}
	for _, n := range r.nats {
		if n.subnet == subnetID && n.holdsAddress(now) {
			held[n.privateIP] = true
		}
	}
	for _, i := range r.instances {
		if i.subnet == subnetID && i.holdsAddress(now) {
			held[i.privateIP] = true
		}
	}
	return held
}

// privateAddresses returns up to n free addresses of a subnet, lowest first, skipping the five
// AWS reserves (the first four and the last).
func (r *region) privateAddresses(s *subnet, now time.Time, n int) []netip.Addr {
	held := r.heldAddresses(s.id, now)
	var out []netip.Addr
	for a := nth(s.cidr, 4); len(out) < n && s.cidr.Contains(a.Next()); a = a.Next() {
		if !held[a] {
			out = append(out, a)
		}
	}
	return out
}

// subnetZone resolves the zone a subnet is created in: by name or ID, or, given neither, the
// zone AWS would pick (here: spread over the zones in turn).
func subnetZone(call *core.Call, name, id string, n int) (zone, error) {
	all := zones(call.Region)
	switch {
	case name != "" && id != "":
		return zone{}, core.Errorf("InvalidParameterCombination", "Only one of availabilityZone and availabilityZoneId may be specified.")
	case name == "" && id == "":
		return all[n%len(all)], nil
	}
	var names []string
	for _, z := range all {
		if z.name == name || z.id == id {
			return z, nil
		}
		names = append(names, z.name)
	}
	if name != "" {
		return zone{}, core.Errorf("InvalidParameterValue", "Value (%s) for parameter availabilityZone is invalid. Subnets can currently only be created in the following availability zones: %s.", name, strings.Join(names, ", "))
	}
	return zone{}, core.Errorf("InvalidParameterValue", "Value (%s) for parameter availabilityZoneId is invalid.", id)
}

// subnetIPv6 validates a subnet's IPv6 block: a /64 within the VPC's block, not used by
// another subnet.
func (r *region) subnetIPv6(v *vpc, cidr string) (netip.Prefix, error) {
	p, err := parseCIDR(cidr, "ipv6CidrBlock", true)
	if err != nil {
		return p, err
	}
	if p.Bits() != 64 || !v.ipv6.IsValid() || !contains(v.ipv6, p) {
		return p, core.Errorf("InvalidSubnet.Range", "The IPv6 CIDR '%s' is invalid.", cidr)
	}
	for _, s := range r.subnets {
		if s.vpc == v.id && s.ipv6.IsValid() && s.ipv6.Overlaps(p) {
			return p, core.Errorf("InvalidSubnet.Conflict", "The CIDR '%s' conflicts with another subnet", cidr)
		}
	}
	return p, nil
}

func (b *Backend) createSubnet(call *core.Call, in *ec2.CreateSubnetInput) (*ec2.CreateSubnetOutput, error) {
	if err := required("vpcId", in.VpcId); err != nil {
		return nil, err
	}
	cidr := aws.ToString(in.CidrBlock)
	if cidr == "" {
		return nil, core.Errorf("MissingParameter", "Either 'cidrBlock' or 'ipv4IpamPoolId' should be provided.")
	}
	p, err := parseCIDR(cidr, "cidrBlock", false)
	if err != nil {
		return nil, err
	}
	if p.Bits() < 16 || p.Bits() > 28 {
		return nil, core.Errorf("InvalidSubnet.Range", "The CIDR '%s' is invalid.", cidr)
	}
	tags, err := specTags(in.TagSpecifications, types.ResourceTypeSubnet)
	if err != nil {
		return nil, err
	}
	return withGot(b, call, func(r *region) map[string]*vpc { return r.vpcs }, vpcKind, in.VpcId, func(r *region, v *vpc) (*ec2.CreateSubnetOutput, error) {
		if !contains(v.cidr, p) {
			return nil, core.Errorf("InvalidSubnet.Range", "The CIDR '%s' is invalid.", cidr)
		}
		inVpc := 0
		for _, s := range r.subnets {
			if s.vpc == v.id {
				inVpc++
				if s.cidr.Overlaps(p) {
					return nil, core.Errorf("InvalidSubnet.Conflict", "The CIDR '%s' conflicts with another subnet", cidr)
				}
			}
		}
		z, err := subnetZone(call, aws.ToString(in.AvailabilityZone), aws.ToString(in.AvailabilityZoneId), inVpc)
		if err != nil {
			return nil, err
		}
		s := &subnet{Readable: core.ReadableAfter(call), id: newID("subnet"), vpc: v.id, cidr: p, zone: z, available: call.Now.Add(call.Transition)}
		if in.Ipv6CidrBlock != nil {
			if s.ipv6, err = r.subnetIPv6(v, aws.ToString(in.Ipv6CidrBlock)); err != nil {
				return nil, err
			}
			s.ipv6Assoc = newID("subnet-cidr-assoc")
		}
		if err := r.tags.Merge(tags, s.id); err != nil {
			return nil, err
		}
		r.subnets[s.id] = s
		d := r.describeSubnet(s, call)
		return &ec2.CreateSubnetOutput{Subnet: &d}, nil
	})
}

func (b *Backend) describeSubnets(call *core.Call, in *ec2.DescribeSubnetsInput) (*ec2.DescribeSubnetsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DescribeSubnetsOutput, error) {
		subnets, next, err := describe(call, r.subnets, subnetKind, in.SubnetIds, in.Filters, paging{in.MaxResults, in.NextToken, 5, 1000}, func(id string, s *subnet) view[types.Subnet] {
			d := r.describeSubnet(s, call)
			return view[types.Subnet]{d, d.Tags, fields{
				"subnet-id": {id}, "vpc-id": {s.vpc}, "cidr-block": {s.cidr.String()}, "cidr": {s.cidr.String()}, "cidrBlock": {s.cidr.String()},
				"availability-zone": {s.zone.name}, "availabilityZone": {s.zone.name}, "availability-zone-id": {s.zone.id},
				"state": {string(d.State)}, "default-for-az": boolText(s.defaultForAz), "defaultForAz": boolText(s.defaultForAz), "owner-id": {call.Account},
				"map-public-ip-on-launch": boolText(s.mapPublicIP), "assign-ipv6-address-on-creation": boolText(s.assignIPv6),
				"ipv6-cidr-block-association.ipv6-cidr-block": text(ipv6Text(s.ipv6)), "subnet-arn": {aws.ToString(d.SubnetArn)},
				"available-ip-address-count": {strconv.Itoa(int(aws.ToInt32(d.AvailableIpAddressCount)))},
			}}
		})
		return &ec2.DescribeSubnetsOutput{Subnets: subnets, NextToken: next}, err
	})
}

// deleteSubnet refuses while a network interface is in the subnet (a NAT gateway's, or an
// instance's until it is terminated); explicit route table associations go with the subnet, as
// on AWS.
func (b *Backend) deleteSubnet(call *core.Call, in *ec2.DeleteSubnetInput) (*ec2.DeleteSubnetOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DeleteSubnetOutput, error) {
		id := aws.ToString(in.SubnetId)
		if _, err := get(call, r.subnets, subnetKind, id); err != nil {
			return nil, err
		}
		if len(r.heldAddresses(id, call.Now)) > 0 {
			return nil, dependencyViolation("subnet", id)
		}
		for _, t := range r.tables {
			for assoc, sub := range t.assocs {
				if sub == id {
					delete(t.assocs, assoc)
				}
			}
		}
		delete(r.subnets, id)
		r.tags.Delete(id)
		return &ec2.DeleteSubnetOutput{}, nil
	})
}

// modifySubnetAttribute changes one attribute per call, as AWS requires.
func (b *Backend) modifySubnetAttribute(call *core.Call, in *ec2.ModifySubnetAttributeInput) (*ec2.ModifySubnetAttributeOutput, error) {
	return withGot(b, call, func(r *region) map[string]*subnet { return r.subnets }, subnetKind, in.SubnetId, func(r *region, s *subnet) (*ec2.ModifySubnetAttributeOutput, error) {
		others := in.CustomerOwnedIpv4Pool != nil || in.DisableLniAtDeviceIndex != nil || in.EnableDns64 != nil || in.EnableLniAtDeviceIndex != nil ||
			in.EnableResourceNameDnsAAAARecordOnLaunch != nil || in.EnableResourceNameDnsARecordOnLaunch != nil ||
			in.MapCustomerOwnedIpOnLaunch != nil || in.PrivateDnsHostnameTypeOnLaunch != ""
		switch {
		case others:
			return nil, core.Errorf("UnsupportedOperation", "The emulator models only the mapPublicIpOnLaunch and assignIpv6AddressOnCreation subnet attributes.")
		case (in.MapPublicIpOnLaunch == nil) == (in.AssignIpv6AddressOnCreation == nil):
			return nil, core.Errorf("InvalidParameterCombination", "Only one attribute can be modified at a time")
		case in.MapPublicIpOnLaunch != nil:
			s.mapPublicIP = aws.ToBool(in.MapPublicIpOnLaunch.Value)
		default:
			s.assignIPv6 = aws.ToBool(in.AssignIpv6AddressOnCreation.Value)
		}
		return &ec2.ModifySubnetAttributeOutput{}, nil
	})
}
