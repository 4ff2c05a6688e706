package natgateway

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a NAT gateway.
type State struct {
	// Gateway is DescribeNatGateways' answer; nil once the gateway is deleted.
	Gateway *types.NatGateway
	// Address is the Elastic IP the operator allocated for the gateway, set only while the
	// object is being deleted, the gateway is gone and the address is still to be released.
	Address *types.Address
}

// Observe finds the gateway (see ec2util.Source.Find), fills the status and plans the changes
// that bring it in line with the spec.
//
// A deleted gateway does not exist, except while the object is being deleted and the Elastic
// IP the operator allocated for it is not released yet. A deleting gateway is busy: a
// replacement is made only once it is deleted, when its address is free. A failed gateway is
// terminal until the spec changes after the failure was reported; then it is replaced.
func (d *driver) Observe(ctx context.Context, g *v1alpha1.NATGateway, req managed.Request) (managed.Observation[State], error) {
	gw, found, err := d.gateways.Find(ctx, g)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if found {
		fillStatus(g, gw)
	}
	if !found || gw.State == types.NatGatewayStateDeleted {
		return d.observeGone(ctx, g, req.Deleting)
	}
	st, id, tags := &State{Gateway: &gw}, aws.ToString(gw.NatGatewayId), ec2util.Tags(gw.Tags)
	switch {
	case req.Deleting:
		// Being deleted: the spec (whose references are not resolved now) no longer matters.
		return managed.Observation[State]{Exists: true, State: st, Tags: tags}, nil
	case gw.State == types.NatGatewayStateDeleting:
		return managed.Observation[State]{Exists: true, Busy: true, State: st, Message: "NAT gateway " + id + " is deleting",
			Uncompared: []string{"state (deleting)"}}, nil
	case gw.State == types.NatGatewayStateFailed && req.StalledBefore == condition.ReasonNATGatewayFailed:
		// The spec changed after the failure was reported: the gateway is deleted, and a new
		// one is created once it is.
		obs := managed.Observation[State]{Exists: true, State: st, Message: "NAT gateway " + id + " failed"}
		obs.Changes.Add("state (failed)", func(ctx context.Context) error { return d.deleteGateway(ctx, id) })
		return obs, nil
	case gw.State == types.NatGatewayStateFailed:
		return managed.Observation[State]{}, managed.Terminal(condition.ReasonNATGatewayFailed,
			"NAT gateway %s failed: %s: %s; remove the cause, then change the spec (a tag will do) to replace it",
			id, aws.ToString(gw.FailureCode), aws.ToString(gw.FailureMessage))
	}
	obs := managed.Observation[State]{Exists: true, State: st, Ready: gw.State == types.NatGatewayStateAvailable,
		Tags: tags, Conflict: createdAsSpecified(g, gw)}
	if !obs.Ready {
		obs.Busy, obs.Message = true, "NAT gateway "+id+" is "+string(gw.State)
	}
	ec2util.PlanTags(&obs.Changes, d.api, id, req.Tags, tags)
	return obs, nil
}

// observeGone reports a gateway that does not exist (any more). While the object is being
// deleted, the Elastic IP the operator allocated for it keeps it existing until Delete has
// released the address.
func (d *driver) observeGone(ctx context.Context, g *v1alpha1.NATGateway, deleting bool) (managed.Observation[State], error) {
	if !deleting {
		return managed.Observation[State]{}, nil
	}
	addr, found, err := d.allocatedAddress(ctx, g)
	if err != nil || !found {
		return managed.Observation[State]{}, err
	}
	return managed.Observation[State]{Exists: true, State: &State{Address: &addr}}, nil
}

// fillStatus copies what AWS said about the gateway into the status.
func fillStatus(g *v1alpha1.NATGateway, gw types.NatGateway) {
	g.Status.NATGatewayID, g.Status.SubnetID, g.Status.State = aws.ToString(gw.NatGatewayId), aws.ToString(gw.SubnetId), string(gw.State)
	g.Status.FailureCode, g.Status.FailureMessage = aws.ToString(gw.FailureCode), aws.ToString(gw.FailureMessage)
	g.Status.PrivateIP, g.Status.PublicIP, g.Status.AllocationID = "", "", ""
	for _, a := range gw.NatGatewayAddresses {
		if a.IsPrimary == nil || aws.ToBool(a.IsPrimary) {
			g.Status.PrivateIP, g.Status.PublicIP, g.Status.AllocationID = aws.ToString(a.PrivateIp), aws.ToString(a.PublicIp), aws.ToString(a.AllocationId)
			break
		}
	}
}

// createdAsSpecified refuses a gateway whose placement is not the spec's (an adopted gateway,
// or a spec that names another subnet or Elastic IP than the gateway was made with).
func createdAsSpecified(g *v1alpha1.NATGateway, gw types.NatGateway) error {
	id := aws.ToString(gw.NatGatewayId)
	switch {
	case g.Spec.SubnetID != "" && aws.ToString(gw.SubnetId) != g.Spec.SubnetID:
		return managed.Terminal(condition.ReasonInvalidSpec, "NAT gateway %s is in subnet %s, not the spec's %s; a NAT gateway cannot move",
			id, aws.ToString(gw.SubnetId), g.Spec.SubnetID)
	case string(gw.ConnectivityType) != connectivity(g):
		return managed.Terminal(condition.ReasonInvalidSpec, "NAT gateway %s is %s, not %s as the spec says; the connectivity type cannot change",
			id, gw.ConnectivityType, connectivity(g))
	case g.Spec.AllocationID != "" && g.Status.AllocationID != g.Spec.AllocationID:
		return managed.Terminal(condition.ReasonInvalidSpec, "NAT gateway %s has the Elastic IP %s, not the spec's %s; its address cannot change",
			id, g.Status.AllocationID, g.Spec.AllocationID)
	}
	return nil
}

// connectivity returns the spec's connectivity type, public when unset.
func connectivity(g *v1alpha1.NATGateway) string {
	if g.Spec.ConnectivityType == "" {
		return string(types.ConnectivityTypePublic)
	}
	return g.Spec.ConnectivityType
}
