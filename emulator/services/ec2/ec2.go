// Package ec2 emulates Amazon EC2 over its ec2Query protocol: what the networking family needs,
// and instances. Every account starts, in every region, with AWS's default VPC: 172.31.0.0/16
// (IsDefault), one default subnet per availability zone (172.31.0.0/20, 172.31.16.0/20, ...;
// DefaultForAz, MapPublicIpOnLaunch), an attached internet gateway, a main route table with a
// 0.0.0.0/0 route to it and the default security group. RunInstances without a subnet launches
// into the default subnet of Placement's zone (or of the first zone), CreateSecurityGroup
// without a VPC creates in the default VPC, and group names alone name groups of the default VPC.
// The default VPC can be deleted as on AWS; it is not made again (CreateDefaultVpc is not
// emulated), and the calls that need it then answer VPCIdNotSpecified. Network ACLs and
// DescribeAccountAttributes are not emulated. VPCs (AWS's CIDR validation, attributes, an optional Amazon-provided IPv6 block,
// and the default security group and main route table every VPC gets), subnets (containment and
// overlap of CIDRs, the region's availability zones, free addresses), internet gateways (attach
// and detach rules), Elastic IPs, NAT gateways (ClientToken idempotency; pending -> available,
// deleting -> deleted and failed on the simulation clock, deleted ones visible for an hour),
// security groups and their rules (stored per atomic rule with sgr- ids), route tables (local
// route, routes to gateways, subnet associations, replacing the main association), instances
// (RunInstances with ClientToken idempotency, a private address drawn from the subnet and a
// public one when asked for; pending -> running, stopping -> stopped and shutting-down ->
// terminated on the simulation clock, terminated ones visible for an hour; termination and stop
// protection, attributes, metadata options and monitoring), VPC endpoints (gateway endpoints with
// their prefix-list routes, interface endpoints pending -> available on the clock, deleting ->
// deleted; the services they reach in DescribeVpcEndpointServices), VPC peering connections
// (shared by the requester's and the accepter's account and region; see vpcpeering.go), tags on
// all of them, and the
// availability zones of each region. Describe* operations answer any number of ids in one call,
// filter and paginate as EC2 does, and deletes refuse with DependencyViolation while something
// depends on the resource. EC2's eventual consistency is emulated under the ReadAfterCreateDelay
// fault: a resource a create makes (CreateVpc, CreateSubnet, CreateSecurityGroup,
// CreateInternetGateway, AllocateAddress, CreateNatGateway, CreateRouteTable, RunInstances,
// CreateVpcEndpoint) is
// left out of Describe* answers, and calls that name it (CreateTags included) answer its NotFound
// error, until the delay has passed on the simulation clock; a create repeated with the same
// ClientToken still answers the resource. Other services' lookups of EC2 resources are not
// delayed.
package ec2

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// TransitionTime is how long EC2's asynchronous lifecycles (a VPC, subnet or NAT gateway
// pending, a NAT gateway deleting, an instance pending, stopping or shutting down) take on the
// simulation clock by default.
const TransitionTime = time.Second

// Backend holds the EC2 resources of every account and region.
type Backend struct {
	clock *core.Clock
	state *core.Backend[*region]
}

// region is the EC2 state of one account in one region.
type region struct {
	vpcs         map[string]*vpc
	subnets      map[string]*subnet
	igws         map[string]*igw
	eips         map[string]*eip
	nats         map[string]*natGateway
	natTokens    map[string]string // ClientToken -> NAT gateway id
	rtbTokens    map[string]string // ClientToken -> route table id
	groups       map[string]*securityGroup
	rules        map[string]*sgRule
	ruleSeq      int // rules created so far, to keep their order
	tables       map[string]*routeTable
	endpoints    map[string]*vpcEndpoint
	peerings     map[string]*vpcPeering // every account's and region's, shared: a peering is visible on both of its sides
	scope        core.Scope             // the account and region this state is of
	vpceTokens   map[string]string      // CreateVpcEndpoint ClientToken -> endpoint id
	instances    map[string]*instance
	reservations map[string]*reservation
	runTokens    map[string]string // RunInstances ClientToken -> reservation id
	publicSeq    uint32            // the last public address handed out, as an offset in publicPool
	tags         *core.Tags        // by resource id
}

// newRegion returns the EC2 state of an account in a region as AWS hands it over: with nothing
// but the default VPC and what comes with it.
func newRegion(scope core.Scope) *region {
	r := &region{vpcs: map[string]*vpc{}, subnets: map[string]*subnet{}, igws: map[string]*igw{}, eips: map[string]*eip{},
		nats: map[string]*natGateway{}, natTokens: map[string]string{}, rtbTokens: map[string]string{}, groups: map[string]*securityGroup{},
		rules: map[string]*sgRule{}, tables: map[string]*routeTable{}, endpoints: map[string]*vpcEndpoint{}, vpceTokens: map[string]string{}, instances: map[string]*instance{}, reservations: map[string]*reservation{},
		runTokens: map[string]string{}, tags: core.NewTags(tagRules)}
	r.addDefaultVpc(scope)
	return r
}

// New returns an empty EC2 backend on clock.
func New(clock *core.Clock) *Backend {
	peerings := map[string]*vpcPeering{}
	return &Backend{clock: clock, state: core.NewBackend(func(scope core.Scope) *region {
		r := newRegion(scope)
		r.peerings, r.scope = peerings, scope
		return r
	})}
}

// Service describes EC2 to the router.
func (b *Backend) Service() *core.Service {
	s := core.QueryService("ec2", "EC2", "ec2", "2016-11-15", models.MustLoad("ec2"))
	s.Protocol = core.ProtocolEC2Query
	s.Throttle = &core.APIError{Code: "RequestLimitExceeded", Status: http.StatusServiceUnavailable, Message: "Request limit exceeded."}
	return s.Declare(TransitionTime, b.dump, b.operations())
}

// newID returns an EC2 identifier such as vpc-0a1b2c3d4e5f60718.
func newID(prefix string) string {
	b := make([]byte, 9)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)[:17]
}

// tagList returns a resource's tags as the SDK lists them.
func (r *region) tagList(id string) []types.Tag {
	return core.TagList(r.tags, id, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

func (b *Backend) dump() any {
	out := map[string]any{}
	for scope, r := range b.state.All() {
		out[scope.Account+"/"+scope.Region] = map[string]any{
			"vpcs": core.SortedKeys(r.vpcs), "subnets": core.SortedKeys(r.subnets), "internetGateways": core.SortedKeys(r.igws),
			"addresses": core.SortedKeys(r.eips), "natGateways": core.SortedKeys(r.nats), "securityGroups": core.SortedKeys(r.groups),
			"securityGroupRules": core.SortedKeys(r.rules), "routeTables": core.SortedKeys(r.tables), "vpcEndpoints": core.SortedKeys(r.endpoints), "instances": core.SortedKeys(r.instances),
			"reservations": core.SortedKeys(r.reservations), "tags": r.tags,
		}
	}
	return out
}
