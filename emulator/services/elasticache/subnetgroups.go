package elasticache

import (
	"regexp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// subnetGroup is one cache subnet group: subnets of one VPC of the emulated EC2.
type subnetGroup struct {
	name, arn, description, vpc string
	subnets                     []string
	zones                       map[string]string // by subnet
}

// describe returns the subnet group as ElastiCache describes it.
func (g *subnetGroup) describe() types.CacheSubnetGroup {
	out := types.CacheSubnetGroup{CacheSubnetGroupName: aws.String(g.name), ARN: aws.String(g.arn), CacheSubnetGroupDescription: aws.String(g.description),
		VpcId: aws.String(g.vpc), SupportedNetworkTypes: []types.NetworkType{types.NetworkTypeIpv4}}
	for _, id := range g.subnets {
		out.Subnets = append(out.Subnets, types.Subnet{SubnetIdentifier: aws.String(id), SubnetAvailabilityZone: &types.AvailabilityZone{Name: aws.String(g.zones[id])},
			SupportedNetworkTypes: []types.NetworkType{types.NetworkTypeIpv4}})
	}
	return out
}

// subnetGroupName is the form of a subnet group name once lowercased: up to 255 letters, digits
// and hyphens.
var subnetGroupName = regexp.MustCompile(`^[a-z0-9-]{1,255}$`)

// subnetGroupNotFound is AWS's answer to a subnet group the region does not have.
func subnetGroupNotFound(name string) error {
	return core.NotFoundf("CacheSubnetGroupNotFoundFault", "Cache subnet group %s not found.", name)
}

// subnetGroup returns the subnet group a request names, in any case, or
// CacheSubnetGroupNotFoundFault. The caller holds the backend's mutex.
func (r *region) subnetGroup(ref *string) (*subnetGroup, error) {
	return lookup(r.subnetGroups, ref, subnetGroupNotFound)
}

// subnets checks subnet IDs against the emulated EC2 and returns their VPC and zones: 1 to 20
// subnets that exist, all in one VPC.
func (b *Backend) subnets(call *core.Call, ids []string) (string, map[string]string, error) {
	if len(ids) == 0 || len(ids) > 20 {
		return "", nil, invalidValue("A cache subnet group needs 1 to 20 subnets.")
	}
	vpc, zones := "", map[string]string{}
	for _, id := range ids {
		v, zone, ok := b.network.Subnet(call.Scope(), id)
		if !ok {
			return "", nil, core.Errorf("InvalidSubnet", "The subnet ID %s does not exist", id)
		}
		if vpc != "" && v != vpc {
			return "", nil, core.Errorf("InvalidSubnet", "Subnets must all be in the same VPC: %s is in %s, not %s", id, v, vpc)
		}
		vpc, zones[id] = v, zone
	}
	return vpc, zones, nil
}

// createCacheSubnetGroup creates a subnet group of EC2 subnets.
func (b *Backend) createCacheSubnetGroup(call *core.Call, in *elasticache.CreateCacheSubnetGroupInput) (*elasticache.CreateCacheSubnetGroupOutput, error) {
	name := strings.ToLower(aws.ToString(in.CacheSubnetGroupName))
	if !subnetGroupName.MatchString(name) || name == "default" {
		return nil, invalidValue("Invalid cache subnet group name: %s. It must be 1 to 255 letters, digits or hyphens, and not default.", name)
	}
	if aws.ToString(in.CacheSubnetGroupDescription) == "" {
		return nil, invalidValue("The parameter CacheSubnetGroupDescription must be provided and must not be blank.")
	}
	return settledTagged(b, call, in.Tags, func(r *region, tags map[string]string) (*elasticache.CreateCacheSubnetGroupOutput, error) {
		if _, ok := r.subnetGroups[name]; ok {
			return nil, core.Errorf("CacheSubnetGroupAlreadyExists", "Cache subnet group %s already exists.", name)
		}
		vpc, zones, err := b.subnets(call, in.SubnetIds)
		if err != nil {
			return nil, err
		}
		g := &subnetGroup{name: name, arn: r.scope.ARN("elasticache", "subnetgroup:"+name), description: *in.CacheSubnetGroupDescription, vpc: vpc,
			subnets: slices.Clone(in.SubnetIds), zones: zones}
		if err := b.tags.Replace(g.arn, tags); err != nil {
			return nil, err
		}
		r.subnetGroups[name] = g
		return &elasticache.CreateCacheSubnetGroupOutput{CacheSubnetGroup: ptr(g.describe())}, nil
	})
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// describeCacheSubnetGroups describes one subnet group, or all of them by pages.
func (b *Backend) describeCacheSubnetGroups(call *core.Call, in *elasticache.DescribeCacheSubnetGroupsInput) (*elasticache.DescribeCacheSubnetGroupsOutput, error) {
	return settled(b, call, func(r *region) (*elasticache.DescribeCacheSubnetGroupsOutput, error) {
		names, err := selected(r.subnetGroups, in.CacheSubnetGroupName, subnetGroupNotFound)
		if err != nil {
			return nil, err
		}
		groups, next, err := describedPage(names, in.Marker, in.MaxRecords, func(name string) types.CacheSubnetGroup { return r.subnetGroups[name].describe() })
		return &elasticache.DescribeCacheSubnetGroupsOutput{CacheSubnetGroups: groups, Marker: next}, err
	})
}

// modifyCacheSubnetGroup changes a subnet group's description or subnets; the subnets must stay
// in the group's VPC while clusters use it.
func (b *Backend) modifyCacheSubnetGroup(call *core.Call, in *elasticache.ModifyCacheSubnetGroupInput) (*elasticache.ModifyCacheSubnetGroupOutput, error) {
	return settledOn(b, call, in.CacheSubnetGroupName, (*region).subnetGroup, func(r *region, g *subnetGroup) (*elasticache.ModifyCacheSubnetGroupOutput, error) {
		if in.SubnetIds != nil {
			vpc, zones, err := b.subnets(call, in.SubnetIds)
			if err != nil {
				return nil, err
			}
			if vpc != g.vpc && r.inUse(g.name) {
				return nil, core.Errorf("SubnetInUse", "The subnet group %s is in use by clusters in VPC %s; its subnets cannot move to %s.", g.name, g.vpc, vpc)
			}
			g.vpc, g.subnets, g.zones = vpc, slices.Clone(in.SubnetIds), zones
		}
		if in.CacheSubnetGroupDescription != nil {
			g.description = *in.CacheSubnetGroupDescription
		}
		return &elasticache.ModifyCacheSubnetGroupOutput{CacheSubnetGroup: ptr(g.describe())}, nil
	})
}

// inUse reports whether a cluster uses the subnet group name.
func (r *region) inUse(name string) bool {
	for _, c := range r.clusters {
		if c.cfg.subnetGroup == name {
			return true
		}
	}
	return false
}

// deleteCacheSubnetGroup deletes a subnet group no cluster uses.
func (b *Backend) deleteCacheSubnetGroup(call *core.Call, in *elasticache.DeleteCacheSubnetGroupInput) (*elasticache.DeleteCacheSubnetGroupOutput, error) {
	return settledOn(b, call, in.CacheSubnetGroupName, (*region).subnetGroup, func(r *region, g *subnetGroup) (*elasticache.DeleteCacheSubnetGroupOutput, error) {
		if err := checkNotDefault(g.name); err != nil {
			return nil, err
		}
		if r.inUse(g.name) {
			return nil, core.Errorf("CacheSubnetGroupInUse", "Cache subnet group %s is currently in use by a cache cluster.", g.name)
		}
		delete(r.subnetGroups, g.name)
		b.tags.Delete(g.arn)
		return &elasticache.DeleteCacheSubnetGroupOutput{}, nil
	})
}
