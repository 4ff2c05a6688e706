package routetable

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the table with its ownership tags (the object's UID as the idempotency
// token) and records its id; the observation the engine makes right after, in the same pass,
// plans the routes and associations.
func (d *driver) Create(ctx context.Context, t *v1alpha1.RouteTable, req managed.Request) error {
	out, err := d.api.CreateRouteTable(ctx, &ec2.CreateRouteTableInput{
		VpcId:             aws.String(t.Spec.VPCID),
		ClientToken:       aws.String(string(t.UID)),
		TagSpecifications: ec2util.TagSpecifications(types.ResourceTypeRouteTable, req.Tags),
	})
	if err != nil {
		return fmt.Errorf("create route table in VPC %s: %w", t.Spec.VPCID, err)
	}
	managed.SetExternalName(t, aws.ToString(out.RouteTable.RouteTableId))
	return nil
}

// planRoutes plans, when the table's routes differ from want, one change that deletes the
// routes the spec does not have, points the routes whose target changed at the spec's, then
// creates the missing ones. Local routes are never touched. The plan shows the routes that
// change, by destination: their targets in AWS and in the spec.
func (d *driver) planRoutes(plan *managed.Plan, id string, want, have routeMap) {
	create, replace, remove := routeChanges(want, have)
	if len(create)+len(replace)+len(remove) == 0 {
		return
	}
	current, desired := map[string]string{}, map[string]string{}
	for _, dest := range slices.Concat(remove, replace) {
		current[dest.value] = have[dest].id
	}
	for _, dest := range slices.Concat(replace, create) {
		desired[dest.value] = want[dest].id
	}
	plan.AddValue("routes", current, desired, func(ctx context.Context) error {
		for _, dest := range remove {
			cidr, ipv6, pl := dest.params()
			_, err := d.api.DeleteRoute(ctx, &ec2.DeleteRouteInput{RouteTableId: aws.String(id), DestinationCidrBlock: cidr, DestinationIpv6CidrBlock: ipv6, DestinationPrefixListId: pl})
			if err != nil && !awserr.IsNotFound(err) {
				return fmt.Errorf("delete the route to %s from route table %s: %w", dest.value, id, err)
			}
		}
		for _, dest := range replace {
			cidr, ipv6, pl := dest.params()
			gw, nat, pcx, tgw, eni := want[dest].params()
			if _, err := d.api.ReplaceRoute(ctx, &ec2.ReplaceRouteInput{RouteTableId: aws.String(id), DestinationCidrBlock: cidr, DestinationIpv6CidrBlock: ipv6, DestinationPrefixListId: pl,
				GatewayId: gw, NatGatewayId: nat, VpcPeeringConnectionId: pcx, TransitGatewayId: tgw, NetworkInterfaceId: eni}); err != nil {
				return fmt.Errorf("replace the route to %s in route table %s: %w", dest.value, id, err)
			}
		}
		for _, dest := range create {
			cidr, ipv6, pl := dest.params()
			gw, nat, pcx, tgw, eni := want[dest].params()
			if _, err := d.api.CreateRoute(ctx, &ec2.CreateRouteInput{RouteTableId: aws.String(id), DestinationCidrBlock: cidr, DestinationIpv6CidrBlock: ipv6, DestinationPrefixListId: pl,
				GatewayId: gw, NatGatewayId: nat, VpcPeeringConnectionId: pcx, TransitGatewayId: tgw, NetworkInterfaceId: eni}); err != nil {
				return fmt.Errorf("create the route to %s in route table %s: %w", dest.value, id, err)
			}
		}
		return nil
	})
}

// planAssociations plans, when the table's subnet associations (have, association ids by
// subnet id) are not the subnets want, one change that disassociates the subnets the spec does
// not name, then associates the missing ones. The plan shows the associated subnets, sorted.
func (d *driver) planAssociations(plan *managed.Plan, id string, want []string, have map[string]string) {
	associate, disassociate := associationChanges(want, have)
	if len(associate)+len(disassociate) == 0 {
		return
	}
	plan.AddValue("associations", slices.Sorted(maps.Keys(have)), slices.Sorted(slices.Values(append([]string{}, want...))), func(ctx context.Context) error {
		if err := d.disassociate(ctx, id, disassociate); err != nil {
			return err
		}
		for _, s := range associate {
			if _, err := d.api.AssociateRouteTable(ctx, &ec2.AssociateRouteTableInput{RouteTableId: aws.String(id), SubnetId: aws.String(s)}); err != nil {
				return fmt.Errorf("associate route table %s with subnet %s: %w", id, s, err)
			}
		}
		return nil
	})
}

// disassociate removes the associations of route table id with the given ids; one already
// gone is success.
func (d *driver) disassociate(ctx context.Context, id string, associations []string) error {
	for _, a := range associations {
		if _, err := d.api.DisassociateRouteTable(ctx, &ec2.DisassociateRouteTableInput{AssociationId: aws.String(a)}); err != nil && !awserr.IsNotFound(err) {
			return fmt.Errorf("remove association %s of route table %s: %w", a, id, err)
		}
	}
	return nil
}

// Delete disassociates the table from its subnets, then deletes it.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.RouteTable, obs managed.Observation[State]) error {
	rt := obs.State.Table
	id := aws.ToString(rt.RouteTableId)
	_, all := associationChanges(nil, subnetAssociations(rt))
	if err := d.disassociate(ctx, id, all); err != nil {
		return err
	}
	_, err := d.api.DeleteRouteTable(ctx, &ec2.DeleteRouteTableInput{RouteTableId: aws.String(id)})
	return ec2util.Deleted(err, "route table", id)
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.RouteTable, obs managed.Observation[State]) error {
	return ec2util.ReleaseOwnership(ctx, d.api, aws.ToString(obs.State.Table.RouteTableId))
}
