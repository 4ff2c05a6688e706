package ec2

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxRules is AWS's default quota of rules per direction per security group, counted apart for
// IPv4 and IPv6 rules.
const maxRules = 60

// sgRule is one atomic security group rule, as AWS stores them: one protocol and port range, one
// source or destination (an IPv4 or IPv6 block, a prefix list or a security group).
type sgRule struct {
	id, group                          string
	seq                                int // creation order, for describing rules as they were added
	egress                             bool
	protocol                           string // tcp, udp, icmp, icmpv6, -1, or a protocol number
	from, to                           int32  // -1 when the protocol has no ports
	cidr4, cidr6, prefixList, refGroup string
	description                        string
}

// key identifies what a rule allows, whatever its description.
func (s *sgRule) key() string {
	return fmt.Sprint(s.group, s.egress, s.protocol, s.from, s.to, s.cidr4, s.cidr6, s.prefixList, s.refGroup)
}

func (s *sgRule) peer() string {
	return s.cidr4 + s.cidr6 + s.prefixList + s.refGroup
}

// addRule stores a rule under its sgr- id, after the rules created before it.
func (r *region) addRule(s *sgRule) {
	r.ruleSeq++
	s.seq = r.ruleSeq
	r.rules[s.id] = s
}

// rulesOf returns a group's ingress and egress rules in creation order.
func (r *region) rulesOf(group string) (in, out []*sgRule) {
	for _, s := range r.rules {
		if s.group != group {
			continue
		}
		if s.egress {
			out = append(out, s)
		} else {
			in = append(in, s)
		}
	}
	bySeq := func(l []*sgRule) { sort.Slice(l, func(i, j int) bool { return l[i].seq < l[j].seq }) }
	bySeq(in)
	bySeq(out)
	return in, out
}

// ports returns a rule's port range as IpPermission shows it: none for all protocols.
func (s *sgRule) ports() (from, to *int32) {
	if s.protocol == "-1" {
		return nil, nil
	}
	return aws.Int32(s.from), aws.Int32(s.to)
}

// permissions groups atomic rules back into IpPermissions, one per protocol and port range,
// as DescribeSecurityGroups shows them.
func permissions(rules []*sgRule, account string) []types.IpPermission {
	out := []types.IpPermission{}
	index := map[string]int{}
	for _, s := range rules {
		k := fmt.Sprint(s.protocol, s.from, s.to)
		i, ok := index[k]
		if !ok {
			from, to := s.ports()
			i, index[k] = len(out), len(out)
			out = append(out, types.IpPermission{IpProtocol: aws.String(s.protocol), FromPort: from, ToPort: to, IpRanges: []types.IpRange{},
				Ipv6Ranges: []types.Ipv6Range{}, PrefixListIds: []types.PrefixListId{}, UserIdGroupPairs: []types.UserIdGroupPair{}})
		}
		p := &out[i]
		desc := optional(s.description)
		switch {
		case s.cidr4 != "":
			p.IpRanges = append(p.IpRanges, types.IpRange{CidrIp: aws.String(s.cidr4), Description: desc})
		case s.cidr6 != "":
			p.Ipv6Ranges = append(p.Ipv6Ranges, types.Ipv6Range{CidrIpv6: aws.String(s.cidr6), Description: desc})
		case s.prefixList != "":
			p.PrefixListIds = append(p.PrefixListIds, types.PrefixListId{PrefixListId: aws.String(s.prefixList), Description: desc})
		default:
			p.UserIdGroupPairs = append(p.UserIdGroupPairs, types.UserIdGroupPair{GroupId: aws.String(s.refGroup), UserId: aws.String(account), Description: desc})
		}
	}
	return out
}

// optional is a string member that is absent when empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

// ruleFields adds the ip-permission.* filter fields of rules to f.
func ruleFields(f fields, prefix string, rules []*sgRule) {
	for _, name := range []string{"cidr", "ipv6-cidr", "prefix-list-id", "group-id", "protocol", "from-port", "to-port"} {
		f[prefix+name] = nil
	}
	for _, s := range rules {
		for name, v := range map[string]string{"cidr": s.cidr4, "ipv6-cidr": s.cidr6, "prefix-list-id": s.prefixList, "group-id": s.refGroup,
			"protocol": s.protocol, "from-port": strconv.Itoa(int(s.from)), "to-port": strconv.Itoa(int(s.to))} {
			if v != "" {
				f[prefix+name] = append(f[prefix+name], v)
			}
		}
	}
}

func (s *sgRule) describe(r *region, call *core.Call) types.SecurityGroupRule {
	d := types.SecurityGroupRule{SecurityGroupRuleId: aws.String(s.id), GroupId: aws.String(s.group), GroupOwnerId: aws.String(call.Account),
		IsEgress: aws.Bool(s.egress), IpProtocol: aws.String(s.protocol), FromPort: aws.Int32(s.from), ToPort: aws.Int32(s.to),
		CidrIpv4: optional(s.cidr4), CidrIpv6: optional(s.cidr6), PrefixListId: optional(s.prefixList), Description: optional(s.description),
		SecurityGroupRuleArn: aws.String(call.Scope().ARN("ec2", "security-group-rule/"+s.id)), Tags: r.tagList(s.id)}
	if s.refGroup != "" {
		d.ReferencedGroupInfo = &types.ReferencedSecurityGroup{GroupId: aws.String(s.refGroup), UserId: aws.String(call.Account)}
	}
	return d
}

// protocols are the names AWS uses for protocol numbers it knows by name.
var protocols = map[string]string{"6": "tcp", "17": "udp", "1": "icmp", "58": "icmpv6", "all": "-1"}

// checkProtocol normalises a rule's protocol as AWS does: names, -1 for all, or a number.
func checkProtocol(p string) (string, error) {
	p = strings.ToLower(p)
	if name, ok := protocols[p]; ok {
		return name, nil
	}
	switch p {
	case "tcp", "udp", "icmp", "icmpv6", "-1":
		return p, nil
	}
	if n, err := strconv.Atoi(p); err == nil && n >= 0 && n <= 255 {
		return p, nil
	}
	return "", core.Errorf("InvalidParameterValue", "Invalid value '%s' for IP protocol. Unknown protocol.", p)
}

// checkPorts validates a permission's port range (ICMP: type and code) for its protocol.
func checkPorts(protocol string, fromP, toP *int32) (from, to int32, err error) {
	switch protocol {
	case "tcp", "udp":
		if fromP == nil || toP == nil {
			return 0, 0, core.Errorf("InvalidParameterValue", "Invalid value 'null' for portRange. Must specify both from and to ports with TCP/UDP.")
		}
		from, to = *fromP, *toP
		if from < 0 || to > 65535 || from > to {
			return 0, 0, core.Errorf("InvalidParameterValue", "Invalid port range %d-%d for protocol %s.", from, to, protocol)
		}
		return from, to, nil
	case "icmp", "icmpv6":
		from, to = aws.ToInt32(fromP), aws.ToInt32(toP)
		if fromP == nil {
			from = -1
		}
		if toP == nil {
			to = -1
		}
		if from < -1 || from > 255 || to < -1 || to > 255 {
			return 0, 0, core.Errorf("InvalidParameterValue", "Invalid ICMP type %d or code %d.", from, to)
		}
		return from, to, nil
	}
	return -1, -1, nil
}

// checkDescription validates a rule description.
func checkDescription(d *string) (string, error) {
	if len(aws.ToString(d)) > 255 {
		return "", core.Errorf("InvalidParameterValue", "Invalid rule description. Length exceeds maximum of 255")
	}
	return aws.ToString(d), nil
}

// expand turns IpPermissions into atomic rules of group, validating each source.
func (r *region) expand(call *core.Call, group string, egress bool, perms []types.IpPermission) ([]*sgRule, error) {
	var out []*sgRule
	for _, p := range perms {
		proto, err := checkProtocol(aws.ToString(p.IpProtocol))
		if err != nil {
			return nil, err
		}
		from, to, err := checkPorts(proto, p.FromPort, p.ToPort)
		if err != nil {
			return nil, err
		}
		add := func(desc *string, set func(*sgRule)) error {
			d, err := checkDescription(desc)
			if err != nil {
				return err
			}
			s := &sgRule{id: newID("sgr"), group: group, egress: egress, protocol: proto, from: from, to: to, description: d}
			set(s)
			out = append(out, s)
			return nil
		}
		before := len(out)
		for _, rg := range p.IpRanges {
			c := aws.ToString(rg.CidrIp)
			if _, err := parseCIDR(c, "cidrIp", false); err != nil {
				return nil, core.Errorf("InvalidParameterValue", "CIDR block %s is malformed", c)
			}
			if err := add(rg.Description, func(s *sgRule) { s.cidr4 = c }); err != nil {
				return nil, err
			}
		}
		for _, rg := range p.Ipv6Ranges {
			c := aws.ToString(rg.CidrIpv6)
			if _, err := parseCIDR(c, "cidrIpv6", true); err != nil {
				return nil, core.Errorf("InvalidParameterValue", "CIDR block %s is malformed", c)
			}
			if err := add(rg.Description, func(s *sgRule) { s.cidr6 = c }); err != nil {
				return nil, err
			}
		}
		for _, pl := range p.PrefixListIds {
			id := aws.ToString(pl.PrefixListId)
			if !strings.HasPrefix(id, "pl-") {
				return nil, core.Errorf("InvalidPrefixListId.Malformed", "Invalid id: \"%s\"", id)
			}
			if err := add(pl.Description, func(s *sgRule) { s.prefixList = id }); err != nil {
				return nil, err
			}
		}
		for _, pair := range p.UserIdGroupPairs {
			if pair.GroupId == nil {
				return nil, core.Errorf("InvalidParameterValue", "You may not reference Amazon VPC security groups by name. Please use the corresponding id for this operation.")
			}
			ref, err := get(call, r.groups, sgKind, aws.ToString(pair.GroupId))
			if err != nil {
				return nil, err
			}
			if err := add(pair.Description, func(s *sgRule) { s.refGroup = ref.id }); err != nil {
				return nil, err
			}
		}
		if len(out) == before {
			return nil, core.Errorf("MissingParameter", "The request must contain a source or destination (IpRanges, Ipv6Ranges, PrefixListIds or UserIdGroupPairs) for each permission.")
		}
	}
	return out, nil
}

// ruleRequest is what the Authorize and Revoke operations say: the group, the rules as
// IpPermissions or (the legacy form) top-level CidrIp, IpProtocol and ports, or rule ids.
type ruleRequest struct {
	groupID, groupName          *string
	egress                      bool
	perms                       []types.IpPermission
	cidr, protocol, sourceGroup *string
	from, to                    *int32
	ids                         []string
	tags                        []types.TagSpecification
}

// permissions returns the request's IpPermissions, turning the legacy parameters into one.
func (q ruleRequest) permissions() ([]types.IpPermission, error) {
	if q.cidr == nil && q.protocol == nil && q.sourceGroup == nil {
		return q.perms, nil
	}
	if len(q.perms) > 0 {
		return nil, core.Errorf("InvalidParameterCombination", "The parameter 'ipPermissions' may not be used in combination with 'cidrIp', 'ipProtocol', 'fromPort' or 'toPort'")
	}
	if q.sourceGroup != nil {
		return nil, core.Errorf("InvalidParameterValue", "You may not reference Amazon VPC security groups by name. Please use the corresponding id for this operation.")
	}
	p := types.IpPermission{IpProtocol: q.protocol, FromPort: q.from, ToPort: q.to}
	if p.IpProtocol == nil {
		p.IpProtocol = aws.String("-1")
	}
	if q.cidr != nil {
		p.IpRanges = []types.IpRange{{CidrIp: q.cidr}}
	}
	return []types.IpPermission{p}, nil
}

// inGroup runs f, holding the backend's lock, on the caller's region, the security group a rule
// request names and the direction of its rules (egress or ingress): the part of authorizing and
// revoking rules that is alike.
func inGroup[T any](b *Backend, call *core.Call, q ruleRequest, f func(r *region, g *securityGroup, egress bool) ([]T, error)) ([]T, error) {
	return core.Locked(b.state, call, func(r *region) ([]T, error) {
		g, err := r.group(call, q.groupID, q.groupName)
		if err != nil {
			return nil, err
		}
		return f(r, g, q.egress)
	})
}

// authorize adds rules to a group; the whole call fails if any rule already exists.
func (b *Backend) authorize(call *core.Call, q ruleRequest) ([]types.SecurityGroupRule, error) {
	perms, err := q.permissions()
	if err != nil {
		return nil, err
	}
	tags, err := specTags(q.tags, types.ResourceTypeSecurityGroupRule)
	if err != nil {
		return nil, err
	}
	return inGroup(b, call, q, func(r *region, g *securityGroup, egress bool) ([]types.SecurityGroupRule, error) {
		add, err := r.expand(call, g.id, egress, perms)
		if err != nil {
			return nil, err
		}
		in, out := r.rulesOf(g.id)
		existing := in
		if egress {
			existing = out
		}
		have := map[string]bool{}
		count := map[bool]int{}
		for _, s := range append(existing, add...) {
			if have[s.key()] {
				return nil, core.Errorf("InvalidPermission.Duplicate", "the specified rule \"peer: %s, %s, from port: %d, to port: %d, ALLOW\" already exists",
					s.peer(), strings.ToUpper(s.protocol), s.from, s.to)
			}
			have[s.key()] = true
			if count[s.cidr6 != ""]++; count[s.cidr6 != ""] > maxRules {
				return nil, core.Errorf("RulesPerSecurityGroupLimitExceeded", "The maximum number of rules per security group has been reached.")
			}
		}
		ids := make([]string, len(add))
		for i, s := range add {
			ids[i] = s.id
		}
		if err := r.tags.Merge(tags, ids...); err != nil {
			return nil, err
		}
		rules := []types.SecurityGroupRule{}
		for _, s := range add {
			r.addRule(s)
			rules = append(rules, s.describe(r, call))
		}
		return rules, nil
	})
}

func (b *Backend) authorizeSecurityGroupIngress(call *core.Call, in *ec2.AuthorizeSecurityGroupIngressInput) (*ec2.AuthorizeSecurityGroupIngressOutput, error) {
	rules, err := b.authorize(call, ruleRequest{groupID: in.GroupId, groupName: in.GroupName, perms: in.IpPermissions, cidr: in.CidrIp,
		protocol: in.IpProtocol, sourceGroup: in.SourceSecurityGroupName, from: in.FromPort, to: in.ToPort, tags: in.TagSpecifications})
	return &ec2.AuthorizeSecurityGroupIngressOutput{Return: aws.Bool(true), SecurityGroupRules: rules}, err
}

func (b *Backend) authorizeSecurityGroupEgress(call *core.Call, in *ec2.AuthorizeSecurityGroupEgressInput) (*ec2.AuthorizeSecurityGroupEgressOutput, error) {
	rules, err := b.authorize(call, ruleRequest{groupID: in.GroupId, egress: true, perms: in.IpPermissions, cidr: in.CidrIp,
		protocol: in.IpProtocol, sourceGroup: in.SourceSecurityGroupName, from: in.FromPort, to: in.ToPort, tags: in.TagSpecifications})
	return &ec2.AuthorizeSecurityGroupEgressOutput{Return: aws.Bool(true), SecurityGroupRules: rules}, err
}

// revoke removes rules named by id or by value; as in a non-default VPC, if any is not there
// the call fails with InvalidPermission.NotFound and nothing is revoked.
func (b *Backend) revoke(call *core.Call, q ruleRequest) ([]types.RevokedSecurityGroupRule, error) {
	perms, err := q.permissions()
	if err != nil {
		return nil, err
	}
	return inGroup(b, call, q, func(r *region, g *securityGroup, egress bool) ([]types.RevokedSecurityGroupRule, error) {
		var drop []*sgRule
		for _, id := range q.ids {
			s, err := get(call, r.rules, ruleKind, id)
			if err != nil || s.group != g.id || s.egress != egress {
				return nil, ruleKind.missing(id)
			}
			drop = append(drop, s)
		}
		want, err := r.expand(call, g.id, egress, perms)
		if err != nil {
			return nil, err
		}
		byKey := map[string]*sgRule{}
		for _, s := range r.rules {
			byKey[s.key()] = s
		}
		for _, w := range want {
			s, ok := byKey[w.key()]
			if !ok {
				return nil, core.Errorf("InvalidPermission.NotFound", "The specified rule does not exist in this security group.")
			}
			drop = append(drop, s)
		}
		revoked := []types.RevokedSecurityGroupRule{}
		for _, s := range drop {
			if _, ok := r.rules[s.id]; !ok {
				continue
			}
			delete(r.rules, s.id)
			r.tags.Delete(s.id)
			revoked = append(revoked, types.RevokedSecurityGroupRule{SecurityGroupRuleId: aws.String(s.id), GroupId: aws.String(s.group),
				IsEgress: aws.Bool(s.egress), IpProtocol: aws.String(s.protocol), FromPort: aws.Int32(s.from), ToPort: aws.Int32(s.to),
				CidrIpv4: optional(s.cidr4), CidrIpv6: optional(s.cidr6), PrefixListId: optional(s.prefixList),
				ReferencedGroupId: optional(s.refGroup), Description: optional(s.description)})
		}
		return revoked, nil
	})
}

func (b *Backend) revokeSecurityGroupIngress(call *core.Call, in *ec2.RevokeSecurityGroupIngressInput) (*ec2.RevokeSecurityGroupIngressOutput, error) {
	revoked, err := b.revoke(call, ruleRequest{groupID: in.GroupId, groupName: in.GroupName, perms: in.IpPermissions, cidr: in.CidrIp,
		protocol: in.IpProtocol, sourceGroup: in.SourceSecurityGroupName, from: in.FromPort, to: in.ToPort, ids: in.SecurityGroupRuleIds})
	return &ec2.RevokeSecurityGroupIngressOutput{Return: aws.Bool(true), RevokedSecurityGroupRules: revoked}, err
}

func (b *Backend) revokeSecurityGroupEgress(call *core.Call, in *ec2.RevokeSecurityGroupEgressInput) (*ec2.RevokeSecurityGroupEgressOutput, error) {
	revoked, err := b.revoke(call, ruleRequest{groupID: in.GroupId, egress: true, perms: in.IpPermissions, cidr: in.CidrIp,
		protocol: in.IpProtocol, sourceGroup: in.SourceSecurityGroupName, from: in.FromPort, to: in.ToPort, ids: in.SecurityGroupRuleIds})
	return &ec2.RevokeSecurityGroupEgressOutput{Return: aws.Bool(true), RevokedSecurityGroupRules: revoked}, err
}

func (b *Backend) describeSecurityGroupRules(call *core.Call, in *ec2.DescribeSecurityGroupRulesInput) (*ec2.DescribeSecurityGroupRulesOutput, error) {
	b.state.Lock()
	defer b.state.Unlock()
	r := b.state.Of(call)
	rules, next, err := describe(call, r.rules, ruleKind, in.SecurityGroupRuleIds, in.Filters, paging{in.MaxResults, in.NextToken, 5, 1000}, func(id string, s *sgRule) view[types.SecurityGroupRule] {
		d := s.describe(r, call)
		return view[types.SecurityGroupRule]{d, d.Tags, fields{"group-id": {s.group}, "security-group-rule-id": {id}}}
	})
	return &ec2.DescribeSecurityGroupRulesOutput{SecurityGroupRules: rules, NextToken: next}, err
}
