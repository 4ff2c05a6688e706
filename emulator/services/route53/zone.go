package route53

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxZones is the quota of hosted zones an account may have.
const maxZones = 500

// The TTLs and SOA data AWS gives the records of a new hosted zone.
const (
	soaTTL  = 900
	nsTTL   = 172800
	soaTail = ". awsdns-hostmaster.amazon.com. 1 7200 900 1209600 86400"
)

// zone is a hosted zone with its record sets.
type zone struct {
	id, name, callerReference, comment string
	private                            bool
	vpcs                               []types.VPC
	nameServers                        []string
	records                            records
}

// view returns the zone as the SDK's HostedZone.
func (z *zone) view() types.HostedZone {
	return types.HostedZone{Id: aws.String("/hostedzone/" + z.id), Name: aws.String(z.name), CallerReference: aws.String(z.callerReference),
		Config:                 &types.HostedZoneConfig{Comment: optional(z.comment), PrivateZone: z.private},
		ResourceRecordSetCount: aws.Int64(int64(len(z.records)))}
}

// delegationSet returns the name servers of a public zone, nil for a private one.
func (z *zone) delegationSet() *types.DelegationSet {
	if z.private {
		return nil
	}
	return &types.DelegationSet{NameServers: z.nameServers}
}

// optional returns nil for an empty string, and a pointer to it otherwise.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// newNameServers returns a delegation set's four name servers, one under each of AWS's top-level
// domains.
func newNameServers() []string {
	out := make([]string, 0, 4)
	for _, tld := range []string{"com", "net", "org", "co.uk"} {
		out = append(out, fmt.Sprintf("ns-%d.awsdns-%02d.%s", rand.IntN(2048), rand.IntN(64), tld))
	}
	return out
}

// apex gives a new zone its SOA and NS record sets at the apex; the NS record lists the
// delegation set's name servers.
func (z *zone) apex() {
	ns := make([]types.ResourceRecord, 0, len(z.nameServers))
	for _, s := range z.nameServers {
		ns = append(ns, types.ResourceRecord{Value: aws.String(s + ".")})
	}
	z.records.put(&types.ResourceRecordSet{Name: aws.String(z.name), Type: types.RRTypeSoa, TTL: aws.Int64(soaTTL),
		ResourceRecords: []types.ResourceRecord{{Value: aws.String(z.nameServers[0] + soaTail)}}})
	z.records.put(&types.ResourceRecordSet{Name: aws.String(z.name), Type: types.RRTypeNs, TTL: aws.Int64(nsTTL), ResourceRecords: ns})
}

// zoneID returns the id a request names, without the /hostedzone/ prefix.
func zoneID(id *string) string { return strings.TrimPrefix(aws.ToString(id), "/hostedzone/") }

// find returns the hosted zone a request names by id.
func (a *account) find(id *string) (*zone, error) {
	if z, ok := a.zones[zoneID(id)]; ok {
		return z, nil
	}
	return nil, core.NotFoundf("NoSuchHostedZone", "No hosted zone found with ID: %s", zoneID(id))
}

// hostedZone runs f on the hosted zone a request names, holding the backend's mutex.
func hostedZone[T any](b *Backend, call *core.Call, id *string, f func(a *account, z *zone) (T, error)) (T, error) {
	return core.Locked(b.state, call, func(a *account) (T, error) {
		z, err := a.find(id)
		if err != nil {
			var zero T
			return zero, err
		}
		return f(a, z)
	})
}

// checkVPC returns the error Route 53 answers a VPC the emulated EC2 does not hold in the
// caller's account and the VPC's region.
func (b *Backend) checkVPC(call *core.Call, v *types.VPC) error {
	if v == nil || aws.ToString(v.VPCId) == "" || v.VPCRegion == "" {
		return core.Errorf("InvalidInput", "Invalid request: a VPC needs a VPCId and a VPCRegion.")
	}
	if !b.vpcs.VpcExists(core.Scope{Account: call.Account, Region: string(v.VPCRegion)}, aws.ToString(v.VPCId)) {
		return core.Errorf("InvalidVPCId", "The VPC ID that you specified either isn't a valid ID or the current account is not authorized to access this VPC: %s.", aws.ToString(v.VPCId))
	}
	return nil
}

// conflicting returns the private zone named name that is already associated with v, if any.
func (a *account) conflicting(name string, v types.VPC) *zone {
	for _, o := range a.zones {
		if o.private && o.name == name && indexOfVPC(o.vpcs, v) >= 0 {
			return o
		}
	}
	return nil
}

// conflictingDomain is the answer to associating a VPC with a second private zone of one name.
func conflictingDomain(v types.VPC, z *zone) error {
	return core.Errorf("ConflictingDomainExists", "The VPC %s in %s region has already been associated with the hosted zone %s with the same domain name.",
		aws.ToString(v.VPCId), v.VPCRegion, z.id)
}

// indexOfVPC returns the index of v in vpcs, or -1.
func indexOfVPC(vpcs []types.VPC, v types.VPC) int {
	for i, o := range vpcs {
		if aws.ToString(o.VPCId) == aws.ToString(v.VPCId) && o.VPCRegion == v.VPCRegion {
			return i
		}
	}
	return -1
}

// createHostedZone creates a public hosted zone, or a private one associated with a VPC.
func (b *Backend) createHostedZone(call *core.Call, in *route53.CreateHostedZoneInput) (*route53.CreateHostedZoneOutput, error) {
	name, err := zoneName(in.Name)
	if err != nil {
		return nil, err
	}
	ref := aws.ToString(in.CallerReference)
	if ref == "" {
		return nil, core.Errorf("InvalidInput", "Invalid request: CallerReference is required.")
	}
	private := in.VPC != nil || (in.HostedZoneConfig != nil && in.HostedZoneConfig.PrivateZone)
	if private && in.VPC == nil {
		return nil, core.Errorf("InvalidInput", "When you're creating a private hosted zone (when you specify true for PrivateZone), you must also specify values for VPCId and VPCRegion.")
	}
	if private {
		if err := b.checkVPC(call, in.VPC); err != nil {
			return nil, err
		}
	}
	return core.Locked(b.state, call, func(a *account) (*route53.CreateHostedZoneOutput, error) {
		for _, z := range a.zones {
			if z.callerReference == ref {
				return nil, &core.APIError{Code: "HostedZoneAlreadyExists", Status: http.StatusConflict,
					Message: "A hosted zone has already been created with the specified caller reference."}
			}
		}
		if len(a.zones) >= maxZones {
			return nil, core.Errorf("TooManyHostedZones", "This operation can't be completed because the current account has reached the limit (%d) on the number of hosted zones.", maxZones)
		}
		z := &zone{id: newID("Z"), name: name, callerReference: ref, private: private, nameServers: newNameServers(), records: records{}}
		if in.HostedZoneConfig != nil {
			z.comment = aws.ToString(in.HostedZoneConfig.Comment)
		}
		if private {
			if o := a.conflicting(name, *in.VPC); o != nil {
				return nil, conflictingDomain(*in.VPC, o)
			}
			z.vpcs = []types.VPC{*in.VPC}
		}
		z.apex()
		a.zones[z.id] = z
		view := z.view()
		return &route53.CreateHostedZoneOutput{HostedZone: &view, DelegationSet: z.delegationSet(), VPC: in.VPC,
			ChangeInfo: a.changes.submit(call, nil), Location: aws.String("https://route53.amazonaws.com/2013-04-01/hostedzone/" + z.id)}, nil
	})
}

// getHostedZone answers a hosted zone with its delegation set (public) or VPCs (private).
func (b *Backend) getHostedZone(call *core.Call, in *route53.GetHostedZoneInput) (*route53.GetHostedZoneOutput, error) {
	return hostedZone(b, call, in.Id, func(_ *account, z *zone) (*route53.GetHostedZoneOutput, error) {
		view := z.view()
		return &route53.GetHostedZoneOutput{HostedZone: &view, DelegationSet: z.delegationSet(), VPCs: append([]types.VPC(nil), z.vpcs...)}, nil
	})
}

// updateHostedZoneComment replaces a hosted zone's comment; an absent comment removes it.
func (b *Backend) updateHostedZoneComment(call *core.Call, in *route53.UpdateHostedZoneCommentInput) (*route53.UpdateHostedZoneCommentOutput, error) {
	return hostedZone(b, call, in.Id, func(_ *account, z *zone) (*route53.UpdateHostedZoneCommentOutput, error) {
		z.comment = aws.ToString(in.Comment)
		view := z.view()
		return &route53.UpdateHostedZoneCommentOutput{HostedZone: &view}, nil
	})
}

// deleteHostedZone deletes a hosted zone that holds no record sets but its apex SOA and NS.
func (b *Backend) deleteHostedZone(call *core.Call, in *route53.DeleteHostedZoneInput) (*route53.DeleteHostedZoneOutput, error) {
	return hostedZone(b, call, in.Id, func(a *account, z *zone) (*route53.DeleteHostedZoneOutput, error) {
		if len(z.records) > 2 {
			return nil, core.Errorf("HostedZoneNotEmpty", "The specified hosted zone contains non-required resource record sets and so cannot be deleted.")
		}
		delete(a.zones, z.id)
		a.tags.Delete(z.id)
		return &route53.DeleteHostedZoneOutput{ChangeInfo: a.changes.submit(call, nil)}, nil
	})
}

// associateVPC associates one more VPC with a private hosted zone.
func (b *Backend) associateVPC(call *core.Call, in *route53.AssociateVPCWithHostedZoneInput) (*route53.AssociateVPCWithHostedZoneOutput, error) {
	if err := b.checkVPC(call, in.VPC); err != nil {
		return nil, err
	}
	return hostedZone(b, call, in.HostedZoneId, func(a *account, z *zone) (*route53.AssociateVPCWithHostedZoneOutput, error) {
		if !z.private {
			return nil, core.Errorf("PublicZoneVPCAssociation", "You're trying to associate a VPC with a public hosted zone. Amazon Route 53 doesn't support associating a VPC with a public hosted zone.")
		}
		if o := a.conflicting(z.name, *in.VPC); o != nil {
			return nil, conflictingDomain(*in.VPC, o)
		}
		z.vpcs = append(z.vpcs, *in.VPC)
		return &route53.AssociateVPCWithHostedZoneOutput{ChangeInfo: a.changes.submit(call, in.Comment)}, nil
	})
}

// disassociateVPC removes a VPC from a private hosted zone, which keeps at least one.
func (b *Backend) disassociateVPC(call *core.Call, in *route53.DisassociateVPCFromHostedZoneInput) (*route53.DisassociateVPCFromHostedZoneOutput, error) {
	if in.VPC == nil {
		return nil, core.Errorf("InvalidInput", "Invalid request: a VPC needs a VPCId and a VPCRegion.")
	}
	return hostedZone(b, call, in.HostedZoneId, func(a *account, z *zone) (*route53.DisassociateVPCFromHostedZoneOutput, error) {
		i := indexOfVPC(z.vpcs, *in.VPC)
		if i < 0 {
			return nil, core.NotFoundf("VPCAssociationNotFound", "The specified VPC %s and hosted zone %s are not associated.", aws.ToString(in.VPC.VPCId), z.id)
		}
		if len(z.vpcs) == 1 {
			return nil, core.Errorf("LastVPCAssociation", "The VPC that you're trying to disassociate from the private hosted zone is the last VPC that is associated with the hosted zone. Amazon Route 53 doesn't support disassociating the last VPC from a hosted zone.")
		}
		z.vpcs = append(z.vpcs[:i], z.vpcs[i+1:]...)
		return &route53.DisassociateVPCFromHostedZoneOutput{ChangeInfo: a.changes.submit(call, in.Comment)}, nil
	})
}
