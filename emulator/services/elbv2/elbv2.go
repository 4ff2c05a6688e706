// Package elbv2 emulates Elastic Load Balancing v2 over the awsQuery protocol (API version
// 2015-12-01): Application and Network Load Balancers, their attributes, listeners with
// forward, redirect and fixed-response default actions, target groups with AWS's health check
// defaults and ranges, and tags on all three.
//
// Load balancers go from provisioning to active on the simulation clock (2s unless the
// server's options say otherwise). Subnets and security groups are checked against the
// emulated EC2 of the same account and region through the Network interface; the VPC comes from
// the subnets, and an Application Load Balancer without security groups gets its VPC's default
// group, as on AWS. Creates are idempotent as AWS documents: the same name with the same settings
// returns the existing resource, the same name with other settings is a Duplicate*Name error.
// Describe operations take lists of ARNs or names and answer them in one call, naming every
// missing one, and paginate with Marker and PageSize. Deleting a load balancer deletes its
// listeners, which frees the target groups they forwarded to; a target group that a listener
// uses cannot be deleted (ResourceInUse).
//
// Listener rules of Application Load Balancers (rules.go, conditions.go) are created, described
// by priority with each listener's default rule last, modified, reprioritised at once and
// deleted; target groups they forward to are in use like those of default actions. Targets
// (targets.go) are registered and deregistered by target type, and their health (health.go)
// follows the simulation clock: initial, then healthy; unused while nothing forwards to the
// group; draining for the deregistration delay.
//
// RegisterTargets checks instance targets against the emulated EC2 (the instance must exist,
// be running and be in the target group's VPC) and Lambda targets against the emulated Lambda
// (the function must exist and its resource-based policy let elasticloadbalancing.amazonaws.com
// invoke it from the target group, or AWS's AccessDenied answers).
//
// Simplifications: Gateway Load Balancers, rules with several actions, the VPC CIDR of ip
// targets, trust stores and mutual TLS, listener certificates beyond
// the default one, authenticate actions
// and Outposts are not emulated. A listener's ACM certificate is recorded as in use by its load
// balancer in the emulated ACM (which then refuses to delete it), but certificates are checked
// for the form of an ACM or IAM certificate ARN only: one ACM does not know is accepted (AWS
// answers CertificateNotFound), so that examples may name a placeholder certificate. Elastic IP
// allocations and private addresses of
// subnet mappings are echoed, not checked, dualstack is accepted without checking that the
// subnets have IPv6 blocks, and an internet-facing scheme does not require an internet gateway.
package elbv2

import (
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// TransitionTime is how long a load balancer stays provisioning on the simulation clock by
// default.
const TransitionTime = 2 * time.Second

// Network is what ELBv2 needs of EC2: the VPCs, subnets, security groups and instances of an
// account and region.
type Network interface {
	core.Subnets
	// VpcExists reports whether the VPC exists.
	VpcExists(scope core.Scope, id string) bool
	// DefaultSecurityGroup returns the id of a VPC's default security group.
	DefaultSecurityGroup(scope core.Scope, vpc string) (id string, ok bool)
	// Instance returns the VPC of an instance and its state at now; ok is false for an
	// instance EC2 does not know.
	Instance(scope core.Scope, id string, now time.Time) (vpc, state string, ok bool)
}

// Functions is what ELBv2 needs of Lambda: whether a function exists and lets a service invoke
// it from a source ARN.
type Functions interface {
	// MayInvoke reports whether function arn exists in scope and, if so, whether its
	// resource-based policy lets principal invoke it from sourceARN.
	MayInvoke(scope core.Scope, arn, principal, sourceARN string) (exists, allowed bool)
}

// Certificates is what ELBv2 needs of ACM: to record the load balancers that use a certificate.
type Certificates interface {
	// SetInUseBy records the resources that use the certificate arn of scope; it reports
	// whether ACM has the certificate.
	SetInUseBy(scope core.Scope, arn string, users []string) bool
}

// Backend holds the load balancers, listeners and target groups of every account and region.
type Backend struct {
	clock   *core.Clock
	network Network
	certs   Certificates
	// functions checks Lambda targets; nil (no Lambda emulated) accepts any function ARN.
	functions Functions
	state     *core.Backend[*region]
}

// CheckFunctionsWith makes RegisterTargets check Lambda targets against functions: the
// function must exist and let elasticloadbalancing.amazonaws.com invoke it from the target
// group.
func (b *Backend) CheckFunctionsWith(functions Functions) { b.functions = functions }

// region is what one account has in one region, each resource by ARN.
type region struct {
	scope     core.Scope
	lbs       map[string]*loadBalancer
	groups    map[string]*targetGroup
	listeners map[string]*listener
	rules     map[string]*rule
	tags      *core.Tags
}

// newRegion returns the empty state of an account in a region.
func newRegion(scope core.Scope) *region {
	return &region{scope: scope, lbs: map[string]*loadBalancer{}, groups: map[string]*targetGroup{}, listeners: map[string]*listener{},
		rules: map[string]*rule{}, tags: core.NewTags(tagRules)}
}

// New returns an empty ELBv2 backend on clock that checks subnets and security groups against
// network and tells certs which load balancers use its certificates.
func New(clock *core.Clock, network Network, certs Certificates) *Backend {
	return &Backend{clock: clock, network: network, certs: certs, state: core.NewBackend(newRegion)}
}

// Service describes ELBv2 to the router.
func (b *Backend) Service() *core.Service {
	s := core.QueryService("elasticloadbalancing", "ELBv2", "elasticloadbalancing", "2015-12-01", models.MustLoad("elasticloadbalancingv2"))
	return s.Declare(TransitionTime, b.dump, b.operations())
}

// newID returns the 16 hex digits that end the ARN of a new resource.
func newID() string {
	buf := make([]byte, 8)
	_, _ = rand.Read(buf)
	return hex.EncodeToString(buf)
}

func validation(format string, args ...any) *core.APIError {
	return core.Errorf("ValidationError", format, args...)
}

func invalidConfig(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidConfigurationRequest", format, args...)
}

// page describes one page of the resources keys name, with ELBv2's PageSize limits (1 to 400,
// default 400), and returns the marker of the next page. The list is empty, not nil, when there
// is nothing to describe, as AWS answers.
func page[D any](keys []string, marker *string, pageSize *int32, describe func(key string) D) ([]D, *string, error) {
	size := int32(400)
	if pageSize != nil {
		if *pageSize < 1 || *pageSize > 400 {
			return nil, nil, validation("1 validation error detected: Value '%d' at 'pageSize' failed to satisfy constraint: Member must have value between 1 and 400", *pageSize)
		}
		size = *pageSize
	}
	keys, next, ok := core.Page(keys, aws.ToString(marker), int(size))
	if !ok {
		return nil, nil, validation("Invalid Marker: %s", aws.ToString(marker))
	}
	out := make([]D, 0, len(keys))
	for _, k := range keys {
		out = append(out, describe(k))
	}
	if next == "" {
		return out, nil, nil
	}
	return out, aws.String(next), nil
}

func (b *Backend) dump() any {
	out := map[string]any{}
	for scope, r := range b.state.All() {
		out[scope.Account+"/"+scope.Region] = map[string]any{"loadBalancers": core.SortedKeys(r.lbs),
			"targetGroups": core.SortedKeys(r.groups), "listeners": core.SortedKeys(r.listeners), "rules": core.SortedKeys(r.rules)}
	}
	return out
}
