package elasticache

import (
	"slices"
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// defaultSubnetGroup is the name of the cache subnet group ElastiCache uses when a cluster or
// replication group names none.
const defaultSubnetGroup = "default"

// requestedSubnetGroup returns the subnet group a create request names or, when it names none, the
// "default" group, which ElastiCache makes from the default VPC's default subnets the first time it
// is used. Without a default VPC there is no default group. The caller holds the backend's mutex.
func (b *Backend) requestedSubnetGroup(call *core.Call, r *region, name *string) (*subnetGroup, error) {
	lower := defaultSubnetGroup
	if name != nil {
		lower = strings.ToLower(*name)
	}
	if g, ok := r.subnetGroups[lower]; ok {
		return g, nil
	}
	if lower != defaultSubnetGroup {
		return nil, subnetGroupNotFound(lower)
	}
	vpc, zones, ok := b.network.DefaultSubnets(call.Scope())
	if !ok || len(zones) == 0 {
		return nil, subnetGroupNotFound(defaultSubnetGroup)
	}
	subnets := core.SortedKeys(zones)
	slices.SortStableFunc(subnets, func(a, b string) int { return strings.Compare(zones[a], zones[b]) })
	g := &subnetGroup{name: defaultSubnetGroup, arn: r.scope.ARN("elasticache", "subnetgroup:"+defaultSubnetGroup),
		description: "Default CacheSubnetGroup", vpc: vpc, subnets: subnets, zones: zones}
	r.subnetGroups[g.name] = g
	return g, nil
}

// checkNotDefault refuses to delete the default cache subnet group, which AWS keeps.
func checkNotDefault(name string) error {
	if name == defaultSubnetGroup {
		return invalidValue("Cannot delete default cache subnet group '%s'.", name)
	}
	return nil
}
