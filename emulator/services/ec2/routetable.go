package ec2

import (
	"net/netip"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// routeTable is one route table of a VPC: its routes, its explicit subnet associations
// (association id -> subnet id) and, for the VPC's main table, the main association.
type routeTable struct {
	core.Readable // hidden from reads for a while after creation, under the ReadAfterCreateDelay fault
	id, vpc       string
	token         string // the ClientToken it was created with
	mainAssoc     string
	assocs        map[string]string
	routes        []*route
}

// route is one route: a destination (an IPv4 or IPv6 block or a prefix list) and a target.
// The local routes (the VPC's own blocks) come with the table and cannot be changed.
type route struct {
	dest, destParam string // destParam names the destination's kind as CreateRoute's parameters do
	target          target
	local           bool
}

// target is where a route sends traffic: the parameter that names it and the id.
type target struct{ param, id string }

// Route destination parameters.
const (
	destCIDR       = "destinationCidrBlock"
	destIPv6       = "destinationIpv6CidrBlock"
	destPrefixList = "destinationPrefixListId"
)

// routeSpec is what CreateRoute and ReplaceRoute say about a route.
type routeSpec struct {
	table         string
	dest4, dest6  *string
	prefixList    *string
	targets       map[string]*string // parameter -> id, for every target parameter
	localTarget   bool
	replaceAction bool
}

// addMainTable gives a new VPC its main route table with the local routes, and returns it.
func (r *region) addMainTable(v *vpc) *routeTable {
	t := r.newTable(newID("rtb"), v)
	t.mainAssoc = newID("rtbassoc")
	return t
}

// newTable adds a route table with id to a VPC, with its local routes.
func (r *region) newTable(id string, v *vpc) *routeTable {
	t := &routeTable{id: id, vpc: v.id, assocs: map[string]string{}}
	t.routes = append(t.routes, &route{dest: v.cidr.String(), destParam: destCIDR, target: target{"gatewayId", "local"}, local: true})
	if v.ipv6.IsValid() {
		t.routes = append(t.routes, &route{dest: v.ipv6.String(), destParam: destIPv6, target: target{"gatewayId", "local"}, local: true})
	}
	r.tables[t.id] = t
	return t
}

// active reports whether a route's target still exists where the route can use it; otherwise
// AWS shows the route as a blackhole (a peering connection that is not active yet, or no longer).
// Targets the emulator does not model are always active.
func (r *region) active(t *routeTable, rt *route, now time.Time) bool {
	switch {
	case rt.local:
		return true
	case rt.target.param == "gatewayId" && isIgw(rt.target.id):
		g, ok := r.igws[rt.target.id]
		return ok && g.vpc == t.vpc
	case rt.target.param == "natGatewayId":
		n, ok := r.nats[rt.target.id]
		return ok && n.failCode == "" && n.deleted.IsZero()
	case rt.target.param == "vpcPeeringConnectionId":
		return r.peeringActive(rt.target.id, now)
	}
	return true
}

func isIgw(id string) bool { return igwKind.check(id) == nil }

func (r *region) describeTable(t *routeTable, call *core.Call) types.RouteTable {
	d := types.RouteTable{RouteTableId: aws.String(t.id), VpcId: aws.String(t.vpc), OwnerId: aws.String(call.Account),
		PropagatingVgws: []types.PropagatingVgw{}, Associations: []types.RouteTableAssociation{}, Tags: r.tagList(t.id)}
	if t.mainAssoc != "" {
		d.Associations = append(d.Associations, types.RouteTableAssociation{RouteTableAssociationId: aws.String(t.mainAssoc),
			RouteTableId: aws.String(t.id), Main: aws.Bool(true), AssociationState: associated()})
	}
	for _, assoc := range core.SortedKeys(t.assocs) {
		d.Associations = append(d.Associations, types.RouteTableAssociation{RouteTableAssociationId: aws.String(assoc),
			RouteTableId: aws.String(t.id), SubnetId: aws.String(t.assocs[assoc]), Main: aws.Bool(false), AssociationState: associated()})
	}
	for _, rt := range t.routes {
		out := types.Route{Origin: types.RouteOriginCreateRoute, State: types.RouteStateActive}
		if rt.local {
			out.Origin = types.RouteOriginCreateRouteTable
		}
		if !r.active(t, rt, call.Now) {
			out.State = types.RouteStateBlackhole
		}
		dest, id := aws.String(rt.dest), aws.String(rt.target.id)
		switch rt.destParam {
		case destCIDR:
			out.DestinationCidrBlock = dest
		case destIPv6:
			out.DestinationIpv6CidrBlock = dest
		default:
			out.DestinationPrefixListId = dest
		}
		*routeTargets[rt.target.param].field(&out) = id
		d.Routes = append(d.Routes, out)
	}
	return d
}

func (b *Backend) createRouteTable(call *core.Call, in *ec2.CreateRouteTableInput) (*ec2.CreateRouteTableOutput, error) {
	if err := required("vpcId", in.VpcId); err != nil {
		return nil, err
	}
	tags, err := specTags(in.TagSpecifications, types.ResourceTypeRouteTable)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ec2.CreateRouteTableOutput, error) {
		token := aws.ToString(in.ClientToken)
		if t, ok := r.tables[r.rtbTokens[token]]; ok && token != "" {
			// A repeated ClientToken answers the table it created, as AWS does.
			if t.vpc != aws.ToString(in.VpcId) {
				return nil, core.Errorf("IdempotentParameterMismatch", "The client token %s was already used with different parameters.", token)
			}
			d := r.describeTable(t, call)
			return &ec2.CreateRouteTableOutput{ClientToken: in.ClientToken, RouteTable: &d}, nil
		}
		v, err := get(call, r.vpcs, vpcKind, aws.ToString(in.VpcId))
		if err != nil {
			return nil, err
		}
		id := newID("rtb")
		if err := r.tags.Merge(tags, id); err != nil {
			return nil, err
		}
		t := r.newTable(id, v)
		t.Readable = core.ReadableAfter(call)
		if token != "" {
			t.token = token
			r.rtbTokens[token] = t.id
		}
		d := r.describeTable(t, call)
		return &ec2.CreateRouteTableOutput{ClientToken: in.ClientToken, RouteTable: &d}, nil
	})
}

func (b *Backend) describeRouteTables(call *core.Call, in *ec2.DescribeRouteTablesInput) (*ec2.DescribeRouteTablesOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DescribeRouteTablesOutput, error) {
		tables, next, err := describe(call, r.tables, rtbKind, in.RouteTableIds, in.Filters, paging{in.MaxResults, in.NextToken, 5, 100}, func(id string, t *routeTable) view[types.RouteTable] {
			d := r.describeTable(t, call)
			f := fields{"route-table-id": {id}, "vpc-id": {t.vpc}, "owner-id": {call.Account}, "association.route-table-association-id": nil,
				"association.route-table-id": nil, "association.main": nil, "association.subnet-id": nil}
			for _, a := range d.Associations {
				f["association.route-table-association-id"] = append(f["association.route-table-association-id"], aws.ToString(a.RouteTableAssociationId))
				f["association.route-table-id"] = append(f["association.route-table-id"], id)
				f["association.main"] = append(f["association.main"], boolText(aws.ToBool(a.Main))...)
				f["association.subnet-id"] = append(f["association.subnet-id"], text(a.SubnetId)...)
			}
			for _, rt := range d.Routes {
				for name, v := range map[string]*string{"route.destination-cidr-block": rt.DestinationCidrBlock, "route.destination-ipv6-cidr-block": rt.DestinationIpv6CidrBlock,
					"route.destination-prefix-list-id": rt.DestinationPrefixListId, "route.gateway-id": rt.GatewayId, "route.nat-gateway-id": rt.NatGatewayId,
					"route.vpc-peering-connection-id": rt.VpcPeeringConnectionId, "route.transit-gateway-id": rt.TransitGatewayId,
					"route.state": aws.String(string(rt.State)), "route.origin": aws.String(string(rt.Origin))} {
					f[name] = append(f[name], text(v)...)
				}
			}
			return view[types.RouteTable]{d, d.Tags, f}
		})
		return &ec2.DescribeRouteTablesOutput{RouteTables: tables, NextToken: next}, err
	})
}

// deleteRouteTable refuses for the main table and while subnets are associated.
func (b *Backend) deleteRouteTable(call *core.Call, in *ec2.DeleteRouteTableInput) (*ec2.DeleteRouteTableOutput, error) {
	return withGot(b, call, func(r *region) map[string]*routeTable { return r.tables }, rtbKind, in.RouteTableId, func(r *region, t *routeTable) (*ec2.DeleteRouteTableOutput, error) {
		if t.mainAssoc != "" || len(t.assocs) > 0 {
			return nil, dependencyViolation("routeTable", t.id)
		}
		delete(r.tables, t.id)
		r.tags.Delete(t.id)
		delete(r.rtbTokens, t.token)
		return &ec2.DeleteRouteTableOutput{}, nil
	})
}

// destination validates a route's destination: exactly one of an IPv4 block, an IPv6 block or
// a prefix list.
func destination(s routeSpec) (dest, param string, err error) {
	n := 0
	for _, p := range []*string{s.dest4, s.dest6, s.prefixList} {
		if p != nil {
			n++
		}
	}
	if n != 1 {
		return "", "", core.Errorf("InvalidParameterCombination", "The request must contain exactly one of destinationCidrBlock, destinationIpv6CidrBlock or destinationPrefixListId")
	}
	switch {
	case s.dest4 != nil:
		p, err := parseCIDR(*s.dest4, destCIDR, false)
		return p.String(), destCIDR, err
	case s.dest6 != nil:
		p, err := parseCIDR(*s.dest6, destIPv6, true)
		return p.String(), destIPv6, err
	}
	if err := (kind{prefix: "pl", malformed: "InvalidPrefixListId.Malformed"}).check(*s.prefixList); err != nil {
		return "", "", err
	}
	return *s.prefixList, destPrefixList, nil
}

// routeTargets are the targets a route may have, by the parameter that names them: the id
// prefix of those the emulator does not model (which it accepts by their form alone), and the
// member of types.Route that shows them.
var routeTargets = map[string]struct {
	prefix string
	field  func(*types.Route) **string
}{
	"gatewayId":                   {"", func(r *types.Route) **string { return &r.GatewayId }},
	"natGatewayId":                {"", func(r *types.Route) **string { return &r.NatGatewayId }},
	"coreNetworkArn":              {"", func(r *types.Route) **string { return &r.CoreNetworkArn }},
	"vpcPeeringConnectionId":      {"pcx", func(r *types.Route) **string { return &r.VpcPeeringConnectionId }},
	"transitGatewayId":            {"tgw", func(r *types.Route) **string { return &r.TransitGatewayId }},
	"networkInterfaceId":          {"eni", func(r *types.Route) **string { return &r.NetworkInterfaceId }},
	"egressOnlyInternetGatewayId": {"eigw", func(r *types.Route) **string { return &r.EgressOnlyInternetGatewayId }},
	"instanceId":                  {"i", func(r *types.Route) **string { return &r.InstanceId }},
	"localGatewayId":              {"lgw", func(r *types.Route) **string { return &r.LocalGatewayId }},
	"carrierGatewayId":            {"cagw", func(r *types.Route) **string { return &r.CarrierGatewayId }},
	"vpcEndpointId":               {"vpce", func(r *types.Route) **string { return &r.GatewayId }}, // AWS shows endpoint targets as gateways
}

// routeTarget validates a route's target: exactly one; internet and NAT gateways must exist in
// the table's VPC, and a VPC peering connection must join it (peeringRoutable); other targets
// are not emulated and are accepted when their id is well formed.
func (r *region) routeTarget(call *core.Call, t *routeTable, s routeSpec) (target, error) {
	var got []target
	for param, id := range s.targets {
		if id != nil {
			got = append(got, target{param, *id})
		}
	}
	if s.localTarget {
		got = append(got, target{"gatewayId", "local"})
	}
	if len(got) != 1 {
		return target{}, core.Errorf("InvalidParameterCombination", "The request must contain exactly one of gatewayId, natGatewayId, networkInterfaceId, vpcPeeringConnectionId, transitGatewayId or another route target")
	}
	tg := got[0]
	switch tg.param {
	case "gatewayId":
		if tg.id == "local" {
			return tg, nil
		}
		if g, ok := r.igws[tg.id]; ok {
			if g.vpc != t.vpc {
				return tg, core.Errorf("InvalidParameterValue", "route table %s and network gateway %s belong to different networks", t.id, tg.id)
			}
			return tg, nil
		}
		if (kind{prefix: "vgw"}).check(tg.id) == nil {
			return tg, nil
		}
		return tg, core.Errorf("InvalidGatewayID.NotFound", "The gateway ID '%s' does not exist", tg.id)
	case "natGatewayId":
		n, ok := r.nats[tg.id]
		if !ok || n.failCode != "" || !n.deleted.IsZero() {
			return tg, core.Errorf("InvalidNatGatewayID.NotFound", "The natGateway ID '%s' does not exist", tg.id)
		}
		if n.vpc != t.vpc {
			return tg, core.Errorf("InvalidParameterValue", "route table %s and NAT gateway %s belong to different networks", t.id, tg.id)
		}
		return tg, nil
	case "coreNetworkArn":
		return tg, nil
	case "vpcPeeringConnectionId":
		return tg, r.peeringRoutable(call, t, tg.id)
	}
	if (kind{prefix: routeTargets[tg.param].prefix}).check(tg.id) != nil {
		return tg, core.Errorf("InvalidParameterValue", "Value (%s) for parameter %s is invalid.", tg.id, tg.param)
	}
	return tg, nil
}

// findRoute returns the index of the route to a destination, or -1.
func (t *routeTable) findRoute(dest string) int {
	for i, rt := range t.routes {
		if rt.dest == dest {
			return i
		}
	}
	return -1
}

// setRoute creates (or, for ReplaceRoute, replaces) a route.
func (b *Backend) setRoute(call *core.Call, s routeSpec) error {
	b.state.Lock()
	defer b.state.Unlock()
	r := b.state.Of(call)
	t, err := get(call, r.tables, rtbKind, s.table)
	if err != nil {
		return err
	}
	dest, param, err := destination(s)
	if err != nil {
		return err
	}
	tg, err := r.routeTarget(call, t, s)
	if err != nil {
		return err
	}
	i := t.findRoute(dest)
	if !s.replaceAction {
		if i >= 0 {
			return core.Errorf("RouteAlreadyExists", "The route identified by %s already exists.", dest)
		}
		if p, err := netip.ParsePrefix(dest); err == nil && param == destCIDR && tg.param != "networkInterfaceId" && contains(r.vpcs[t.vpc].cidr, p) {
			return core.Errorf("InvalidParameterValue", "The destination CIDR block %s is equal to or more specific than one of this VPC's CIDR blocks. This route can target only an interface or an instance.", dest)
		}
		t.routes = append(t.routes, &route{dest: dest, destParam: param, target: tg})
		return nil
	}
	switch {
	case i < 0:
		return core.Errorf("InvalidParameterValue", "There is no route defined for '%s' in the route table. Please correct the destination and try again.", dest)
	case t.routes[i].local:
		return core.Errorf("InvalidParameterValue", "cannot replace local route %s in route table %s", dest, t.id)
	}
	t.routes[i] = &route{dest: dest, destParam: param, target: tg}
	return nil
}

// targets names a route's target parameters, which CreateRoute and ReplaceRoute share.
func targets(gateway, nat, peering, transit, eni, egressOnly, instance, localGateway, carrier, endpoint, coreNetwork *string) map[string]*string {
	return map[string]*string{"gatewayId": gateway, "natGatewayId": nat, "vpcPeeringConnectionId": peering, "transitGatewayId": transit,
		"networkInterfaceId": eni, "egressOnlyInternetGatewayId": egressOnly, "instanceId": instance, "localGatewayId": localGateway,
		"carrierGatewayId": carrier, "vpcEndpointId": endpoint, "coreNetworkArn": coreNetwork}
}

func (b *Backend) createRoute(call *core.Call, in *ec2.CreateRouteInput) (*ec2.CreateRouteOutput, error) {
	err := b.setRoute(call, routeSpec{table: aws.ToString(in.RouteTableId), dest4: in.DestinationCidrBlock, dest6: in.DestinationIpv6CidrBlock,
		prefixList: in.DestinationPrefixListId, targets: targets(in.GatewayId, in.NatGatewayId, in.VpcPeeringConnectionId, in.TransitGatewayId,
			in.NetworkInterfaceId, in.EgressOnlyInternetGatewayId, in.InstanceId, in.LocalGatewayId, in.CarrierGatewayId, in.VpcEndpointId, in.CoreNetworkArn)})
	if err != nil {
		return nil, err
	}
	return &ec2.CreateRouteOutput{Return: aws.Bool(true)}, nil
}

func (b *Backend) replaceRoute(call *core.Call, in *ec2.ReplaceRouteInput) (*ec2.ReplaceRouteOutput, error) {
	err := b.setRoute(call, routeSpec{table: aws.ToString(in.RouteTableId), dest4: in.DestinationCidrBlock, dest6: in.DestinationIpv6CidrBlock,
		prefixList: in.DestinationPrefixListId, targets: targets(in.GatewayId, in.NatGatewayId, in.VpcPeeringConnectionId, in.TransitGatewayId,
			in.NetworkInterfaceId, in.EgressOnlyInternetGatewayId, in.InstanceId, in.LocalGatewayId, in.CarrierGatewayId, in.VpcEndpointId, in.CoreNetworkArn),
		localTarget: aws.ToBool(in.LocalTarget), replaceAction: true})
	if err != nil {
		return nil, err
	}
	return &ec2.ReplaceRouteOutput{}, nil
}

func (b *Backend) deleteRoute(call *core.Call, in *ec2.DeleteRouteInput) (*ec2.DeleteRouteOutput, error) {
	return withGot(b, call, func(r *region) map[string]*routeTable { return r.tables }, rtbKind, in.RouteTableId, func(r *region, t *routeTable) (*ec2.DeleteRouteOutput, error) {
		dest, param, err := destination(routeSpec{dest4: in.DestinationCidrBlock, dest6: in.DestinationIpv6CidrBlock, prefixList: in.DestinationPrefixListId})
		if err != nil {
			return nil, err
		}
		i := t.findRoute(dest)
		switch {
		case i < 0:
			return nil, core.Errorf("InvalidRoute.NotFound", "no route with %s %s in route table %s", param, dest, t.id)
		case t.routes[i].local:
			return nil, core.Errorf("InvalidParameterValue", "cannot remove local route %s in route table %s", dest, t.id)
		}
		t.routes = append(t.routes[:i], t.routes[i+1:]...)
		return &ec2.DeleteRouteOutput{}, nil
	})
}
