package ec2

import (
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// vpceKind names VPC endpoints in ids and errors.
var vpceKind = kind{"vpce", "VPC endpoint ID", "InvalidVpcEndpointId.NotFound", "InvalidVpcEndpointId.Malformed"}

// Endpoint states as EC2 writes them on the wire (lower camel case, unlike the SDK's enum).
const (
	vpceStatePending   types.State = "pending"
	vpceStateAvailable types.State = "available"
	vpceStateDeleting  types.State = "deleting"
	vpceStateDeleted   types.State = "deleted"
)

// defaultEndpointPolicy is the full-access policy AWS gives an endpoint created without one.
const defaultEndpointPolicy = `{"Version":"2008-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"*","Resource":"*"}]}`

// vpcEndpoint is one VPC endpoint. Its state follows from the clock: pending until ready (an
// interface endpoint; a gateway endpoint is ready at once), then
// available; once deleted is set, deleting until gone, then deleted.
type vpcEndpoint struct {
	core.Readable // hidden from reads for a while after creation, under the ReadAfterCreateDelay fault
	id, vpc       string
	service       endpointService
	endpointType  types.VpcEndpointType
	token         string
	tables        []string // gateway endpoints: the route tables holding its prefix-list route, sorted
	subnets       []string // interface endpoints: one subnet per zone, sorted
	groups        []string // interface endpoints: security groups, sorted
	policy        string
	privateDNS    bool
	created       time.Time
	ready         time.Time
	deleted, gone time.Time
}

func (e *vpcEndpoint) state(now time.Time) types.State {
	switch {
	case !e.deleted.IsZero() && now.Before(e.gone):
		return vpceStateDeleting
	case !e.deleted.IsZero():
		return vpceStateDeleted
	case now.Before(e.ready):
		return vpceStatePending
	}
	return vpceStateAvailable
}

// purgeEndpoints forgets the endpoints deleted more than natRetention ago.
func (r *region) purgeEndpoints(now time.Time) {
	for id, e := range r.endpoints {
		if e.state(now) == vpceStateDeleted && now.After(e.gone.Add(natRetention)) {
			delete(r.endpoints, id)
			r.tags.Delete(id)
			if r.vpceTokens[e.token] == id {
				delete(r.vpceTokens, e.token)
			}
		}
	}
}

// describeEndpoint returns an endpoint as DescribeVpcEndpoints shows it.
func (r *region) describeEndpoint(e *vpcEndpoint, call *core.Call) types.VpcEndpoint {
	d := types.VpcEndpoint{VpcEndpointId: aws.String(e.id), VpcId: aws.String(e.vpc), ServiceName: aws.String(e.service.name(call.Region)),
		VpcEndpointType: e.endpointType, State: e.state(call.Now), PolicyDocument: aws.String(e.policy), CreationTimestamp: aws.Time(e.created),
		OwnerId: aws.String(call.Account), RequesterManaged: aws.Bool(false), PrivateDnsEnabled: aws.Bool(e.privateDNS),
		RouteTableIds: slices.Clone(e.tables), SubnetIds: slices.Clone(e.subnets), NetworkInterfaceIds: []string{}, Groups: []types.SecurityGroupIdentifier{},
		DnsEntries: []types.DnsEntry{}, Tags: r.tagList(e.id)}
	for _, g := range e.groups {
		name := ""
		if sg := r.groups[g]; sg != nil {
			name = sg.name
		}
		d.Groups = append(d.Groups, types.SecurityGroupIdentifier{GroupId: aws.String(g), GroupName: aws.String(name)})
	}
	if e.endpointType == types.VpcEndpointTypeInterface {
		d.DnsEntries = r.endpointDNS(e, call.Region)
	}
	return d
}

// endpointDNS returns an interface endpoint's DNS names in AWS's form: the regional name, one per
// zone of its subnets, and the service's own name when private DNS is on (with the hosted zone
// AWS shows for it, ZONEIDPENDING). The suffix AWS draws at random is taken from the id here, so
// the names stay the same from one read to the next.
func (r *region) endpointDNS(e *vpcEndpoint, region string) []types.DnsEntry {
	zone := "Z7HUB22UULQXV" // the hosted zone AWS's vpce.amazonaws.com names live in (us-east-1)
	base := e.id + "-" + e.id[len(e.id)-8:]
	domain := e.service.short + "." + region + ".vpce.amazonaws.com"
	out := []types.DnsEntry{{DnsName: aws.String(base + "." + domain), HostedZoneId: aws.String(zone)}}
	for _, s := range e.subnets {
		if sub := r.subnets[s]; sub != nil {
			out = append(out, types.DnsEntry{DnsName: aws.String(base + "-" + sub.zone.name + "." + domain), HostedZoneId: aws.String(zone)})
		}
	}
	if dns := e.service.dnsName(region); e.privateDNS && dns != "" {
		out = append(out, types.DnsEntry{DnsName: aws.String(dns), HostedZoneId: aws.String("ZONEIDPENDING")})
	}
	return out
}
