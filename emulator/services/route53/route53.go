// Package route53 emulates Amazon Route 53's DNS management over its REST-XML protocol (API
// version 2013-04-01): hosted zones (CreateHostedZone, GetHostedZone, ListHostedZonesByName,
// UpdateHostedZoneComment, DeleteHostedZone), the VPC associations of private hosted zones
// (AssociateVPCWithHostedZone, DisassociateVPCFromHostedZone), resource record sets
// (ChangeResourceRecordSets, ListResourceRecordSets), changes (GetChange) and the tags of hosted
// zones (ChangeTagsForResource, ListTagsForResource).
//
// Route 53 is global: the state belongs to the caller's account whatever region the request is
// signed for. Hosted zone ids are "Z" and 20 upper-case letters and digits, answered as
// "/hostedzone/<id>", and change ids "C" and 20 more, answered as "/change/<id>"; requests may
// name either form. A new zone holds its apex SOA and NS records; a public zone gets a delegation
// set of four name servers (one each under .com, .net, .org and .co.uk), which its NS record
// lists. A private zone is associated with VPCs the emulated EC2 holds, in the region the
// request names.
//
// Every call that changes DNS data answers a change that is PENDING until the service's
// transition time (TransitionTime, 2s by default; Options.Transitions["Route53"] changes it, zero
// makes it immediate) has passed on the simulation clock, and INSYNC after. ChangeResourceRecordSets
// applies its batch atomically with the checks validate.go describes, answering AWS's
// InvalidChangeBatch and InvalidInput texts; alias targets in other zones are checked against the
// services that make them (AliasThrough: load balancers, CloudFront distributions, API Gateway
// domains) and against the account's other hosted zones.
//
// Limits keep the state bounded as AWS's quotas do: 500 hosted zones an account, 10,000 record
// sets a zone, 1,000 records a batch; the latest 1,000 changes of an account are kept for
// GetChange, older ones answer NoSuchChange. Not emulated: health checks (tags of a health check
// answer NoSuchHealthCheck), traffic policies, reusable delegation sets, query logging, DNSSEC,
// CIDR collections and resolving names; every other operation answers the protocol's
// unknown-operation error.
package route53

import (
	"fmt"
	"net/http"
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// TransitionTime is how long a change stays PENDING on the simulation clock by default. AWS
// propagates changes within 60 seconds; the emulator is quicker so the sandbox stays brisk.
const TransitionTime = 2 * time.Second

// VPCs is what Route 53 needs of the emulated EC2: whether a VPC exists in an account and
// region. The EC2 backend implements it.
type VPCs interface {
	VpcExists(scope core.Scope, id string) bool
}

// Backend holds the hosted zones and changes of every account.
type Backend struct {
	clock   *core.Clock
	vpcs    VPCs
	aliases []AliasTargets // see AliasThrough
	state   *core.Backend[*account]
}

// account is what one account has in Route 53. Route 53 is global, so there is one per account,
// kept in a global core.Backend.
type account struct {
	zones   map[string]*zone // by id, without the /hostedzone/ prefix
	changes changes
	tags    *core.Tags // of hosted zones, by id
}

// New returns an empty Route 53 backend on clock that checks the VPCs of private hosted zones
// against the emulated EC2.
func New(clock *core.Clock, vpcs VPCs) *Backend {
	return &Backend{clock: clock, vpcs: vpcs, state: core.NewGlobalBackend(func(core.Scope) *account {
		return &account{zones: map[string]*zone{}, changes: changes{byID: map[string]*change{}}, tags: core.NewTags(tagRules)}
	})}
}

// Service describes Route 53 to the router.
func (b *Backend) Service() *core.Service {
	s := core.RESTService("route53", "Route53", core.ProtocolRESTXML, models.MustLoad("route53"),
		&core.APIError{Code: "Throttling", Status: http.StatusBadRequest, Message: "Rate exceeded"})
	s.XMLNamespace = "https://route53.amazonaws.com/doc/2013-04-01/"
	// Route 53 wraps its errors in <ErrorResponse>, unlike S3.
	s.WrappedErrors = true
	return s.Declare(TransitionTime, b.dump, b.operations())
}

// dump returns every hosted zone with its records, for debugging.
func (b *Backend) dump() any {
	out := map[string]any{}
	for scope, a := range b.state.All() {
		for id, z := range a.zones {
			out[fmt.Sprintf("%s/hostedzone/%s", scope.Account, id)] = map[string]any{"zone": z.view(), "records": z.sorted()}
		}
		out[scope.Account+"/tags"] = a.tags
	}
	return out
}

// operations are Route 53's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateHostedZone":              core.Op(b.createHostedZone),
		"GetHostedZone":                 core.Op(b.getHostedZone),
		"ListHostedZonesByName":         core.Op(b.listHostedZonesByName),
		"UpdateHostedZoneComment":       core.Op(b.updateHostedZoneComment),
		"DeleteHostedZone":              core.Op(b.deleteHostedZone),
		"AssociateVPCWithHostedZone":    core.Op(b.associateVPC),
		"DisassociateVPCFromHostedZone": core.Op(b.disassociateVPC),
		"ChangeResourceRecordSets":      core.Op(b.changeResourceRecordSets),
		"ListResourceRecordSets":        core.Op(b.listResourceRecordSets),
		"GetChange":                     core.Op(b.getChange),
		"ChangeTagsForResource":         core.Op(b.changeTagsForResource),
		"ListTagsForResource":           core.Op(b.listTagsForResource),
	}
}
