package routetable

import (
	"cmp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
)

// destKind says which of CreateRoute's destination parameters a destination goes in.
type destKind int

// The kinds of route destinations.
const (
	destCIDR destKind = iota
	destIPv6
	destPrefixList
)

// destination is where a route applies: an IPv4 or IPv6 range, or a prefix list.
type destination struct {
	kind  destKind
	value string
}

// params returns the destination as CreateRoute's destination parameters.
func (d destination) params() (cidr, ipv6, prefixList *string) {
	switch d.kind {
	case destCIDR:
		return aws.String(d.value), nil, nil
	case destIPv6:
		return nil, aws.String(d.value), nil
	}
	return nil, nil, aws.String(d.value)
}

// targetKind says which of CreateRoute's target parameters a target goes in.
type targetKind int

// The kinds of route targets the spec has, and other for those only AWS shows (an instance,
// an egress-only gateway, ...), which never equal a spec's.
const (
	targetGateway targetKind = iota
	targetNAT
	targetPeering
	targetTransit
	targetInterface
	targetOther
)

// target is where a route sends traffic.
type target struct {
	kind targetKind
	id   string
}

// params returns the target as CreateRoute's target parameters.
func (t target) params() (gateway, nat, peering, transit, eni *string) {
	id := aws.String(t.id)
	switch t.kind {
	case targetGateway:
		return id, nil, nil, nil, nil
	case targetNAT:
		return nil, id, nil, nil, nil
	case targetPeering:
		return nil, nil, id, nil, nil
	case targetTransit:
		return nil, nil, nil, id, nil
	}
	return nil, nil, nil, nil, id
}

// routeMap maps each destination to its target.
type routeMap map[destination]target

// destinationOf returns a spec route's destination.
func destinationOf(r v1alpha1.Route) destination {
	switch {
	case r.DestinationCIDRBlock != "":
		return destination{destCIDR, r.DestinationCIDRBlock}
	case r.DestinationIPv6CIDRBlock != "":
		return destination{destIPv6, ec2util.CanonicalCIDR(r.DestinationIPv6CIDRBlock)}
	}
	return destination{destPrefixList, r.DestinationPrefixListID}
}

// desiredRoutes returns the spec's routes, with the references resolved into ids.
func desiredRoutes(routes []v1alpha1.Route) routeMap {
	out := routeMap{}
	for _, r := range routes {
		t := target{targetGateway, r.GatewayID}
		switch {
		case r.NATGatewayID != "":
			t = target{targetNAT, r.NATGatewayID}
		case r.VPCPeeringConnectionID != "":
			t = target{targetPeering, r.VPCPeeringConnectionID}
		case r.TransitGatewayID != "":
			t = target{targetTransit, r.TransitGatewayID}
		case r.NetworkInterfaceID != "":
			t = target{targetInterface, r.NetworkInterfaceID}
		}
		out[destinationOf(r)] = t
	}
	return out
}

// observedRoutes returns the routes AWS shows that the operator manages: all but the local
// routes, the routes a virtual private gateway propagates, and the routes of gateway VPC
// endpoints (to a service's prefix list through vpce-…), which their endpoint adds and removes
// (a VPCEndpoint's route tables).
func observedRoutes(routes []types.Route) routeMap {
	out := routeMap{}
	for _, r := range routes {
		if r.Origin == types.RouteOriginCreateRouteTable || r.Origin == types.RouteOriginEnableVgwRoutePropagation || aws.ToString(r.GatewayId) == "local" ||
			strings.HasPrefix(aws.ToString(r.GatewayId), "vpce-") {
			continue
		}
		d := destination{destPrefixList, aws.ToString(r.DestinationPrefixListId)}
		switch {
		case r.DestinationCidrBlock != nil:
			d = destination{destCIDR, aws.ToString(r.DestinationCidrBlock)}
		case r.DestinationIpv6CidrBlock != nil:
			d = destination{destIPv6, ec2util.CanonicalCIDR(aws.ToString(r.DestinationIpv6CidrBlock))}
		}
		out[d] = observedTarget(r)
	}
	return out
}

// observedTarget returns where a route AWS shows sends traffic. A route to an instance shows
// the instance's interface too; it counts as other, so that it never equals a spec's route.
func observedTarget(r types.Route) target {
	switch {
	case r.InstanceId != nil || r.EgressOnlyInternetGatewayId != nil || r.LocalGatewayId != nil || r.CarrierGatewayId != nil || r.CoreNetworkArn != nil:
		return target{kind: targetOther}
	case r.NatGatewayId != nil:
		return target{targetNAT, aws.ToString(r.NatGatewayId)}
	case r.VpcPeeringConnectionId != nil:
		return target{targetPeering, aws.ToString(r.VpcPeeringConnectionId)}
	case r.TransitGatewayId != nil:
		return target{targetTransit, aws.ToString(r.TransitGatewayId)}
	case r.GatewayId != nil:
		return target{targetGateway, aws.ToString(r.GatewayId)}
	case r.NetworkInterfaceId != nil:
		return target{targetInterface, aws.ToString(r.NetworkInterfaceId)}
	}
	return target{kind: targetOther}
}

// routeChanges compares the desired routes with AWS's: the destinations to create, to point
// at another target, and to delete, each sorted.
func routeChanges(want, have routeMap) (create, replace, remove []destination) {
	for d, t := range want {
		got, ok := have[d]
		switch {
		case !ok:
			create = append(create, d)
		case got != t:
			replace = append(replace, d)
		}
	}
	for d := range have {
		if _, ok := want[d]; !ok {
			remove = append(remove, d)
		}
	}
	order := func(a, b destination) int { return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.value, b.value)) }
	slices.SortFunc(create, order)
	slices.SortFunc(replace, order)
	slices.SortFunc(remove, order)
	return create, replace, remove
}
