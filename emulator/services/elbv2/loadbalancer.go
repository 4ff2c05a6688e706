package elbv2

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// loadBalancer is one Application or Network Load Balancer.
type loadBalancer struct {
	arn, name, vpc, dns string
	typ                 types.LoadBalancerTypeEnum
	scheme              types.LoadBalancerSchemeEnum
	ipType              types.IpAddressType
	mappings            []mapping
	groups              []string
	created, activeAt   time.Time
	attrs               map[string]string // the attributes set by ModifyLoadBalancerAttributes
}

// mapping is one subnet of a load balancer, with the addresses a subnet mapping gave it.
type mapping struct {
	subnet, zone, allocation, privateIP, ipv6 string
}

// kind is "app" or "net", as ARNs and DNS names spell the type.
func (lb *loadBalancer) kind() string {
	if lb.typ == types.LoadBalancerTypeEnumNetwork {
		return "net"
	}
	return "app"
}

// sameSettings reports whether a create request with the settings of other would be answered
// with lb (AWS's idempotent CreateLoadBalancer); tags do not count.
func (lb *loadBalancer) sameSettings(other *loadBalancer) bool {
	subnets := func(ms []mapping) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.subnet)
		}
		return out
	}
	return lb.typ == other.typ && lb.scheme == other.scheme && lb.ipType == other.ipType &&
		sameSet(subnets(lb.mappings), subnets(other.mappings)) && sameSet(lb.groups, other.groups)
}

func (lb *loadBalancer) describe(now time.Time) types.LoadBalancer {
	state := core.Ready(now, lb.activeAt, types.LoadBalancerStateEnumProvisioning, types.LoadBalancerStateEnumActive)
	d := types.LoadBalancer{LoadBalancerArn: aws.String(lb.arn), LoadBalancerName: aws.String(lb.name), DNSName: aws.String(lb.dns),
		CanonicalHostedZoneId: aws.String(hostedZone(lb.arn, lb.typ)), CreatedTime: aws.Time(lb.created), Scheme: lb.scheme,
		Type: lb.typ, IpAddressType: lb.ipType, VpcId: aws.String(lb.vpc), State: &types.LoadBalancerState{Code: state},
		AvailabilityZones: describeZones(lb.typ, lb.mappings)}
	if len(lb.groups) > 0 {
		d.SecurityGroups = slices.Clone(lb.groups)
	}
	return d
}

func describeZones(typ types.LoadBalancerTypeEnum, mappings []mapping) []types.AvailabilityZone {
	out := make([]types.AvailabilityZone, 0, len(mappings))
	for _, m := range mappings {
		z := types.AvailabilityZone{SubnetId: aws.String(m.subnet), ZoneName: aws.String(m.zone)}
		if typ == types.LoadBalancerTypeEnumNetwork && (m.allocation != "" || m.privateIP != "" || m.ipv6 != "") {
			z.LoadBalancerAddresses = []types.LoadBalancerAddress{{AllocationId: optional(m.allocation),
				PrivateIPv4Address: optional(m.privateIP), IPv6Address: optional(m.ipv6)}}
		}
		out = append(out, z)
	}
	return out
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

// dnsName returns a load balancer's DNS name as AWS forms it: <name>-<10 digits>.<region>.elb.
// amazonaws.com for an Application Load Balancer (internal- in front when internal) and
// <name>-<16 hex>.elb.<region>.amazonaws.com for a Network Load Balancer.
func dnsName(lb *loadBalancer, region string) string {
	h := sha256.Sum256([]byte(lb.arn))
	if lb.typ == types.LoadBalancerTypeEnumNetwork {
		return fmt.Sprintf("%s-%x.elb.%s.amazonaws.com", lb.name, h[:8], region)
	}
	prefix := ""
	if lb.scheme == types.LoadBalancerSchemeEnumInternal {
		prefix = "internal-"
	}
	return fmt.Sprintf("%s%s-%d.%s.elb.amazonaws.com", prefix, lb.name, binary.BigEndian.Uint64(h[:8])%9_000_000_000+1_000_000_000, region)
}

// hostedZones are the Route 53 hosted zones of Elastic Load Balancing by region: ALB's, NLB's.
var hostedZones = map[string][2]string{
	"us-east-1": {"Z35SXDOTRQ7X7K", "Z26RNL4JYFTOTI"}, "us-east-2": {"Z3AADJGX6KTTL2", "ZLMOA37VPKANP"},
	"us-west-1": {"Z368ELLRRE2KJ0", "Z24FKFUX50B4VW"}, "us-west-2": {"Z1H1FL5HABSF5", "Z18D5FSROUN65G"},
	"eu-west-1": {"Z32O12XQLNTSW2", "Z2IFOLAFXWLO4F"}, "eu-west-2": {"ZHURV8PSTC4K8", "ZD4D7Y8KGAS4G"},
	"eu-central-1": {"Z215JYRZR1TBD5", "Z3F0SRJ5LGBH90"}, "ap-southeast-1": {"Z1LMS91P8CMLE5", "ZKVM4W9LS7TM"},
	"ap-southeast-2": {"Z1GM3OXH4ZPM65", "ZCT6FZBF4DROD"}, "ap-northeast-1": {"Z14GRHDCWA56QT", "Z31USIVHYNEOWT"},
}

// hostedZone returns the CanonicalHostedZoneId of a load balancer; regions the table lacks get
// a stable made-up id.
func hostedZone(arn string, typ types.LoadBalancerTypeEnum) string {
	region := strings.Split(arn, ":")[3]
	i := 0
	if typ == types.LoadBalancerTypeEnumNetwork {
		i = 1
	}
	if z, ok := hostedZones[region]; ok {
		return z[i]
	}
	h := sha256.Sum256([]byte(region + string(typ)))
	return "Z" + strings.ToUpper(fmt.Sprintf("%x", h[:6]))
}

// subnets resolves the subnets or subnet mappings of a request against EC2: they must exist,
// be in one VPC and in distinct zones (InvalidConfigurationRequest otherwise, as AWS answers two
// subnets of one zone), and an Application Load Balancer needs two zones (ValidationError, the
// code AWS answers one subnet with).
func (b *Backend) subnets(scope core.Scope, typ types.LoadBalancerTypeEnum, ids []string, given []types.SubnetMapping) ([]mapping, string, error) {
	if len(ids) > 0 && len(given) > 0 {
		return nil, "", validation("You can specify subnets or subnet mappings, not both")
	}
	for _, id := range ids {
		given = append(given, types.SubnetMapping{SubnetId: aws.String(id)})
	}
	var out []mapping
	var vpc string
	zones := map[string]bool{}
	for _, g := range given {
		id := aws.ToString(g.SubnetId)
		v, zone, ok := b.network.Subnet(scope, id)
		switch {
		case !ok:
			return nil, "", core.Errorf("SubnetNotFound", "The subnet ID '%s' is not valid", id)
		case vpc != "" && v != vpc:
			return nil, "", invalidConfig("The subnets '%s' and '%s' are in different VPCs", out[0].subnet, id)
		case zones[zone]:
			return nil, "", invalidConfig("A load balancer cannot be attached to multiple subnets in the same Availability Zone")
		case g.AllocationId != nil && typ != types.LoadBalancerTypeEnumNetwork:
			return nil, "", invalidConfig("Elastic IP addresses can only be assigned to Network Load Balancers")
		}
		vpc, zones[zone] = v, true
		out = append(out, mapping{subnet: id, zone: zone, allocation: aws.ToString(g.AllocationId),
			privateIP: aws.ToString(g.PrivateIPv4Address), ipv6: aws.ToString(g.IPv6Address)})
	}
	if typ == types.LoadBalancerTypeEnumApplication && len(zones) < 2 {
		return nil, "", validation("At least two subnets in two different Availability Zones must be specified")
	}
	if len(out) == 0 {
		return nil, "", validation("At least one subnet must be specified")
	}
	slices.SortFunc(out, func(a, b mapping) int { return strings.Compare(a.zone, b.zone) })
	return out, vpc, nil
}

// securityGroups resolves the security groups of a request: they must exist in the load
// balancer's VPC. An Application Load Balancer given none gets the VPC's default group.
func (b *Backend) securityGroups(scope core.Scope, typ types.LoadBalancerTypeEnum, vpc string, ids []string) ([]string, error) {
	if len(ids) == 0 && typ == types.LoadBalancerTypeEnumApplication {
		if id, ok := b.network.DefaultSecurityGroup(scope, vpc); ok {
			return []string{id}, nil
		}
	}
	for _, id := range ids {
		if v, ok := b.network.SecurityGroup(scope, id); !ok || v != vpc {
			return nil, core.Errorf("InvalidSecurityGroup", "Security group '%s' does not exist in VPC '%s'", id, vpc)
		}
	}
	return slices.Compact(slices.Sorted(slices.Values(ids))), nil
}

func (b *Backend) createLoadBalancer(call *core.Call, in *elb.CreateLoadBalancerInput) (*elb.CreateLoadBalancerOutput, error) {
	name, err := checkName("Load balancer", in.Name)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(name, "internal-") {
		return nil, validation("Load balancer name '%s' cannot begin with 'internal-'", name)
	}
	lb := &loadBalancer{name: name, created: call.Now, activeAt: call.Now.Add(call.Transition), attrs: map[string]string{}}
	if lb.typ, err = oneOf("type", in.Type, types.LoadBalancerTypeEnumApplication, types.LoadBalancerTypeEnumApplication,
		types.LoadBalancerTypeEnumNetwork, types.LoadBalancerTypeEnumGateway); err != nil {
		return nil, err
	}
	if lb.typ == types.LoadBalancerTypeEnumGateway {
		return nil, invalidConfig("The emulator does not emulate Gateway Load Balancers")
	}
	if lb.scheme, err = oneOf("scheme", in.Scheme, types.LoadBalancerSchemeEnumInternetFacing, types.LoadBalancerSchemeEnumInternetFacing,
		types.LoadBalancerSchemeEnumInternal); err != nil {
		return nil, err
	}
	if lb.ipType, err = b.ipAddressType(lb, in.IpAddressType); err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*elb.CreateLoadBalancerOutput, error) {
		if lb.mappings, lb.vpc, err = b.subnets(r.scope, lb.typ, in.Subnets, in.SubnetMappings); err != nil {
			return nil, err
		}
		if lb.groups, err = b.securityGroups(r.scope, lb.typ, lb.vpc, in.SecurityGroups); err != nil {
			return nil, err
		}
		tags, err := requestTags(in.Tags)
		if err != nil {
			return nil, err
		}
		for _, other := range r.lbs {
			if other.name == name {
				if !other.sameSettings(lb) {
					return nil, core.Errorf("DuplicateLoadBalancerName", "A load balancer with the same name '%s' exists, but with different settings", name)
				}
				return &elb.CreateLoadBalancerOutput{LoadBalancers: []types.LoadBalancer{other.describe(call.Now)}}, nil
			}
		}
		lb.arn = r.scope.ARN("elasticloadbalancing", "loadbalancer/"+lb.kind()+"/"+name+"/"+newID())
		lb.dns = dnsName(lb, r.scope.Region)
		if err := r.tags.Merge(tags, lb.arn); err != nil {
			return nil, err
		}
		r.lbs[lb.arn] = lb
		return &elb.CreateLoadBalancerOutput{LoadBalancers: []types.LoadBalancer{lb.describe(call.Now)}}, nil
	})
}

// ipAddressType validates an IP address type for a load balancer.
func (b *Backend) ipAddressType(lb *loadBalancer, v types.IpAddressType) (types.IpAddressType, error) {
	t, err := oneOf("ipAddressType", v, types.IpAddressTypeIpv4, types.IpAddressTypeIpv4, types.IpAddressTypeDualstack,
		types.IpAddressTypeDualstackWithoutPublicIpv4)
	if err == nil && t == types.IpAddressTypeDualstackWithoutPublicIpv4 &&
		(lb.typ != types.LoadBalancerTypeEnumApplication || lb.scheme != types.LoadBalancerSchemeEnumInternetFacing) {
		return "", invalidConfig("The IP address type 'dualstack-without-public-ipv4' is only supported by internet-facing Application Load Balancers")
	}
	return t, err
}

// lb returns the load balancer an ARN names.
func (r *region) lb(arn *string) (*loadBalancer, error) {
	if lb := r.lbs[aws.ToString(arn)]; lb != nil {
		return lb, nil
	}
	return nil, core.Errorf("LoadBalancerNotFound", "Load balancer '%s' not found", aws.ToString(arn))
}

// maxBatch is how many ARNs or names one Describe call takes.
const maxBatch = 20

func (b *Backend) describeLoadBalancers(call *core.Call, in *elb.DescribeLoadBalancersInput) (*elb.DescribeLoadBalancersOutput, error) {
	switch {
	case len(in.LoadBalancerArns) > 0 && len(in.Names) > 0:
		return nil, validation("Load balancer names and load balancer ARNs cannot be specified at the same time")
	case len(in.LoadBalancerArns) > maxBatch || len(in.Names) > maxBatch:
		return nil, validation("A maximum of %d load balancers can be described at once", maxBatch)
	}
	return core.Locked(b.state, call, func(r *region) (*elb.DescribeLoadBalancersOutput, error) {
		arns, absent := core.Select(r.lbs, in.LoadBalancerArns)
		if len(in.Names) > 0 {
			arns, absent = core.SelectBy(r.lbs, in.Names, func(lb *loadBalancer) string { return lb.name })
		}
		if len(absent) > 0 {
			return nil, core.Errorf("LoadBalancerNotFound", "Load balancers '[%s]' not found", strings.Join(absent, ", "))
		}
		lbs, next, err := page(arns, in.Marker, in.PageSize, func(arn string) types.LoadBalancer { return r.lbs[arn].describe(call.Now) })
		return &elb.DescribeLoadBalancersOutput{LoadBalancers: lbs, NextMarker: next}, err
	})
}

// deleteLoadBalancer deletes the load balancer and its listeners, whose certificates it no
// longer uses. A load balancer that does not exist is already deleted: the call succeeds, as
// AWS documents.
func (b *Backend) deleteLoadBalancer(call *core.Call, in *elb.DeleteLoadBalancerInput) (*elb.DeleteLoadBalancerOutput, error) {
	arn := aws.ToString(in.LoadBalancerArn)
	if !strings.HasPrefix(arn, "arn:") {
		return nil, validation("'%s' is not a valid load balancer ARN", arn)
	}
	return core.Locked(b.state, call, func(r *region) (*elb.DeleteLoadBalancerOutput, error) {
		lb := r.lbs[arn]
		if lb == nil {
			return &elb.DeleteLoadBalancerOutput{}, nil
		}
		if lb.attr(deletionProtection) == "true" {
			return nil, core.Errorf("OperationNotPermitted", "Load balancer '%s' cannot be deleted because deletion protection is enabled", arn)
		}
		var certs []string
		for id, l := range r.listeners {
			if l.lb == arn {
				certs = append(certs, certificateARNs(l.certs)...)
				r.deleteRules(func(ru *rule) bool { return ru.listener == id })
				delete(r.listeners, id)
				r.tags.Delete(id)
			}
		}
		b.recordCertificateUsers(r, certs)
		delete(r.lbs, arn)
		r.tags.Delete(arn)
		return &elb.DeleteLoadBalancerOutput{}, nil
	})
}

func (b *Backend) setSubnets(call *core.Call, in *elb.SetSubnetsInput) (*elb.SetSubnetsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*elb.SetSubnetsOutput, error) {
		lb, err := r.lb(in.LoadBalancerArn)
		if err != nil {
			return nil, err
		}
		mappings, vpc, err := b.subnets(r.scope, lb.typ, in.Subnets, in.SubnetMappings)
		if err != nil {
			return nil, err
		}
		if vpc != lb.vpc {
			return nil, invalidConfig("The subnets must be in the load balancer's VPC '%s'", lb.vpc)
		}
		lb.mappings = mappings
		if in.IpAddressType != "" {
			if lb.ipType, err = b.ipAddressType(lb, in.IpAddressType); err != nil {
				return nil, err
			}
		}
		return &elb.SetSubnetsOutput{AvailabilityZones: describeZones(lb.typ, lb.mappings), IpAddressType: lb.ipType}, nil
	})
}

// setSecurityGroups replaces the security groups of a load balancer. A Network Load Balancer
// created without security groups cannot get any, as on AWS.
func (b *Backend) setSecurityGroups(call *core.Call, in *elb.SetSecurityGroupsInput) (*elb.SetSecurityGroupsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*elb.SetSecurityGroupsOutput, error) {
		lb, err := r.lb(in.LoadBalancerArn)
		if err != nil {
			return nil, err
		}
		switch {
		case lb.typ == types.LoadBalancerTypeEnumNetwork && len(lb.groups) == 0:
			return nil, invalidConfig("You cannot set security groups on a Network Load Balancer which was created without any security groups")
		case lb.typ == types.LoadBalancerTypeEnumApplication && len(in.SecurityGroups) == 0:
			return nil, validation("An Application Load Balancer must have at least one security group")
		}
		groups, err := b.securityGroups(r.scope, types.LoadBalancerTypeEnumNetwork, lb.vpc, in.SecurityGroups)
		if err != nil {
			return nil, err
		}
		lb.groups = groups
		return &elb.SetSecurityGroupsOutput{SecurityGroupIds: slices.Clone(groups)}, nil
	})
}

func (b *Backend) setIPAddressType(call *core.Call, in *elb.SetIpAddressTypeInput) (*elb.SetIpAddressTypeOutput, error) {
	if in.IpAddressType == "" {
		return nil, validation("An IP address type must be specified")
	}
	return core.Locked(b.state, call, func(r *region) (*elb.SetIpAddressTypeOutput, error) {
		lb, err := r.lb(in.LoadBalancerArn)
		if err != nil {
			return nil, err
		}
		if lb.ipType, err = b.ipAddressType(lb, in.IpAddressType); err != nil {
			return nil, err
		}
		return &elb.SetIpAddressTypeOutput{IpAddressType: lb.ipType}, nil
	})
}
