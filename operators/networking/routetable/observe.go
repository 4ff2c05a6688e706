package routetable

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a route table.
type State struct {
	// Table is DescribeRouteTables' answer, routes and associations included.
	Table types.RouteTable
}

// Observe finds the table (see ec2util.Source.Find), fills the status and plans the changes
// of its routes, subnet associations and tags. The table is Ready as soon as it exists.
func (d *driver) Observe(ctx context.Context, t *v1alpha1.RouteTable, req managed.Request) (managed.Observation[State], error) {
	rt, found, err := d.tables.Find(ctx, t)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	id, tags, assocs := aws.ToString(rt.RouteTableId), ec2util.Tags(rt.Tags), subnetAssociations(rt)
	t.Status.RouteTableID, t.Status.VPCID, t.Status.Associations = id, aws.ToString(rt.VpcId), associationStatus(assocs)
	obs := managed.Observation[State]{Exists: true, Ready: true, State: &State{Table: rt}, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	if t.Spec.VPCID != "" && aws.ToString(rt.VpcId) != t.Spec.VPCID {
		obs.Conflict = managed.Terminal(condition.ReasonInvalidSpec,
			"route table %s is in VPC %s, not the spec's %s; a route table cannot move", id, aws.ToString(rt.VpcId), t.Spec.VPCID)
	}
	d.planRoutes(&obs.Changes, id, desiredRoutes(t.Spec.Routes), observedRoutes(rt.Routes))
	d.planAssociations(&obs.Changes, id, t.Spec.SubnetIDs, assocs)
	ec2util.PlanTags(&obs.Changes, d.api, id, req.Tags, tags)
	return obs, nil
}
