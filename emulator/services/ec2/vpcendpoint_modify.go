package ec2

import (
	"errors"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// endpointChange is what CreateVpcEndpoint gives, or ModifyVpcEndpoint adds to or removes from,
// an endpoint's route tables, subnets and security groups.
type endpointChange struct {
	addTables, removeTables   []string
	addSubnets, removeSubnets []string
	addGroups, removeGroups   []string
}

// changeEndpoint checks a change against the endpoint's type and VPC and then applies it to its
// sets; nothing changes when the check fails. Route tables are for gateway endpoints (each must
// be in the VPC and hold no route to the service's prefix list yet), subnets and security groups
// for interface endpoints (subnets in the VPC, one per zone).
func (r *region) changeEndpoint(call *core.Call, e *vpcEndpoint, ch endpointChange) error {
	gateway := e.endpointType == types.VpcEndpointTypeGateway
	switch {
	case gateway && len(ch.addSubnets)+len(ch.removeSubnets)+len(ch.addGroups)+len(ch.removeGroups) > 0:
		return core.Errorf("InvalidParameter", "Subnets and security groups are not supported for Gateway endpoints.")
	case !gateway && len(ch.addTables)+len(ch.removeTables) > 0:
		return core.Errorf("InvalidParameter", "Route tables are not supported for Interface endpoints.")
	}
	pl := e.service.prefixList(call.Region)
	tables, err := inVpc(call, r.tables, rtbKind, ch.addTables, e.vpc, func(t *routeTable) string { return t.vpc })
	if err != nil {
		return err
	}
	for _, t := range tables {
		if !slices.Contains(e.tables, t.id) && t.findRoute(pl) >= 0 {
			return core.Errorf("RouteAlreadyExists", "route table %s already has a route with destination-prefix-list-id %s", t.id, pl)
		}
	}
	if _, err := inVpc(call, r.subnets, subnetKind, ch.addSubnets, e.vpc, func(s *subnet) string { return s.vpc }); err != nil {
		return err
	}
	if _, err := inVpc(call, r.groups, sgKind, ch.addGroups, e.vpc, func(g *securityGroup) string { return g.vpc }); err != nil {
		return err
	}
	subnets := setChange(e.subnets, ch.addSubnets, ch.removeSubnets)
	zones := map[string]string{}
	for _, id := range subnets {
		s := r.subnets[id]
		if other, ok := zones[s.zone.name]; ok {
			return core.Errorf("DuplicateSubnetsInSameZone", "Found another VPC endpoint subnet in the availability zone of %s (%s)", id, other)
		}
		zones[s.zone.name] = id
	}
	e.tables = setChange(e.tables, ch.addTables, ch.removeTables)
	e.subnets = subnets
	e.groups = setChange(e.groups, ch.addGroups, ch.removeGroups)
	return nil
}

// inVpc returns the resources of kind k that ids name, or get's error, or InvalidParameter for
// one outside the VPC vpc (which vpcOf tells for each).
func inVpc[T any](call *core.Call, m map[string]T, k kind, ids []string, vpc string, vpcOf func(T) string) ([]T, error) {
	var out []T
	for _, id := range ids {
		res, err := get(call, m, k, id)
		if err != nil {
			return nil, err
		}
		if vpcOf(res) != vpc {
			return nil, core.Errorf("InvalidParameter", "The %s '%s' is not in VPC %s.", k.noun, id, vpc)
		}
		out = append(out, res)
	}
	return out, nil
}

// setChange returns a sorted set with add added and remove removed.
func setChange(set, add, remove []string) []string {
	out := []string{}
	for _, id := range append(slices.Clone(set), add...) {
		if !slices.Contains(remove, id) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// applyEndpointRoutes adds the gateway endpoint's prefix-list route to the tables a change adds
// and takes it out of those it removes, as AWS does.
func (r *region) applyEndpointRoutes(e *vpcEndpoint, ch endpointChange, region string) {
	pl := e.service.prefixList(region)
	for _, id := range ch.addTables {
		if t := r.tables[id]; t != nil && t.findRoute(pl) < 0 {
			t.routes = append(t.routes, &route{dest: pl, destParam: destPrefixList, target: target{"vpcEndpointId", e.id}})
		}
	}
	for _, id := range ch.removeTables {
		if t := r.tables[id]; t != nil {
			if i := t.findRoute(pl); i >= 0 && t.routes[i].target.id == e.id {
				t.routes = append(t.routes[:i], t.routes[i+1:]...)
			}
		}
	}
}

// modifyVpcEndpoint changes an endpoint's route tables, subnets, security groups, policy and
// private DNS; a deleted or deleting endpoint is not found.
func (b *Backend) modifyVpcEndpoint(call *core.Call, in *ec2.ModifyVpcEndpointInput) (*ec2.ModifyVpcEndpointOutput, error) {
	return withGot(b, call, func(r *region) map[string]*vpcEndpoint { return r.endpoints }, vpceKind, in.VpcEndpointId, func(r *region, e *vpcEndpoint) (*ec2.ModifyVpcEndpointOutput, error) {
		if !e.deleted.IsZero() {
			return nil, vpceKind.missing(e.id)
		}
		switch {
		case in.PolicyDocument != nil && aws.ToBool(in.ResetPolicy):
			return nil, core.Errorf("InvalidParameterCombination", "PolicyDocument and ResetPolicy cannot be specified together.")
		case in.PrivateDnsEnabled != nil && e.endpointType == types.VpcEndpointTypeGateway:
			return nil, core.Errorf("InvalidParameter", "PrivateDnsEnabled is not supported for Gateway endpoints.")
		}
		ch := endpointChange{addTables: in.AddRouteTableIds, removeTables: in.RemoveRouteTableIds, addSubnets: in.AddSubnetIds,
			removeSubnets: in.RemoveSubnetIds, addGroups: in.AddSecurityGroupIds, removeGroups: in.RemoveSecurityGroupIds}
		if err := r.changeEndpoint(call, e, ch); err != nil {
			return nil, err
		}
		r.applyEndpointRoutes(e, ch, call.Region)
		switch {
		case in.PolicyDocument != nil:
			e.policy = *in.PolicyDocument
		case aws.ToBool(in.ResetPolicy):
			e.policy = defaultEndpointPolicy
		}
		if in.PrivateDnsEnabled != nil {
			e.privateDNS = *in.PrivateDnsEnabled
		}
		return &ec2.ModifyVpcEndpointOutput{Return: aws.Bool(true)}, nil
	})
}

// deleteVpcEndpoints starts deleting endpoints (deleting, then deleted on the clock) and takes
// their routes out of their route tables at once. Unknown or malformed ids are answered as
// Unsuccessful items, as AWS does, not as an error.
func (b *Backend) deleteVpcEndpoints(call *core.Call, in *ec2.DeleteVpcEndpointsInput) (*ec2.DeleteVpcEndpointsOutput, error) {
	if len(in.VpcEndpointIds) == 0 {
		return nil, core.Errorf("MissingParameter", "The request must contain the parameter VpcEndpointId")
	}
	return core.Locked(b.state, call, func(r *region) (*ec2.DeleteVpcEndpointsOutput, error) {
		r.purgeEndpoints(call.Now)
		out := &ec2.DeleteVpcEndpointsOutput{Unsuccessful: []types.UnsuccessfulItem{}}
		for _, id := range in.VpcEndpointIds {
			e, err := get(call, r.endpoints, vpceKind, id)
			if err == nil && e.state(call.Now) == vpceStateDeleted {
				err = vpceKind.missing(id)
			}
			if err != nil {
				var apiErr *core.APIError
				if !errors.As(err, &apiErr) {
					return nil, fmt.Errorf("delete vpc endpoint %s: %w", id, err)
				}
				out.Unsuccessful = append(out.Unsuccessful, types.UnsuccessfulItem{ResourceId: aws.String(id),
					Error: &types.UnsuccessfulItemError{Code: aws.String(apiErr.Code), Message: aws.String(apiErr.Message)}})
				continue
			}
			if e.deleted.IsZero() {
				r.applyEndpointRoutes(e, endpointChange{removeTables: e.tables}, call.Region)
				e.deleted, e.gone = call.Now, call.Now.Add(call.Transition)
			}
		}
		return out, nil
	})
}
