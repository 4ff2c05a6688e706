package routetable

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a route table.
type State struct {
	// Table is DescribeRouteTables' answer, routes and associations included.
	Table types.RouteTable
}

// Observe reads the table (from the provider's listing at periodic syncs, directly
// otherwise), fills the status and compares its routes, subnet associations and tags with the
// spec. A table without a recorded id is looked up by its ownership tag. The table is Ready as
// soon as it exists.
func (d *driver) Observe(ctx context.Context, t *v1alpha1.RouteTable) (managed.Observation[State], error) {
	rt, found, err := d.tables.Find(ctx, d.listing, t)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	id := aws.ToString(rt.RouteTableId)
	assocs := subnetAssociations(rt)
	t.Status.RouteTableID, t.Status.VPCID, t.Status.Associations = id, aws.ToString(rt.VpcId), associationStatus(assocs)
	var conflict error
	if t.Spec.VPCID != "" && aws.ToString(rt.VpcId) != t.Spec.VPCID {
		conflict = managed.Terminal(managed.ReasonInvalidSpec,
			"route table %s is in VPC %s, not the spec's %s; a route table cannot move", id, aws.ToString(rt.VpcId), t.Spec.VPCID)
	}
	var diff managed.Diff
	create, replace, remove := routeChanges(desiredRoutes(t.Spec.Routes), observedRoutes(rt.Routes))
	diff.Check("routes", len(create)+len(replace)+len(remove) > 0)
	associate, disassociate := associationChanges(t.Spec.SubnetIDs, assocs)
	diff.Check("associations", len(associate)+len(disassociate) > 0)
	set, unset := managed.TagChanges(managed.DesiredTags(t, d.defaultTags), ec2util.Tags(rt.Tags))
	diff.Check("tags", len(set)+len(unset) > 0)
	return managed.Observation[State]{Exists: true, Ready: true, State: &State{Table: rt}, UpToDate: len(diff) == 0, Diff: diff.String(),
		Tags: ec2util.Tags(rt.Tags), Conflict: conflict}, nil
}
