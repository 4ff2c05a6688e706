package ec2

import (
	"net/netip"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// natRetention is how long a deleted or failed NAT gateway stays visible, as on AWS.
const natRetention = time.Hour

// natGateway is one NAT gateway. Its state follows from the clock: pending until ready, then
// available (or failed, when failCode says why); once deleted is set, deleting until gone, then
// deleted.
type natGateway struct {
	core.Readable               // hidden from reads for a while after creation, under the ReadAfterCreateDelay fault
	id, subnet, vpc, allocation string
	connectivity                types.ConnectivityType
	token                       string
	eni, assoc                  string
	privateIP                   netip.Addr
	created, ready              time.Time
	deleted, gone               time.Time
	failCode, failMsg           string
}

func (n *natGateway) state(now time.Time) types.NatGatewayState {
	switch {
	case !n.deleted.IsZero() && now.Before(n.gone):
		return types.NatGatewayStateDeleting
	case !n.deleted.IsZero():
		return types.NatGatewayStateDeleted
	case now.Before(n.ready):
		return types.NatGatewayStatePending
	case n.failCode != "":
		return types.NatGatewayStateFailed
	}
	return types.NatGatewayStateAvailable
}

// holdsAddress reports whether the gateway occupies its network interface and Elastic IP: from
// creation until it is deleted, unless it failed.
func (n *natGateway) holdsAddress(now time.Time) bool {
	return n.failCode == "" && n.state(now) != types.NatGatewayStateDeleted
}

// expired reports whether a deleted or failed gateway has dropped out of sight.
func (n *natGateway) expired(now time.Time) bool {
	switch n.state(now) {
	case types.NatGatewayStateDeleted:
		return now.After(n.gone.Add(natRetention))
	case types.NatGatewayStateFailed:
		return now.After(n.ready.Add(natRetention))
	}
	return false
}

// purgeNats forgets the gateways that have dropped out of sight.
func (r *region) purgeNats(now time.Time) {
	for id, n := range r.nats {
		if n.expired(now) {
			delete(r.nats, id)
			r.tags.Delete(id)
			if r.natTokens[n.token] == id {
				delete(r.natTokens, n.token)
			}
		}
	}
}

func (r *region) describeNat(n *natGateway, call *core.Call) types.NatGateway {
	state := n.state(call.Now)
	d := types.NatGateway{NatGatewayId: aws.String(n.id), SubnetId: aws.String(n.subnet), VpcId: aws.String(n.vpc), State: state,
		ConnectivityType: n.connectivity, CreateTime: aws.Time(n.created), Tags: r.tagList(n.id)}
	addr := types.NatGatewayAddress{NetworkInterfaceId: aws.String(n.eni), PrivateIp: aws.String(n.privateIP.String()), IsPrimary: aws.Bool(true)}
	switch state {
	case types.NatGatewayStatePending:
		addr.Status = types.NatGatewayAddressStatusAssociating
	case types.NatGatewayStateDeleting:
		addr.Status = types.NatGatewayAddressStatusDisassociating
	default:
		addr.Status = types.NatGatewayAddressStatusSucceeded
	}
	if n.allocation != "" {
		addr.AllocationId = aws.String(n.allocation)
		if e, ok := r.eips[n.allocation]; ok && n.failCode == "" {
			addr.PublicIp = aws.String(e.ip.String())
		}
		if n.holdsAddress(call.Now) {
			addr.AssociationId = aws.String(n.assoc)
		}
	}
	if state == types.NatGatewayStateFailed {
		d.FailureCode, d.FailureMessage = aws.String(n.failCode), aws.String(n.failMsg)
		addr.Status, addr.FailureMessage = types.NatGatewayAddressStatusFailed, aws.String(n.failMsg)
	}
	if !n.deleted.IsZero() {
		d.DeleteTime = aws.Time(n.deleted)
	}
	d.NatGatewayAddresses = []types.NatGatewayAddress{addr}
	return d
}

// createNatGateway creates a gateway that becomes available on the clock. As on AWS, an Elastic
// IP another gateway holds, or a public gateway in a VPC without an internet gateway, is
// accepted and the gateway then fails (Resource.AlreadyAssociated, Gateway.NotAttached). A
// repeated ClientToken with the same parameters answers the gateway it created.
func (b *Backend) createNatGateway(call *core.Call, in *ec2.CreateNatGatewayInput) (*ec2.CreateNatGatewayOutput, error) {
	if err := required("SubnetId", in.SubnetId); err != nil {
		return nil, err
	}
	conn, err := enumParam(in.ConnectivityType, "connectivityType", types.ConnectivityTypePublic, types.ConnectivityTypePrivate)
	if err != nil {
		return nil, err
	}
	alloc := aws.ToString(in.AllocationId)
	switch {
	case conn == types.ConnectivityTypePublic && alloc == "":
		return nil, core.Errorf("MissingParameter", "The request must include the AllocationId parameter. Add the required parameter and retry the request.")
	case conn == types.ConnectivityTypePrivate && alloc != "":
		return nil, core.Errorf("InvalidParameterCombination", "A private NAT gateway cannot have an Elastic IP address.")
	case in.VpcId != nil || in.AvailabilityMode != "" || len(in.AvailabilityZoneAddresses) > 0 || len(in.SecondaryAllocationIds) > 0 ||
		in.SecondaryPrivateIpAddressCount != nil || len(in.SecondaryPrivateIpAddresses) > 0 || in.PrivateIpAddress != nil:
		return nil, core.Errorf("UnsupportedOperation", "The emulator models zonal NAT gateways with one address only.")
	}
	tags, err := specTags(in.TagSpecifications, types.ResourceTypeNatgateway)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*ec2.CreateNatGatewayOutput, error) {
		r.purgeNats(call.Now)
		token := aws.ToString(in.ClientToken)
		if id, ok := r.natTokens[token]; ok && token != "" {
			n := r.nats[id]
			if n.subnet != aws.ToString(in.SubnetId) || n.allocation != alloc || n.connectivity != conn {
				return nil, core.Errorf("IdempotentParameterMismatch", "The client token %s was already used with different parameters.", token)
			}
			d := r.describeNat(n, call)
			return &ec2.CreateNatGatewayOutput{ClientToken: in.ClientToken, NatGateway: &d}, nil
		}
		s, err := get(call, r.subnets, subnetKind, aws.ToString(in.SubnetId))
		if err != nil {
			return nil, err
		}
		n := &natGateway{Readable: core.ReadableAfter(call), id: newID("nat"), subnet: s.id, vpc: s.vpc, allocation: alloc, connectivity: conn, token: token,
			eni: newID("eni"), created: call.Now, ready: call.Now.Add(call.Transition)}
		if alloc != "" {
			e, err := get(call, r.eips, eipKind, alloc)
			if err != nil {
				return nil, err
			}
			if r.user(e, call) != nil {
				n.failCode, n.failMsg = "Resource.AlreadyAssociated", "Elastic IP address ["+alloc+"] is already associated"
			}
			n.assoc = newID("eipassoc")
		}
		if conn == types.ConnectivityTypePublic && n.failCode == "" && !r.hasInternetGateway(s.vpc) {
			n.failCode, n.failMsg = "Gateway.NotAttached", "Network "+s.vpc+" has no Internet gateway attached"
		}
		addrs := r.privateAddresses(s, call.Now, 1)
		if len(addrs) == 0 {
			return nil, core.Errorf("InsufficientFreeAddressesInSubnet", "There are not enough free addresses in subnet '%s' to satisfy the request.", s.id)
		}
		if err := r.tags.Merge(tags, n.id); err != nil {
			return nil, err
		}
		n.privateIP = addrs[0]
		r.nats[n.id] = n
		if token != "" {
			r.natTokens[token] = n.id
		}
		d := r.describeNat(n, call)
		return &ec2.CreateNatGatewayOutput{ClientToken: in.ClientToken, NatGateway: &d}, nil
	})
}

// hasInternetGateway reports whether an internet gateway is attached to a VPC.
func (r *region) hasInternetGateway(vpcID string) bool {
	for _, g := range r.igws {
		if g.vpc == vpcID {
			return true
		}
	}
	return false
}

func (b *Backend) describeNatGateways(call *core.Call, in *ec2.DescribeNatGatewaysInput) (*ec2.DescribeNatGatewaysOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DescribeNatGatewaysOutput, error) {
		r.purgeNats(call.Now)
		nats, next, err := describe(call, r.nats, natKind, in.NatGatewayIds, in.Filter, paging{in.MaxResults, in.NextToken, 5, 1000}, func(id string, n *natGateway) view[types.NatGateway] {
			d := r.describeNat(n, call)
			return view[types.NatGateway]{d, d.Tags, fields{"nat-gateway-id": {id}, "state": {string(d.State)}, "subnet-id": {n.subnet}, "vpc-id": {n.vpc}}}
		})
		return &ec2.DescribeNatGatewaysOutput{NatGateways: nats, NextToken: next}, err
	})
}

// deleteNatGateway starts deleting a gateway: deleting, then deleted on the clock, when its
// Elastic IP becomes free. Deleting a gateway already on its way is answered as a success.
func (b *Backend) deleteNatGateway(call *core.Call, in *ec2.DeleteNatGatewayInput) (*ec2.DeleteNatGatewayOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*ec2.DeleteNatGatewayOutput, error) {
		r.purgeNats(call.Now)
		n, err := get(call, r.nats, natKind, aws.ToString(in.NatGatewayId))
		if err != nil {
			return nil, err
		}
		if n.deleted.IsZero() {
			n.deleted, n.gone = call.Now, call.Now.Add(call.Transition)
		}
		return &ec2.DeleteNatGatewayOutput{NatGatewayId: aws.String(n.id)}, nil
	})
}
