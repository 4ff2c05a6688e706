package vpcpeeringconnection

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a VPC peering connection.
type State struct {
	// Connection is DescribeVpcPeeringConnections' answer.
	Connection types.VpcPeeringConnection
}

// Observe finds the connection (by its recorded id, else by its ownership tags) and fills the
// status. A request pending acceptance is accepted, as a planned change, by the account that
// may (acceptor); when the operator cannot act for that account it waits with
// AwaitingAcceptance, naming the account. An active connection is Ready, with both sides' DNS
// options and the tags planned. A failed, rejected or expired connection is terminal; a
// deleted one does not exist.
func (d *driver) Observe(ctx context.Context, o *v1alpha1.VPCPeeringConnection, req managed.Request) (managed.Observation[State], error) {
	c, found, err := d.connections.Find(ctx, o)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if !found || code(c) == types.VpcPeeringConnectionStateReasonCodeDeleted || (req.Deleting && ended(c) && code(c) != types.VpcPeeringConnectionStateReasonCodeDeleting) {
		return managed.Observation[State]{}, nil
	}
	fillStatus(o, c)
	id, tags := aws.ToString(c.VpcPeeringConnectionId), ec2util.Tags(c.Tags)
	obs := managed.Observation[State]{Exists: true, State: &State{Connection: c}, Tags: tags}
	switch s := code(c); {
	case req.Deleting:
		return obs, nil
	case ended(c) && s != types.VpcPeeringConnectionStateReasonCodeDeleting:
		return obs, managed.Terminal(condition.ReasonPeeringFailed, "VPC peering connection %s is %s: %s; fix the cause and create a new VPCPeeringConnection",
			id, s, aws.ToString(c.Status.Message))
	case s == types.VpcPeeringConnectionStateReasonCodePendingAcceptance:
		return d.pending(ctx, o, c, obs, req)
	case s != types.VpcPeeringConnectionStateReasonCodeActive:
		obs.Busy, obs.Message, obs.Uncompared = true, "VPC peering connection "+id+" is "+string(s), []string{"status (" + string(s) + ")"}
		return obs, nil
	}
	obs.Ready = true
	obs.Conflict = createdAsSpecified(o, c)
	if err := d.planOptions(ctx, &obs.Changes, o, c); err != nil {
		return obs, err
	}
	ec2util.PlanTags(&obs.Changes, d.api, id, req.Tags, tags)
	return obs, nil
}

// pending plans the acceptance of a connection waiting for it, through the account that owns
// the peer VPC, or waits with AwaitingAcceptance when the operator cannot act for that account.
func (d *driver) pending(ctx context.Context, o *v1alpha1.VPCPeeringConnection, c types.VpcPeeringConnection, obs managed.Observation[State],
	req managed.Request,
) (managed.Observation[State], error) {
	id, owner := aws.ToString(c.VpcPeeringConnectionId), aws.ToString(c.AccepterVpcInfo.OwnerId)
	api, ok, err := d.acceptor(ctx, o, c)
	switch {
	case err != nil:
		return obs, err
	case !ok:
		return obs, managed.Waiting(condition.ReasonAwaitingAcceptance, "VPC peering connection %s is pending acceptance by account %s, the owner of VPC %s: "+
			"accept it in that account, or name an AWSProvider of that account in spec.accepterProviderRef", id, owner, aws.ToString(c.AccepterVpcInfo.VpcId))
	}
	obs.Message = "VPC peering connection " + id + " is pending acceptance by account " + owner
	obs.Changes.Add("acceptance", func(ctx context.Context) error { return d.accept(ctx, o, c, api) })
	ec2util.PlanTags(&obs.Changes, d.api, id, req.Tags, obs.Tags)
	return obs, nil
}

// acceptor returns the EC2 client of the peer VPC's account, which accepts the connection and
// sets the accepter side's options: the provider's own for a peer of the same account, else
// accepterProviderRef's (resolved as providerRef is, and refused unless it is the peer owner's
// account); ok is false when the spec names no provider of that account.
func (d *driver) acceptor(ctx context.Context, o *v1alpha1.VPCPeeringConnection, c types.VpcPeeringConnection) (*ec2.Client, bool, error) {
	if sameAccount(c) {
		return d.api, true, nil
	}
	ref := o.Spec.AccepterProviderRef
	if ref == nil {
		return nil, false, nil
	}
	s, err := managed.SessionFor(ctx, *ref)
	if err != nil {
		return nil, false, err
	}
	account, err := s.AccountID(ctx)
	if err != nil {
		return nil, false, err
	}
	if owner := aws.ToString(c.AccepterVpcInfo.OwnerId); account != owner {
		return nil, false, managed.Terminal(condition.ReasonInvalidSpec, "spec.accepterProviderRef %s reaches account %s, not %s, the owner of the peer VPC %s",
			ref.Name, account, owner, aws.ToString(c.AccepterVpcInfo.VpcId))
	}
	return ec2util.Client(s), true, nil
}

// accept accepts the connection through api, the peer account's client. Accepting joins the
// peer VPC's routing domain: a peer VPC named by id must be one an object of the namespace made
// (managed.CheckForeignWrite, operator flag --foreign-write-namespaces); peerVPCRef names the
// namespace's own.
func (d *driver) accept(ctx context.Context, o *v1alpha1.VPCPeeringConnection, c types.VpcPeeringConnection, api *ec2.Client) error {
	id, peer := aws.ToString(c.VpcPeeringConnectionId), aws.ToString(c.AccepterVpcInfo.VpcId)
	if o.Spec.PeerVPCRef == nil {
		if err := checkForeignVPC(ctx, api, o, peer); err != nil {
			return err
		}
	}
	_, err := api.AcceptVpcPeeringConnection(ctx, &ec2.AcceptVpcPeeringConnectionInput{VpcPeeringConnectionId: aws.String(id)})
	return managed.Wrap(err, "accept VPC peering connection %s into VPC %s", id, peer)
}

// planOptions plans, for an active connection, one ModifyVpcPeeringConnectionOptions per
// account for the DNS resolution options that differ from the spec (unset is false): the
// requester side through the provider, the accepter side through the account that accepted
// (both in one call within one account). The accepter side of another account is compared only
// with accepterProviderRef; without it, that side is its owner's.
func (d *driver) planOptions(ctx context.Context, p *managed.Plan, o *v1alpha1.VPCPeeringConnection, c types.VpcPeeringConnection) error {
	id := aws.ToString(c.VpcPeeringConnectionId)
	requester := &ec2.ModifyVpcPeeringConnectionOptionsInput{VpcPeeringConnectionId: aws.String(id)}
	var fields []string
	values := map[string]managed.Values{}
	if have, want := dnsOption(c.RequesterVpcInfo), wanted(o.Spec.RequesterOptions); have != want {
		fields = append(fields, "requesterOptions.allowDNSResolutionFromRemoteVPC")
		values[fields[0]] = managed.ValuesOf(have, want)
		requester.RequesterPeeringConnectionOptions = &types.PeeringConnectionOptionsRequest{AllowDnsResolutionFromRemoteVpc: aws.Bool(want)}
	}
	const accepterField = "accepterOptions.allowDNSResolutionFromRemoteVPC"
	have, want := dnsOption(c.AccepterVpcInfo), wanted(o.Spec.AccepterOptions)
	if have != want && (sameAccount(c) || o.Spec.AccepterProviderRef != nil) {
		options := &types.PeeringConnectionOptionsRequest{AllowDnsResolutionFromRemoteVpc: aws.Bool(want)}
		if sameAccount(c) {
			fields = append(fields, accepterField)
			values[accepterField] = managed.ValuesOf(have, want)
			requester.AccepterPeeringConnectionOptions = options
		} else {
			api, _, err := d.acceptor(ctx, o, c)
			if err != nil {
				return err
			}
			p.AddFieldValues([]string{accepterField}, map[string]managed.Values{accepterField: managed.ValuesOf(have, want)}, func(ctx context.Context) error {
				_, err := api.ModifyVpcPeeringConnectionOptions(ctx, &ec2.ModifyVpcPeeringConnectionOptionsInput{VpcPeeringConnectionId: aws.String(id),
					AccepterPeeringConnectionOptions: options})
				return managed.Wrap(err, "set the accepter options of VPC peering connection %s", id)
			})
		}
	}
	if len(fields) > 0 {
		p.AddFieldValues(fields, values, func(ctx context.Context) error {
			_, err := d.api.ModifyVpcPeeringConnectionOptions(ctx, requester)
			return managed.Wrap(err, "set the options of VPC peering connection %s", id)
		})
	}
	return nil
}

// dnsOption returns a side's AllowDnsResolutionFromRemoteVpc as AWS describes it.
func dnsOption(side *types.VpcPeeringConnectionVpcInfo) bool {
	return side != nil && side.PeeringOptions != nil && aws.ToBool(side.PeeringOptions.AllowDnsResolutionFromRemoteVpc)
}

// wanted returns the spec's AllowDNSResolutionFromRemoteVPC for a side (unset is false).
func wanted(o *v1alpha1.VPCPeeringOptions) bool {
	return o != nil && aws.ToBool(o.AllowDNSResolutionFromRemoteVPC)
}

// fillStatus copies what AWS said about the connection into the status.
func fillStatus(o *v1alpha1.VPCPeeringConnection, c types.VpcPeeringConnection) {
	o.Status.VPCPeeringConnectionID = aws.ToString(c.VpcPeeringConnectionId)
	o.Status.Status, o.Status.StatusMessage = string(code(c)), ""
	if c.Status != nil {
		o.Status.StatusMessage = aws.ToString(c.Status.Message)
	}
	// AWS shows the CIDR blocks of an active connection only: the last ones seen are kept.
	if c.RequesterVpcInfo != nil && c.RequesterVpcInfo.CidrBlock != nil {
		o.Status.RequesterCIDRBlock = aws.ToString(c.RequesterVpcInfo.CidrBlock)
	}
	if c.AccepterVpcInfo != nil {
		o.Status.AccepterOwnerID = aws.ToString(c.AccepterVpcInfo.OwnerId)
		if c.AccepterVpcInfo.CidrBlock != nil {
			o.Status.AccepterCIDRBlock = aws.ToString(c.AccepterVpcInfo.CidrBlock)
		}
	}
}

// createdAsSpecified refuses a connection whose VPCs are not the spec's (an adopted connection,
// or a spec that names other VPCs than the connection joins).
func createdAsSpecified(o *v1alpha1.VPCPeeringConnection, c types.VpcPeeringConnection) error {
	id := aws.ToString(c.VpcPeeringConnectionId)
	requester, peer := aws.ToString(c.RequesterVpcInfo.VpcId), aws.ToString(c.AccepterVpcInfo.VpcId)
	switch {
	case o.Spec.VPCID != "" && requester != o.Spec.VPCID:
		return managed.Terminal(condition.ReasonInvalidSpec, "VPC peering connection %s is requested by VPC %s, not the spec's %s; a connection cannot move", id, requester, o.Spec.VPCID)
	case o.Spec.PeerVPCID != "" && peer != o.Spec.PeerVPCID:
		return managed.Terminal(condition.ReasonInvalidSpec, "VPC peering connection %s joins VPC %s, not the spec's %s; a connection cannot move", id, peer, o.Spec.PeerVPCID)
	}
	return nil
}
