package ec2

import (
	"net/netip"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// pcxKind names VPC peering connections in ids and errors, as AWS does
// (InvalidVpcPeeringConnectionID.NotFound: "The vpcPeeringConnection ID 'pcx-…' does not exist").
var pcxKind = kind{"pcx", "vpcPeeringConnection ID", "InvalidVpcPeeringConnectionID.NotFound", "InvalidVpcPeeringConnectionId.Malformed"}

// Peering connection states as AWS documents them (VpcPeeringConnectionStateReason).
const (
	pcxInitiating   = types.VpcPeeringConnectionStateReasonCodeInitiatingRequest
	pcxPending      = types.VpcPeeringConnectionStateReasonCodePendingAcceptance
	pcxProvisioning = types.VpcPeeringConnectionStateReasonCodeProvisioning
	pcxActive       = types.VpcPeeringConnectionStateReasonCodeActive
	pcxFailed       = types.VpcPeeringConnectionStateReasonCodeFailed
	pcxRejected     = types.VpcPeeringConnectionStateReasonCodeRejected
	pcxExpired      = types.VpcPeeringConnectionStateReasonCodeExpired
	pcxDeleting     = types.VpcPeeringConnectionStateReasonCodeDeleting
	pcxDeleted      = types.VpcPeeringConnectionStateReasonCodeDeleted
)

// pcxExpiry is how long a request waits for acceptance before it expires, as on AWS.
const pcxExpiry = 7 * 24 * time.Hour

// pcxRetention is how long a failed, rejected, expired or deleted connection stays visible. AWS
// keeps them for 2 hours to 2 days depending on the side and the state; the emulator keeps every
// one for 2 hours.
const pcxRetention = 2 * time.Hour

// pcxOverlapMessage is the status message of a request AWS could not make into a connection: the
// peer VPC does not exist in the peer account and region, or the CIDR blocks overlap.
const pcxOverlapMessage = "Failed due to incorrect VPC-ID, Account ID, or overlapping CIDR range"

// vpcPeering is one VPC peering connection, shared by its two sides: the requester's account and
// region and the accepter's. Its state follows from the clock through its lifecycle:
// initiating-request, then pending-acceptance (or failed); accepted: provisioning, then active;
// rejected, expired (7 days without an answer), or deleting then deleted. Each side keeps its own
// tags, in its own region's tag store, as on AWS.
type vpcPeering struct {
	core.Readable
	id                    string
	requester, accepter   core.Scope
	requesterVpc          string
	accepterVpc           string
	requesterCIDR         netip.Prefix
	accepterCIDR          netip.Prefix // zero when the peer VPC was not found
	requesterDNS          bool         // AllowDnsResolutionFromRemoteVpc of each side
	accepterDNS           bool
	created               time.Time
	life                  core.Lifecycle[types.VpcPeeringConnectionStateReasonCode]
	actor                 string    // the account that rejected or deleted it
	ended                 time.Time // when it reached a final state (failed, rejected, expired, deleted)
	failed                bool
	everActive, accepting bool
}

// status settles the connection's lifecycle at now and returns its state: a pending request
// past its expiry has expired.
func (p *vpcPeering) status(now time.Time) types.VpcPeeringConnectionStateReasonCode {
	s := p.life.Settle(now, nil)
	if s == pcxPending && !now.Before(p.created.Add(pcxExpiry)) {
		p.life = core.NewLifecycle(pcxExpired)
		p.ended = p.created.Add(pcxExpiry)
		return pcxExpired
	}
	if s == pcxActive {
		p.everActive = true
	}
	if final(s) && p.ended.IsZero() {
		p.ended = now
	}
	return s
}

// final reports whether a state is one a connection never leaves.
func final(s types.VpcPeeringConnectionStateReasonCode) bool {
	return s == pcxFailed || s == pcxRejected || s == pcxExpired || s == pcxDeleted
}

// message is the status message AWS writes for each state.
func (p *vpcPeering) message(s types.VpcPeeringConnectionStateReasonCode) string {
	switch s {
	case pcxInitiating:
		return "Initiating Request to " + p.accepter.Account
	case pcxPending:
		return "Pending Acceptance by " + p.accepter.Account
	case pcxProvisioning:
		return "Provisioning"
	case pcxActive:
		return "Active"
	case pcxFailed:
		return pcxOverlapMessage
	case pcxRejected:
		return "Rejected by " + p.actor
	case pcxExpired:
		return "Expired"
	case pcxDeleting:
		return "Deleting"
	}
	return "Deleted by " + p.actor
}

// sees reports whether the account and region of a state are one of the connection's sides.
func (p *vpcPeering) sees(scope core.Scope) bool {
	return p.requester == scope || p.accepter == scope
}

// peeringsHere returns the connections with a side in the region's account and region, by id.
func (r *region) peeringsHere() map[string]*vpcPeering {
	out := map[string]*vpcPeering{}
	for id, p := range r.peerings {
		if p.sees(r.scope) {
			out[id] = p
		}
	}
	return out
}

// visiblePeerings returns the connections the call sees in region r: those with a side here,
// that eventual consistency does not hide from the call.
func (r *region) visiblePeerings(call *core.Call) map[string]*vpcPeering {
	out := r.peeringsHere()
	for id, p := range out {
		if hidden(call, p) {
			delete(out, id)
		}
	}
	return out
}

// purgePeerings forgets the connections that ended more than pcxRetention ago, with each
// side's tags.
func (b *Backend) purgePeerings(r *region, now time.Time) {
	for id, p := range r.peerings {
		if s := p.status(now); final(s) && now.After(p.ended.Add(pcxRetention)) {
			delete(r.peerings, id)
			b.regionOf(p.requester).tags.Delete(id)
			b.regionOf(p.accepter).tags.Delete(id)
		}
	}
}

// regionOf returns the state of an account and region; the caller holds the backend's lock.
func (b *Backend) regionOf(scope core.Scope) *region {
	return b.state.Of(&core.Call{Account: scope.Account, Region: scope.Region})
}

// describePeering returns a connection as its side in region r sees it: both sides' CIDR blocks
// and options only once it is active ("CIDR block information is only returned when describing
// an active VPC peering connection", VpcPeeringConnection in the API reference), the
// expiration time while it waits for acceptance, and r's own tags.
func (r *region) describePeering(p *vpcPeering, now time.Time) types.VpcPeeringConnection {
	s := p.status(now)
	d := types.VpcPeeringConnection{VpcPeeringConnectionId: aws.String(p.id), Tags: r.tagList(p.id),
		Status: &types.VpcPeeringConnectionStateReason{Code: s, Message: aws.String(p.message(s))},
		RequesterVpcInfo: &types.VpcPeeringConnectionVpcInfo{OwnerId: aws.String(p.requester.Account), Region: aws.String(p.requester.Region),
			VpcId: aws.String(p.requesterVpc)},
		AccepterVpcInfo: &types.VpcPeeringConnectionVpcInfo{OwnerId: aws.String(p.accepter.Account), Region: aws.String(p.accepter.Region),
			VpcId: aws.String(p.accepterVpc)},
	}
	if s == pcxInitiating || s == pcxPending {
		d.ExpirationTime = aws.Time(p.created.Add(pcxExpiry))
	}
	if s == pcxActive || s == pcxDeleting || (s == pcxDeleted && p.everActive) {
		for side, cidr := range map[*types.VpcPeeringConnectionVpcInfo]string{d.RequesterVpcInfo: p.requesterCIDR.String(), d.AccepterVpcInfo: p.accepterCIDR.String()} {
			side.CidrBlock, side.CidrBlockSet = aws.String(cidr), []types.CidrBlock{{CidrBlock: aws.String(cidr)}}
		}
		d.RequesterVpcInfo.PeeringOptions = peeringOptions(p.requesterDNS)
		d.AccepterVpcInfo.PeeringOptions = peeringOptions(p.accepterDNS)
	}
	return d
}

// peeringOptions returns one side's options as AWS describes them; ClassicLink is retired, so
// its two options are always false.
func peeringOptions(dns bool) *types.VpcPeeringConnectionOptionsDescription {
	return &types.VpcPeeringConnectionOptionsDescription{AllowDnsResolutionFromRemoteVpc: aws.Bool(dns),
		AllowEgressFromLocalClassicLinkToRemoteVpc: aws.Bool(false), AllowEgressFromLocalVpcToRemoteClassicLink: aws.Bool(false)}
}

// peeringRoutable reports whether a route in table t (of the region r) may go through
// connection id: it must exist, be visible to the region's account, not have ended (AWS answers
// InvalidVpcPeeringConnectionID.NotFound), and join the table's VPC (else the networks differ).
// A connection not yet active is accepted: AWS shows the route as a blackhole until it is.
func (r *region) peeringRoutable(call *core.Call, t *routeTable, id string) error {
	p, err := get(call, r.visiblePeerings(call), pcxKind, id)
	if err != nil {
		return err
	}
	if final(p.status(call.Now)) || p.status(call.Now) == pcxDeleting {
		return pcxKind.missing(id)
	}
	if !(p.requester == r.scope && p.requesterVpc == t.vpc) && !(p.accepter == r.scope && p.accepterVpc == t.vpc) {
		return core.Errorf("InvalidParameterValue", "route table %s and network gateway %s belong to different networks", t.id, id)
	}
	return nil
}

// peeringActive reports whether a route through connection id carries traffic: the connection
// is active. Otherwise AWS shows the route as a blackhole.
func (r *region) peeringActive(id string, now time.Time) bool {
	p, ok := r.peerings[id]
	return ok && p.status(now) == pcxActive
}
