package ec2

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// createVpcPeeringConnection requests a connection from one of the caller's VPCs to a peer VPC in
// PeerOwnerId's account (the caller's by default) and PeerRegion (the call's by default). It is
// initiating-request for the transition, then pending-acceptance, or failed with AWS's message
// when the peer VPC does not exist there or the two VPCs' CIDR blocks overlap. The API has no
// client token: every call makes a new connection, as on AWS. Tags go to the requester's side.
func (b *Backend) createVpcPeeringConnection(call *core.Call, in *ec2.CreateVpcPeeringConnectionInput) (*ec2.CreateVpcPeeringConnectionOutput, error) {
	if err := required("VpcId", in.VpcId); err != nil {
		return nil, err
	}
	if err := required("PeerVpcId", in.PeerVpcId); err != nil {
		return nil, err
	}
	if err := vpcKind.check(aws.ToString(in.PeerVpcId)); err != nil {
		return nil, err
	}
	tags, err := specTags(in.TagSpecifications, types.ResourceTypeVpcPeeringConnection)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ec2.CreateVpcPeeringConnectionOutput, error) {
		b.purgePeerings(r, call.Now)
		v, err := get(call, r.vpcs, vpcKind, aws.ToString(in.VpcId))
		if err != nil {
			return nil, err
		}
		peer := core.Scope{Account: call.Account, Region: call.Region}
		if in.PeerOwnerId != nil {
			peer.Account = aws.ToString(in.PeerOwnerId)
		}
		if in.PeerRegion != nil {
			peer.Region = aws.ToString(in.PeerRegion)
		}
		p := &vpcPeering{Readable: core.ReadableAfter(call), id: newID("pcx"), requester: r.scope, accepter: peer,
			requesterVpc: v.id, accepterVpc: aws.ToString(in.PeerVpcId), requesterCIDR: v.cidr, created: call.Now}
		rest := pcxPending
		if pv, ok := b.regionOf(peer).vpcs[p.accepterVpc]; !ok || pv.cidr.Overlaps(v.cidr) {
			rest, p.failed = pcxFailed, true
		} else {
			p.accepterCIDR = pv.cidr
		}
		p.life = core.NewLifecycle(rest)
		p.life.Start(pcxInitiating, call.Now, call.Transition)
		if err := r.tags.Merge(tags, p.id); err != nil {
			return nil, err
		}
		r.peerings[p.id] = p
		d := r.describePeering(p, call.Now)
		return &ec2.CreateVpcPeeringConnectionOutput{VpcPeeringConnection: &d}, nil
	})
}

// describeVpcPeeringConnections lists the connections with a side in the caller's account and
// region, by ids or filters, 5 to 1000 a page.
func (b *Backend) describeVpcPeeringConnections(call *core.Call, in *ec2.DescribeVpcPeeringConnectionsInput) (*ec2.DescribeVpcPeeringConnectionsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DescribeVpcPeeringConnectionsOutput, error) {
		b.purgePeerings(r, call.Now)
		out, next, err := describe(call, r.peeringsHere(), pcxKind, in.VpcPeeringConnectionIds, in.Filters, paging{in.MaxResults, in.NextToken, 5, 1000},
			func(id string, p *vpcPeering) view[types.VpcPeeringConnection] {
				d := r.describePeering(p, call.Now)
				req, acc := d.RequesterVpcInfo, d.AccepterVpcInfo
				return view[types.VpcPeeringConnection]{d, d.Tags, fields{"vpc-peering-connection-id": {id},
					"status-code": {string(d.Status.Code)}, "status-message": text(d.Status.Message),
					"requester-vpc-info.vpc-id": text(req.VpcId), "requester-vpc-info.owner-id": text(req.OwnerId),
					"requester-vpc-info.cidr-block": text(req.CidrBlock), "accepter-vpc-info.vpc-id": text(acc.VpcId),
					"accepter-vpc-info.owner-id": text(acc.OwnerId), "accepter-vpc-info.cidr-block": text(acc.CidrBlock),
					"expiration-time": timeText(d.ExpirationTime)}}
			})
		return &ec2.DescribeVpcPeeringConnectionsOutput{VpcPeeringConnections: out, NextToken: next}, err
	})
}

// timeText is a time filter field, in EC2's ISO 8601 form; none when unset.
func timeText(t *time.Time) []string {
	if t == nil {
		return nil
	}
	return []string{t.UTC().Format("2006-01-02T15:04:05.000Z")}
}

// acceptVpcPeeringConnection accepts a pending request: only the accepter's account may, in the
// accepter's region (OperationNotPermitted otherwise, with AWS's texts), and only while it is
// pending-acceptance (InvalidStateTransition). It is provisioning for the transition, then
// active.
func (b *Backend) acceptVpcPeeringConnection(call *core.Call, in *ec2.AcceptVpcPeeringConnectionInput) (*ec2.AcceptVpcPeeringConnectionOutput, error) {
	return withPeering(b, call, in.VpcPeeringConnectionId, func(r *region, p *vpcPeering) (*ec2.AcceptVpcPeeringConnectionOutput, error) {
		if err := p.answeredBy(r.scope, "accept"); err != nil {
			return nil, err
		}
		if s := p.status(call.Now); s != pcxPending {
			return nil, invalidTransition(p.id, s, pcxProvisioning)
		}
		p.life = core.NewLifecycle(pcxActive)
		p.life.Start(pcxProvisioning, call.Now, call.Transition)
		d := r.describePeering(p, call.Now)
		return &ec2.AcceptVpcPeeringConnectionOutput{VpcPeeringConnection: &d}, nil
	})
}

// rejectVpcPeeringConnection rejects a pending request, with the same rules as accepting it.
func (b *Backend) rejectVpcPeeringConnection(call *core.Call, in *ec2.RejectVpcPeeringConnectionInput) (*ec2.RejectVpcPeeringConnectionOutput, error) {
	return withPeering(b, call, in.VpcPeeringConnectionId, func(r *region, p *vpcPeering) (*ec2.RejectVpcPeeringConnectionOutput, error) {
		if err := p.answeredBy(r.scope, "reject"); err != nil {
			return nil, err
		}
		if s := p.status(call.Now); s != pcxPending {
			return nil, invalidTransition(p.id, s, pcxRejected)
		}
		p.life, p.actor, p.ended = core.NewLifecycle(pcxRejected), call.Account, call.Now
		return &ec2.RejectVpcPeeringConnectionOutput{Return: aws.Bool(true)}, nil
	})
}

// deleteVpcPeeringConnection deletes a connection: either side may delete an active one, the
// requester a request still waiting (the accepter rejects it instead). It is deleting for the
// transition, then deleted, and its routes become blackholes. A connection that has ended
// answers InvalidStateTransition.
func (b *Backend) deleteVpcPeeringConnection(call *core.Call, in *ec2.DeleteVpcPeeringConnectionInput) (*ec2.DeleteVpcPeeringConnectionOutput, error) {
	return withPeering(b, call, in.VpcPeeringConnectionId, func(r *region, p *vpcPeering) (*ec2.DeleteVpcPeeringConnectionOutput, error) {
		switch s := p.status(call.Now); {
		case final(s) || s == pcxDeleting:
			return nil, invalidTransition(p.id, s, pcxDeleting)
		case (s == pcxInitiating || s == pcxPending) && r.scope != p.requester:
			return nil, core.Errorf("OperationNotPermitted", "User (%s) cannot delete peering %s; reject it instead", call.Account, p.id)
		}
		p.end(call)
		return &ec2.DeleteVpcPeeringConnectionOutput{Return: aws.Bool(true)}, nil
	})
}

// end starts deleting the connection on the call's behalf.
func (p *vpcPeering) end(call *core.Call) {
	p.life, p.actor = core.NewLifecycle(pcxDeleted), call.Account
	p.life.Start(pcxDeleting, call.Now, call.Transition)
}

// modifyVpcPeeringConnectionOptions sets AllowDnsResolutionFromRemoteVpc on the requester's
// side, the accepter's, or both, of an active connection (InvalidStateTransition otherwise).
// Each side's options are changed from that side's account and region only
// (OperationNotPermitted), so a connection within one account and region takes both in one
// call, and a cross-account one needs a call from each owner, as on AWS. ClassicLink is
// retired: its options may not be turned on.
func (b *Backend) modifyVpcPeeringConnectionOptions(call *core.Call, in *ec2.ModifyVpcPeeringConnectionOptionsInput) (*ec2.ModifyVpcPeeringConnectionOptionsOutput, error) {
	if in.RequesterPeeringConnectionOptions == nil && in.AccepterPeeringConnectionOptions == nil {
		return nil, core.Errorf("MissingParameter", "The request must contain the parameter RequesterPeeringConnectionOptions or AccepterPeeringConnectionOptions")
	}
	for _, o := range []*types.PeeringConnectionOptionsRequest{in.RequesterPeeringConnectionOptions, in.AccepterPeeringConnectionOptions} {
		if o != nil && (aws.ToBool(o.AllowEgressFromLocalClassicLinkToRemoteVpc) || aws.ToBool(o.AllowEgressFromLocalVpcToRemoteClassicLink)) {
			return nil, core.Errorf("UnsupportedOperation", "ClassicLink is no longer supported.")
		}
	}
	return withPeering(b, call, in.VpcPeeringConnectionId, func(r *region, p *vpcPeering) (*ec2.ModifyVpcPeeringConnectionOptionsOutput, error) {
		if s := p.status(call.Now); s != pcxActive {
			return nil, core.Errorf("InvalidStateTransition", "The options of VPC peering connection %s can be modified once it is active; it is %s", p.id, s)
		}
		out := &ec2.ModifyVpcPeeringConnectionOptionsOutput{}
		sides := []struct {
			opts  *types.PeeringConnectionOptionsRequest
			scope core.Scope
			name  string
			dns   *bool
			out   **types.PeeringConnectionOptions
		}{{in.RequesterPeeringConnectionOptions, p.requester, "requester", &p.requesterDNS, &out.RequesterPeeringConnectionOptions},
			{in.AccepterPeeringConnectionOptions, p.accepter, "accepter", &p.accepterDNS, &out.AccepterPeeringConnectionOptions}}
		for _, s := range sides {
			if s.opts != nil && s.scope != r.scope {
				return nil, core.Errorf("OperationNotPermitted", "Modifying %s options of peering connection %s must be performed by the %s account (%s) in region %s",
					s.name, p.id, s.name, s.scope.Account, s.scope.Region)
			}
		}
		for _, s := range sides {
			if s.opts == nil {
				continue
			}
			if s.opts.AllowDnsResolutionFromRemoteVpc != nil {
				*s.dns = *s.opts.AllowDnsResolutionFromRemoteVpc
			}
			*s.out = &types.PeeringConnectionOptions{AllowDnsResolutionFromRemoteVpc: aws.Bool(*s.dns),
				AllowEgressFromLocalClassicLinkToRemoteVpc: aws.Bool(false), AllowEgressFromLocalVpcToRemoteClassicLink: aws.Bool(false)}
		}
		return out, nil
	})
}

// withPeering runs f, holding the backend's lock, on the caller's region and the connection id
// names among those the caller sees there (InvalidVpcPeeringConnectionID.NotFound otherwise).
func withPeering[O any](b *Backend, call *core.Call, id *string, f func(r *region, p *vpcPeering) (O, error)) (O, error) {
	return withFound(b, call, func(r *region) (*vpcPeering, error) {
		if err := required("VpcPeeringConnectionId", id); err != nil {
			return nil, err
		}
		b.purgePeerings(r, call.Now)
		return get(call, r.visiblePeerings(call), pcxKind, aws.ToString(id))
	}, f)
}

// answeredBy refuses, with AWS's OperationNotPermitted texts, an accept or reject (verb) made
// from anywhere but the accepter's account and region.
func (p *vpcPeering) answeredBy(scope core.Scope, verb string) error {
	switch {
	case scope == p.accepter:
		return nil
	case scope.Account == p.accepter.Account:
		return core.Errorf("OperationNotPermitted", "Incorrect region (%s) specified for this request. VPC peering connection %s must be accepted or rejected in region %s",
			scope.Region, p.id, p.accepter.Region)
	}
	return core.Errorf("OperationNotPermitted", "User (%s) cannot %s peering %s", scope.Account, verb, p.id)
}

// invalidTransition is EC2's answer to a change the connection's state (from) does not allow
// (to): "Invalid state transition for pcx-…, attempted to transition from failed to deleting".
func invalidTransition(id string, from, to types.VpcPeeringConnectionStateReasonCode) *core.APIError {
	return core.Errorf("InvalidStateTransition", "Invalid state transition for %s, attempted to transition from %s to %s", id, from, to)
}

// endPeeringsOf deletes, on the caller's behalf, the connections of a VPC being deleted, as AWS
// does: a connection lives only as long as both of its VPCs.
func (r *region) endPeeringsOf(call *core.Call, vpcID string) {
	for _, p := range r.peeringsHere() {
		mine := (p.requester == r.scope && p.requesterVpc == vpcID) || (p.accepter == r.scope && p.accepterVpc == vpcID)
		if s := p.status(call.Now); mine && !final(s) && s != pcxDeleting {
			p.end(call)
		}
	}
}
