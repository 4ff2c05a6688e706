package ec2

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// associated is the state of every route table association the emulator makes.
func associated() *types.RouteTableAssociationState {
	return &types.RouteTableAssociationState{State: types.RouteTableAssociationStateCodeAssociated}
}

// association finds a route table association: its table and, unless it is the main
// association, its subnet.
func (r *region) association(id string) (t *routeTable, subnet string, err error) {
	if err := assocKind.check(id); err != nil {
		return nil, "", err
	}
	for _, t := range r.tables {
		if t.mainAssoc == id {
			return t, "", nil
		}
		if s, ok := t.assocs[id]; ok {
			return t, s, nil
		}
	}
	return nil, "", assocKind.missing(id)
}

// sameNetwork refuses to join a route table and a subnet (or table) of different VPCs.
func sameNetwork(t *routeTable, vpc, other string) error {
	if t.vpc != vpc {
		return core.Errorf("InvalidParameterValue", "Route table %s and %s belong to different networks", t.id, other)
	}
	return nil
}

// associateRouteTable associates a subnet with a table; a subnet has at most one explicit
// association.
func (b *Backend) associateRouteTable(call *core.Call, in *ec2.AssociateRouteTableInput) (*ec2.AssociateRouteTableOutput, error) {
	if in.GatewayId != nil || in.PublicIpv4Pool != nil {
		return nil, core.Errorf("UnsupportedOperation", "The emulator associates route tables with subnets only.")
	}
	if err := required("subnetId", in.SubnetId); err != nil {
		return nil, err
	}
	return withGot(b, call, func(r *region) map[string]*routeTable { return r.tables }, rtbKind, in.RouteTableId, func(r *region, t *routeTable) (*ec2.AssociateRouteTableOutput, error) {
		s, err := get(call, r.subnets, subnetKind, aws.ToString(in.SubnetId))
		if err != nil {
			return nil, err
		}
		if err := sameNetwork(t, s.vpc, "subnet "+s.id); err != nil {
			return nil, err
		}
		for _, other := range r.tables {
			for _, sub := range other.assocs {
				if sub == s.id {
					return nil, core.Errorf("Resource.AlreadyAssociated", "the specified association for route table %s conflicts with an existing association", t.id)
				}
			}
		}
		id := newID("rtbassoc")
		t.assocs[id] = s.id
		return &ec2.AssociateRouteTableOutput{AssociationId: aws.String(id), AssociationState: associated()}, nil
	})
}

// disassociateRouteTable removes a subnet association; the main association cannot be removed,
// only replaced.
func (b *Backend) disassociateRouteTable(call *core.Call, in *ec2.DisassociateRouteTableInput) (*ec2.DisassociateRouteTableOutput, error) {
	b.state.Lock()
	defer b.state.Unlock()
	id := aws.ToString(in.AssociationId)
	t, subnet, err := b.state.Of(call).association(id)
	if err != nil {
		return nil, err
	}
	if subnet == "" {
		return nil, core.Errorf("InvalidParameterValue", "cannot disassociate the main route table association %s", id)
	}
	delete(t.assocs, id)
	return &ec2.DisassociateRouteTableOutput{}, nil
}

// replaceRouteTableAssociation moves an association (a subnet's, or the VPC's main one) to
// another table of the VPC under a new association id.
func (b *Backend) replaceRouteTableAssociation(call *core.Call, in *ec2.ReplaceRouteTableAssociationInput) (*ec2.ReplaceRouteTableAssociationOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.ReplaceRouteTableAssociationOutput, error) {
		old, subnet, err := r.association(aws.ToString(in.AssociationId))
		if err != nil {
			return nil, err
		}
		t, err := get(call, r.tables, rtbKind, aws.ToString(in.RouteTableId))
		if err != nil {
			return nil, err
		}
		if err := sameNetwork(t, old.vpc, "route table "+old.id); err != nil {
			return nil, err
		}
		id := newID("rtbassoc")
		if subnet == "" {
			old.mainAssoc, t.mainAssoc = "", id
		} else {
			delete(old.assocs, aws.ToString(in.AssociationId))
			t.assocs[id] = subnet
		}
		return &ec2.ReplaceRouteTableAssociationOutput{NewAssociationId: aws.String(id), AssociationState: associated()}, nil
	})
}
