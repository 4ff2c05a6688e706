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
// DescribeSnapshots, DeleteSnapshot and final snapshots); and tags.
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
// user groups, parameter groups, Outposts, log delivery and data tiering are not emulated; a
// request for cluster mode enabled is refused with InvalidParameterCombination saying so.
package elasticache

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

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
	mu      sync.Mutex
	regions *core.Regions[*region]
	tags    *core.Tags // by ARN
}

// region is what one account has in one region.
type region struct {
	scope        core.Scope
	subnetGroups map[string]*subnetGroup
	clusters     map[string]*cluster
	groups       map[string]*group
	snapshots    map[string]*snapshot
}

// New returns an empty ElastiCache backend on clock whose subnets and security groups are
// checked against network.
func New(clock *core.Clock, network core.Network) *Backend {
	return &Backend{clock: clock, network: network, tags: core.NewTags(tagRules), regions: core.NewRegions(func(s core.Scope) *region {
		return &region{scope: s, subnetGroups: map[string]*subnetGroup{}, clusters: map[string]*cluster{}, groups: map[string]*group{},
			snapshots: map[string]*snapshot{}}
	})}
}

// Service describes ElastiCache to the router.
func (b *Backend) Service() *core.Service {
	return &core.Service{
		SigningName:  "elasticache",
		ID:           "ElastiCache",
		Protocol:     core.ProtocolQuery,
		XMLNamespace: "http://elasticache.amazonaws.com/doc/2015-02-02/",
		APIVersion:   "2015-02-02",
		Model:        models.MustLoad("elasticache"),
		Transition:   TransitionTime,
		Throttle:     &core.APIError{Code: "Throttling", Message: "Rate exceeded", Status: http.StatusBadRequest},
		Operations: map[string]core.Operation{
			"CreateCacheSubnetGroup":    core.Op(b.createCacheSubnetGroup),
			"DescribeCacheSubnetGroups": core.Op(b.describeCacheSubnetGroups),
			"ModifyCacheSubnetGroup":    core.Op(b.modifyCacheSubnetGroup),
			"DeleteCacheSubnetGroup":    core.Op(b.deleteCacheSubnetGroup),
			"CreateCacheCluster":        core.Op(b.createCacheCluster),
			"DescribeCacheClusters":     core.Op(b.describeCacheClusters),
			"ModifyCacheCluster":        core.Op(b.modifyCacheCluster),
			"DeleteCacheCluster":        core.Op(b.deleteCacheCluster),
			"CreateReplicationGroup":    core.Op(b.createReplicationGroup),
			"DescribeReplicationGroups": core.Op(b.describeReplicationGroups),
			"ModifyReplicationGroup":    core.Op(b.modifyReplicationGroup),
			"DeleteReplicationGroup":    core.Op(b.deleteReplicationGroup),
			"IncreaseReplicaCount":      core.Op(b.increaseReplicaCount),
			"DecreaseReplicaCount":      core.Op(b.decreaseReplicaCount),
			"CreateSnapshot":            core.Op(b.createSnapshot),
			"DescribeSnapshots":         core.Op(b.describeSnapshots),
			"DeleteSnapshot":            core.Op(b.deleteSnapshot),
			"AddTagsToResource":         core.Op(b.addTagsToResource),
			"RemoveTagsFromResource":    core.Op(b.removeTagsFromResource),
			"ListTagsForResource":       core.Op(b.listTagsForResource),
		},
		Dump: b.dump,
	}
}

// invalidValue is ElastiCache's InvalidParameterValue.
func invalidValue(format string, args ...any) error {
	return core.Errorf("InvalidParameterValue", format, args...)
}

// invalidCombination is ElastiCache's InvalidParameterCombination.
func invalidCombination(format string, args ...any) error {
	return core.Errorf("InvalidParameterCombination", format, args...)
}

// identifier matches ElastiCache identifiers once lowercased: a letter, then letters, digits and
// single hyphens, not ending in a hyphen.
var identifier = regexp.MustCompile(`^[a-z]([a-z0-9]|-[a-z0-9])*$`)

// checkID returns an identifier (of a cluster, group or snapshot) of at most max characters
// lowercased, as ElastiCache stores it, or InvalidParameterValue naming param.
func checkID(param, id string, max int) (string, error) {
	id = strings.ToLower(id)
	if len(id) > max || !identifier.MatchString(id) {
		return "", invalidValue("The parameter %s is not a valid identifier. Identifiers must begin with a letter; must contain only ASCII letters, "+
			"digits, and hyphens; must not end with a hyphen or contain two consecutive hyphens; and must be at most %d characters.", param, max)
	}
	return id, nil
}

// page returns one page of items for a Describe operation with ElastiCache's MaxRecords limits
// (20 to 100, default 100) and the marker of the next page.
func page[T any](items []T, marker *string, maxRecords *int32) ([]T, *string, error) {
	size := int32(100)
	if maxRecords != nil {
		if *maxRecords < 20 || *maxRecords > 100 {
			return nil, nil, invalidValue("Invalid value %d for MaxRecords. Must be between 20 and 100", *maxRecords)
		}
		size = *maxRecords
	}
	out, next, ok := core.PageAt(items, marker, int(size))
	if !ok {
		return nil, nil, invalidValue("Invalid Marker: %s", aws.ToString(marker))
	}
	return out, next, nil
}

// settle brings every cluster, group and snapshot of the region up to now: lifecycles end,
// pending changes apply in their window, and deleted resources go. The caller holds b.mu.
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

// regionOf returns the call's region brought up to the call's time. The caller holds b.mu.
func (b *Backend) regionOf(call *core.Call) *region {
	r := b.regions.Of(call)
	b.settle(r, call.Now)
	return r
}

// dump returns every resource, for debugging.
func (b *Backend) dump() any {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	out := map[string]any{}
	for scope, r := range b.regions.All() {
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
	}
	return out
}
