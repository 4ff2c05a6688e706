package securitygroup

import (
	"cmp"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
)

// permission is one atomic security group rule as AWS stores it: one protocol and port range,
// one peer (an IPv4 or IPv6 range, a prefix list or a security group) and a description.
// Ports are -1 where the protocol has none; for icmp and icmpv6 they are the type and code.
type permission struct {
	protocol                        string
	from, to                        int32
	cidr4, cidr6, prefixList, group string
	description                     string
}

// ruleSet is a set of atomic rules.
type ruleSet map[permission]bool

// protocolNames are the names AWS uses for the protocol numbers it knows by name.
var protocolNames = map[string]string{"all": "-1", "6": "tcp", "17": "udp", "1": "icmp", "58": "icmpv6"}

// canonicalProtocol returns the protocol as AWS shows it: tcp, udp, icmp, icmpv6, -1 for all,
// or another protocol number.
func canonicalProtocol(p string) string {
	if name, ok := protocolNames[p]; ok {
		return name
	}
	return p
}

// hasPorts reports whether a protocol's rules carry ports (tcp, udp) or an ICMP type and code.
func hasPorts(protocol string) bool {
	switch protocol {
	case "tcp", "udp", "icmp", "icmpv6":
		return true
	}
	return false
}

// ports returns the port range of a protocol from optional values: -1 where absent, and -1 for
// protocols without ports.
func ports(protocol string, from, to *int32) (int32, int32) {
	port := func(p *int32) int32 {
		if p == nil || !hasPorts(protocol) {
			return -1
		}
		return *p
	}
	return port(from), port(to)
}

// desiredRules expands the spec's rules into atomic rules. self is the group's own id, for
// sourceSecurityGroupRefs that name the group itself; every other reference must have been
// resolved into sourceSecurityGroupIDs, and the references still unresolved are returned.
func desiredRules(rules []v1alpha1.SecurityGroupRule, name, self string) (ruleSet, []string) {
	set := ruleSet{}
	var pending []string
	for _, r := range rules {
		proto := canonicalProtocol(r.Protocol)
		from, to := ports(proto, r.FromPort, r.ToPort)
		base := permission{protocol: proto, from: from, to: to, description: r.Description}
		add := func(peer func(*permission)) {
			p := base
			peer(&p)
			set[p] = true
		}
		for _, c := range r.CIDRBlocks {
			add(func(p *permission) { p.cidr4 = ec2util.CanonicalCIDR(c) })
		}
		for _, c := range r.IPv6CIDRBlocks {
			add(func(p *permission) { p.cidr6 = ec2util.CanonicalCIDR(c) })
		}
		for _, id := range r.PrefixListIDs {
			add(func(p *permission) { p.prefixList = id })
		}
		for _, id := range r.SourceSecurityGroupIDs {
			add(func(p *permission) { p.group = id })
		}
		for _, ref := range r.SourceSecurityGroupRefs {
			if ref.Name != name {
				pending = append(pending, ref.Name)
				continue
			}
			add(func(p *permission) { p.group = self })
		}
	}
	return set, pending
}

// defaultEgress is the rule AWS gives every new group: all outbound IPv4 traffic.
var defaultEgress = ruleSet{{protocol: "-1", from: -1, to: -1, cidr4: "0.0.0.0/0"}: true}

// observedRules expands the permissions DescribeSecurityGroups shows into atomic rules.
func observedRules(perms []types.IpPermission) ruleSet {
	set := ruleSet{}
	for _, ip := range perms {
		proto := canonicalProtocol(aws.ToString(ip.IpProtocol))
		from, to := ports(proto, ip.FromPort, ip.ToPort)
		base := permission{protocol: proto, from: from, to: to}
		add := func(desc *string, peer func(*permission)) {
			p := base
			p.description = aws.ToString(desc)
			peer(&p)
			set[p] = true
		}
		for _, r := range ip.IpRanges {
			add(r.Description, func(p *permission) { p.cidr4 = ec2util.CanonicalCIDR(aws.ToString(r.CidrIp)) })
		}
		for _, r := range ip.Ipv6Ranges {
			add(r.Description, func(p *permission) { p.cidr6 = ec2util.CanonicalCIDR(aws.ToString(r.CidrIpv6)) })
		}
		for _, pl := range ip.PrefixListIds {
			add(pl.Description, func(p *permission) { p.prefixList = aws.ToString(pl.PrefixListId) })
		}
		for _, pair := range ip.UserIdGroupPairs {
			add(pair.Description, func(p *permission) { p.group = aws.ToString(pair.GroupId) })
		}
	}
	return set
}

// minus returns the rules of s that other lacks, in a stable order.
func (s ruleSet) minus(other ruleSet) []permission {
	var out []permission
	for p := range s {
		if !other[p] {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b permission) int {
		return cmp.Or(cmp.Compare(a.protocol, b.protocol), cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to),
			cmp.Compare(a.cidr4, b.cidr4), cmp.Compare(a.cidr6, b.cidr6), cmp.Compare(a.prefixList, b.prefixList),
			cmp.Compare(a.group, b.group), cmp.Compare(a.description, b.description))
	})
	return out
}

// ipPermissions groups sorted atomic rules into the IpPermissions that Authorize and Revoke
// take, one per protocol and port range.
func ipPermissions(rules []permission) []types.IpPermission {
	var out []types.IpPermission
	var last permission
	for i, r := range rules {
		if i == 0 || r.protocol != last.protocol || r.from != last.from || r.to != last.to {
			ip := types.IpPermission{IpProtocol: aws.String(r.protocol)}
			if hasPorts(r.protocol) {
				ip.FromPort, ip.ToPort = aws.Int32(r.from), aws.Int32(r.to)
			}
			out, last = append(out, ip), r
		}
		ip := &out[len(out)-1]
		desc := aws.String(r.description)
		if r.description == "" {
			desc = nil
		}
		switch {
		case r.cidr4 != "":
			ip.IpRanges = append(ip.IpRanges, types.IpRange{CidrIp: aws.String(r.cidr4), Description: desc})
		case r.cidr6 != "":
			ip.Ipv6Ranges = append(ip.Ipv6Ranges, types.Ipv6Range{CidrIpv6: aws.String(r.cidr6), Description: desc})
		case r.prefixList != "":
			ip.PrefixListIds = append(ip.PrefixListIds, types.PrefixListId{PrefixListId: aws.String(r.prefixList), Description: desc})
		default:
			ip.UserIdGroupPairs = append(ip.UserIdGroupPairs, types.UserIdGroupPair{GroupId: aws.String(r.group), Description: desc})
		}
	}
	return out
}
