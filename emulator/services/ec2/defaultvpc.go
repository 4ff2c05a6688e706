package ec2

import (
	"net/netip"

	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// defaultVpcCIDR is the IPv4 block of every default VPC.
var defaultVpcCIDR = netip.MustParsePrefix("172.31.0.0/16")

// addDefaultVpc gives an account's region the default VPC AWS gives it: 172.31.0.0/16 with DNS
// hostnames on, its default security group, an internet gateway attached to it, a main route
// table that sends 0.0.0.0/0 to that gateway, and one default subnet per availability zone
// (172.31.0.0/20, 172.31.16.0/20, ... in zone order) that maps public addresses on launch. All of
// it is available at once. Deleting the VPC leaves the region without one, as on AWS.
func (r *region) addDefaultVpc(scope core.Scope) {
	v := &vpc{id: newID("vpc"), cidr: defaultVpcCIDR, assoc: newID("vpc-cidr-assoc"), dhcp: newID("dopt"), tenancy: types.TenancyDefault,
		dnsSupport: true, dnsHostnames: true, isDefault: true}
	r.vpcs[v.id] = v
	r.addDefaultGroup(v.id)
	g := &igw{id: newID("igw"), vpc: v.id}
	r.igws[g.id] = g
	main := r.addMainTable(v)
	main.routes = append(main.routes, &route{dest: "0.0.0.0/0", destParam: destCIDR, target: target{"gatewayId", g.id}})
	base := defaultVpcCIDR.Addr().As4()
	for n, z := range zones(scope.Region) {
		block := netip.PrefixFrom(netip.AddrFrom4([4]byte{base[0], base[1], byte(16 * n), 0}), 20)
		s := &subnet{id: newID("subnet"), vpc: v.id, cidr: block, zone: z, mapPublicIP: true, defaultForAz: true}
		r.subnets[s.id] = s
	}
}

// defaultVpc returns the region's default VPC, or nil once it has been deleted.
func (r *region) defaultVpc() *vpc {
	for _, v := range r.vpcs {
		if v.isDefault {
			return v
		}
	}
	return nil
}

// defaultSubnet returns the default subnet RunInstances launches into when the request names
// none: the one of the zone asked for, or else the one of the first zone that has one. Without a
// default VPC, or without a default subnet where one is needed, it answers AWS's errors.
func (r *region) defaultSubnet(zoneName string) (*subnet, error) {
	v := r.defaultVpc()
	if v == nil {
		return nil, noDefaultSubnet
	}
	var first *subnet
	for _, s := range r.subnets {
		if s.vpc != v.id || !s.defaultForAz {
			continue
		}
		if s.zone.name == zoneName {
			return s, nil
		}
		if first == nil || s.zone.name < first.zone.name {
			first = s
		}
	}
	switch {
	case zoneName != "":
		return nil, core.Errorf("MissingInput", "No default subnet for availability zone: '%s'.", zoneName)
	case first == nil:
		return nil, core.Errorf("MissingInput", "No subnets found for the default VPC '%s'. Please specify a subnet.", v.id)
	}
	return first, nil
}
