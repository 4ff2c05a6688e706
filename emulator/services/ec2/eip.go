package ec2

import (
	"net/netip"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// eip is one Elastic IP address. What it is associated with (a NAT gateway) is found from
// the gateways.
type eip struct {
	core.Readable // hidden from reads for a while after creation, under the ReadAfterCreateDelay fault
	id            string
	ip            netip.Addr
}

// addressPools are the blocks Elastic IPs come from: the documentation ranges of RFC 5737, so
// that an emulated address never names a real host.
var addressPools = []netip.Prefix{netip.MustParsePrefix("203.0.113.0/24"), netip.MustParsePrefix("198.51.100.0/24"), netip.MustParsePrefix("192.0.2.0/24")}

// freeAddress returns the first pool address no Elastic IP of the region holds.
func (r *region) freeAddress() (netip.Addr, bool) {
	used := map[netip.Addr]bool{}
	for _, e := range r.eips {
		used[e.ip] = true
	}
	for _, p := range addressPools {
		for a := p.Addr().Next(); p.Contains(a.Next()); a = a.Next() {
			if !used[a] {
				return a, true
			}
		}
	}
	return netip.Addr{}, false
}

// user returns the NAT gateway holding an address, if any.
func (r *region) user(e *eip, call *core.Call) *natGateway {
	for _, n := range r.nats {
		if n.allocation == e.id && n.holdsAddress(call.Now) {
			return n
		}
	}
	return nil
}

func (r *region) describeAddress(e *eip, call *core.Call) types.Address {
	d := types.Address{AllocationId: aws.String(e.id), PublicIp: aws.String(e.ip.String()), Domain: types.DomainTypeVpc,
		PublicIpv4Pool: aws.String("amazon"), NetworkBorderGroup: aws.String(call.Region), Tags: r.tagList(e.id)}
	if n := r.user(e, call); n != nil {
		d.AssociationId, d.NetworkInterfaceId, d.PrivateIpAddress = aws.String(n.assoc), aws.String(n.eni), aws.String(n.privateIP.String())
		d.NetworkInterfaceOwnerId, d.SubnetId = aws.String(call.Account), aws.String(n.subnet)
	}
	return d
}

func (b *Backend) allocateAddress(call *core.Call, in *ec2.AllocateAddressInput) (*ec2.AllocateAddressOutput, error) {
	switch {
	case in.Domain != "" && in.Domain != types.DomainTypeVpc:
		return nil, core.Errorf("InvalidParameterValue", "Value (%s) for parameter domain is invalid.", in.Domain)
	case in.NetworkBorderGroup != nil && aws.ToString(in.NetworkBorderGroup) != call.Region:
		return nil, core.Errorf("InvalidParameterValue", "Value (%s) for parameter networkBorderGroup is invalid.", aws.ToString(in.NetworkBorderGroup))
	case in.Address != nil || in.PublicIpv4Pool != nil || in.IpamPoolId != nil || in.CustomerOwnedIpv4Pool != nil:
		return nil, core.Errorf("UnsupportedOperation", "The emulator allocates Elastic IPs from Amazon's pool only.")
	}
	tags, err := specTags(in.TagSpecifications, types.ResourceTypeElasticIp)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ec2.AllocateAddressOutput, error) {
		ip, ok := r.freeAddress()
		if !ok {
			return nil, core.Errorf("AddressLimitExceeded", "The maximum number of addresses has been reached.")
		}
		e := &eip{Readable: core.ReadableAfter(call), id: newID("eipalloc"), ip: ip}
		if err := r.tags.Merge(tags, e.id); err != nil {
			return nil, err
		}
		r.eips[e.id] = e
		return &ec2.AllocateAddressOutput{AllocationId: aws.String(e.id), PublicIp: aws.String(ip.String()), Domain: types.DomainTypeVpc,
			PublicIpv4Pool: aws.String("amazon"), NetworkBorderGroup: aws.String(call.Region)}, nil
	})
}

func (b *Backend) describeAddresses(call *core.Call, in *ec2.DescribeAddressesInput) (*ec2.DescribeAddressesOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DescribeAddressesOutput, error) {
		addrs, _, err := describe(call, r.eips, eipKind, in.AllocationIds, in.Filters, paging{}, func(id string, e *eip) view[types.Address] {
			d := r.describeAddress(e, call)
			return view[types.Address]{d, d.Tags, fields{
				"allocation-id": {id}, "public-ip": {e.ip.String()}, "domain": {"vpc"}, "network-border-group": {call.Region},
				"association-id": text(d.AssociationId), "network-interface-id": text(d.NetworkInterfaceId),
				"private-ip-address": text(d.PrivateIpAddress), "network-interface-owner-id": text(d.NetworkInterfaceOwnerId),
			}}
		})
		if err != nil || len(in.PublicIps) == 0 {
			return &ec2.DescribeAddressesOutput{Addresses: addrs}, err
		}
		byIP := map[string]types.Address{}
		for _, a := range addrs {
			byIP[aws.ToString(a.PublicIp)] = a
		}
		out := []types.Address{}
		for _, ip := range in.PublicIps {
			a, ok := byIP[ip]
			if !ok {
				return nil, core.Errorf("InvalidAddress.NotFound", "Address '%s' not found.", ip)
			}
			out = append(out, a)
		}
		return &ec2.DescribeAddressesOutput{Addresses: out}, nil
	})
}

// releaseAddress refuses while a NAT gateway uses the address (until the gateway is deleted).
func (b *Backend) releaseAddress(call *core.Call, in *ec2.ReleaseAddressInput) (*ec2.ReleaseAddressOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.ReleaseAddressOutput, error) {
		if in.AllocationId == nil && in.PublicIp != nil {
			return nil, core.Errorf("InvalidParameterValue", "You must specify an allocation id when releasing a VPC elastic IP address")
		}
		e, err := get(call, r.eips, eipKind, aws.ToString(in.AllocationId))
		if err != nil {
			return nil, err
		}
		if r.user(e, call) != nil {
			return nil, core.Errorf("InvalidIPAddress.InUse", "Address %s is in use.", e.ip)
		}
		delete(r.eips, e.id)
		r.tags.Delete(e.id)
		return &ec2.ReleaseAddressOutput{}, nil
	})
}
