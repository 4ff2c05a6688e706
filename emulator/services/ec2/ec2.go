// Package ec2 emulates Amazon EC2 over its ec2Query protocol. This first slice covers VPCs
// (with AWS's CIDR validation, attributes and the pending -> available transition), tags, and
// the availability zones of each region; the networking family extends it.
package ec2

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// TransitionTime is how long a new VPC stays pending on the simulation clock by default.
const TransitionTime = time.Second

// Backend holds the EC2 resources of every account and region.
type Backend struct {
	clock *core.Clock
	mu    sync.Mutex
	vpcs  map[core.Scope]map[string]*vpc
	tags  map[core.Scope]map[string]map[string]string // resource id -> key -> value
}

// New returns an empty EC2 backend on clock.
func New(clock *core.Clock) *Backend {
	return &Backend{clock: clock, vpcs: map[core.Scope]map[string]*vpc{}, tags: map[core.Scope]map[string]map[string]string{}}
}

// Service describes EC2 to the router.
func (b *Backend) Service() *core.Service {
	return &core.Service{
		SigningName:  "ec2",
		ID:           "EC2",
		Protocol:     core.ProtocolEC2Query,
		XMLNamespace: "http://ec2.amazonaws.com/doc/2016-11-15/",
		APIVersion:   "2016-11-15",
		Model:        models.MustLoad("ec2"),
		Transition:   TransitionTime,
		Throttle:     &core.APIError{Code: "RequestLimitExceeded", Status: http.StatusServiceUnavailable, Message: "Request limit exceeded."},
		Operations: map[string]core.Operation{
			"CreateVpc":                 core.Op(b.createVpc),
			"DescribeVpcs":              core.Op(b.describeVpcs),
			"DeleteVpc":                 core.Op(b.deleteVpc),
			"ModifyVpcAttribute":        core.Op(b.modifyVpcAttribute),
			"DescribeVpcAttribute":      core.Op(b.describeVpcAttribute),
			"CreateTags":                core.Op(b.createTags),
			"DeleteTags":                core.Op(b.deleteTags),
			"DescribeAvailabilityZones": core.Op(b.describeAvailabilityZones),
		},
		Dump: b.dump,
	}
}

// newID returns an EC2 identifier such as vpc-0a1b2c3d4e5f60718.
func newID(prefix string) string {
	b := make([]byte, 9)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)[:17]
}

// tagsOf returns the tag map of a resource, creating it. The caller holds b.mu.
func (b *Backend) tagsOf(scope core.Scope, id string) map[string]string {
	r := b.tags[scope]
	if r == nil {
		r = map[string]map[string]string{}
		b.tags[scope] = r
	}
	if r[id] == nil {
		r[id] = map[string]string{}
	}
	return r[id]
}

func (b *Backend) dump() any {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]any{}
	for scope, vpcs := range b.vpcs {
		for id, v := range vpcs {
			out[scope.Account+"/"+scope.Region+"/"+id] = map[string]any{"cidr": v.cidr, "tags": b.tagsOf(scope, id)}
		}
	}
	return out
}
