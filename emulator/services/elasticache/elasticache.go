// Package elasticache emulates Amazon ElastiCache over its query protocol (API version
// 2015-02-02): cache subnet groups on the subnets of the emulated EC2, and the "default" group,
// made from the default VPC's default subnets the first time a cluster or replication group names
// no group (it cannot be deleted; without a default VPC there is none, and such a create answers
// CacheSubnetGroupNotFoundFault); cache clusters of Redis
// OSS, Valkey or Memcached, with AWS's engine versions and node types from a small catalogue,
// one node for Redis OSS and Valkey outside a replication group, security groups checked against
// EC2, snapshot retention and window (Redis OSS and Valkey), the maintenance window, in-transit
// encryption and AUTH tokens with AWS's rules; replication groups (cluster mode disabled: one
// node group of 1 to 6 member clusters) with automatic failover, Multi-AZ, encryption at rest
// and in transit, AUTH tokens, primary and reader endpoints, and replica counts changed at once
// (IncreaseReplicaCount, DecreaseReplicaCount, with AWS's rules: ApplyImmediately only, at
// least one replica with automatic failover, at most five); snapshots (CreateSnapshot,
// DescribeSnapshots, DeleteSnapshot and final snapshots); cache parameter groups (a default group
// default.<family> per family, which cannot be changed or deleted, and custom ones of a small
// catalogue of parameters per family with their change types, data types and allowed values,
// modified and reset 20 at a time, refused for deletion while a cluster uses them), clusters and
// replication groups made or modified with a group (ParameterApplyStatus applying after a change
// of group, pending-reboot after a change of a requires-reboot parameter until
// RebootCacheCluster); and tags.
//
// Clusters and groups are "creating" for the service's transition time on the simulation clock
// (TransitionTime, 2s by default; Options.Transitions["ElastiCache"] changes it), then
// "available", with endpoints in AWS's form (<id>.<random>.0001.use1.cache.amazonaws.com for a
// node of us-east-1, .cfg. for a Memcached configuration endpoint, .ng. for a group's primary
// endpoint, -ro for its reader endpoint). Node type, engine version and node count changes wait
// for the maintenance window (reported in PendingModifiedValues) unless ApplyImmediately; once
// applied the cluster is "modifying" for the transition time. Deletion makes a cluster or group
// "deleting", then removes it. Nothing is cached: there is no Redis or Memcached to connect to.
// Cluster mode enabled (several node groups), global datastores, serverless caches, users and
// user groups, Outposts, log delivery and data tiering are not emulated; a
// request for cluster mode enabled is refused with InvalidParameterCombination saying so.
package elasticache

import (
	"fmt"
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/internal/models"
)

// TransitionTime is how long creating, modifying and deleting take on the simulation clock by
// default.
const TransitionTime = 2 * time.Second

// Backend holds the ElastiCache resources of every account and region.
type Backend struct {
	clock   *core.Clock
	network core.Network
	state   *core.Backend[*region]
	tags    *core.Tags // by ARN
}

// region is what one account has in one region.
type region struct {
	scope        core.Scope
	subnetGroups map[string]*subnetGroup
	clusters     map[string]*cluster
	groups       map[string]*group
	snapshots    map[string]*snapshot
	paramGroups  map[string]*paramGroup // custom ones; the defaults are made on demand
}

// New returns an empty ElastiCache backend on clock whose subnets and security groups are
// checked against network.
func New(clock *core.Clock, network core.Network) *Backend {
	return &Backend{clock: clock, network: network, tags: core.NewTags(tagRules), state: core.NewBackend(func(s core.Scope) *region {
		return &region{scope: s, subnetGroups: map[string]*subnetGroup{}, clusters: map[string]*cluster{}, groups: map[string]*group{},
			snapshots: map[string]*snapshot{}, paramGroups: map[string]*paramGroup{}}
	})}
}

// Service describes ElastiCache to the router.
func (b *Backend) Service() *core.Service {
	s := core.QueryService("elasticache", "ElastiCache", "elasticache", "2015-02-02", models.MustLoad("elasticache"))
	return s.Declare(TransitionTime, b.dump, b.operations(), b.tagOperations())
}

// invalidValue is ElastiCache's InvalidParameterValue.
func invalidValue(format string, args ...any) error {
	return core.Errorf("InvalidParameterValue", format, args...)
}

// invalidCombination is ElastiCache's InvalidParameterCombination.
func invalidCombination(format string, args ...any) error {
	return core.Errorf("InvalidParameterCombination", format, args...)
}

// checkID returns an identifier (of a cluster, group or snapshot) of at most max characters
// lowercased, as ElastiCache stores it, or InvalidParameterValue naming param.
func checkID(param, id string, max int) (string, error) {
	id, ok := core.Identifier(id, max)
	if !ok {
		return "", invalidValue("The parameter %s is not a valid identifier. Identifiers must begin with a letter; must contain only ASCII letters, "+
			"digits, and hyphens; must not end with a hyphen or contain two consecutive hyphens; and must be at most %d characters.", param, max)
	}
	return id, nil
}

// settle brings every cluster, group and snapshot of the region up to now: lifecycles end, pending
// changes apply in their window, and deleted resources go. The caller holds the backend's mutex.
func (b *Backend) settle(r *region, now time.Time) {
	for id, c := range r.clusters {
		if c.settle(now) {
			delete(r.clusters, id)
			b.tags.Delete(c.arn)
		}
	}
	for id, g := range r.groups {
		if g.settle(now) {
			delete(r.groups, id)
			b.tags.Delete(g.arn)
		}
	}
	for _, s := range r.snapshots {
		s.settle(now)
	}
}

// settled runs an operation's handler f on the call's region brought up to the call's time,
// holding the backend's mutex.
func settled[O any](b *Backend, call *core.Call, f func(r *region) (*O, error)) (*O, error) {
	return core.Locked(b.state, call, func(r *region) (*O, error) {
		b.settle(r, call.Now)
		return f(r)
	})
}

// dump returns every resource, for debugging.
func (b *Backend) dump() any {
	now := b.clock.Now()
	out := map[string]any{}
	for scope, r := range b.state.All() {
		b.settle(r, now)
		prefix := fmt.Sprintf("%s/%s/", scope.Account, scope.Region)
		for id, c := range r.clusters {
			out[prefix+"cluster:"+id] = b.describeCluster(r, c, true)
		}
		for id, g := range r.groups {
			out[prefix+"replicationgroup:"+id] = b.describeGroup(r, g)
		}
		for name, g := range r.subnetGroups {
			out[prefix+"subnetgroup:"+name] = g.describe()
		}
		for name, s := range r.snapshots {
			out[prefix+"snapshot:"+name] = s.describe()
		}
		for name, g := range r.paramGroups {
			out[prefix+"parametergroup:"+name] = map[string]any{"group": g.describe(), "parameters": g.settings}
		}
	}
	return out
}

// describedPage returns the page of the resources ids names that marker and maxRecords select,
// each as describe shows it (an empty page rather than nil), and the marker of the next page, or
// the error of a bad marker or page size.
func describedPage[T any](ids []string, marker *string, maxRecords *int32, describe func(id string) T) ([]T, *string, error) {
	page, next, err := core.RecordsPage(ids, marker, maxRecords)
	return core.PageValues(page, next, err, describe)
}
