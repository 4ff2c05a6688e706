package elasticache

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// paramGroup is one cache parameter group: a custom one, or the default one of a family
// (default.<family>), which exists in every region and cannot be changed or deleted.
type paramGroup struct {
	name, arn, family, description string
	// settings are the values users set, by parameter name.
	settings map[string]string
}

// isDefault reports whether name is a default group's.
func isDefault(name string) bool { return strings.HasPrefix(name, "default.") }

// describe returns the group as ElastiCache describes it.
func (g *paramGroup) describe() types.CacheParameterGroup {
	return types.CacheParameterGroup{CacheParameterGroupName: aws.String(g.name), CacheParameterGroupFamily: aws.String(g.family),
		Description: aws.String(g.description), ARN: aws.String(g.arn), IsGlobal: aws.Bool(false)}
}

// paramGroupNotFound is AWS's answer to a parameter group the region does not have.
func paramGroupNotFound(name string) error {
	return core.NotFoundf("CacheParameterGroupNotFound", "CacheParameterGroup not found: %s", name)
}

// defaultGroups returns the default group of every family, by name, in region r.
func (r *region) defaultGroups() map[string]*paramGroup {
	out := map[string]*paramGroup{}
	for family := range families {
		name := "default." + family
		out[name] = &paramGroup{name: name, arn: r.scope.ARN("elasticache", "parametergroup:"+name), family: family,
			description: "Default parameter group for " + family}
	}
	return out
}

// lookupParamGroup returns the group a request names, in any case: a custom one, or a family's
// default. The caller holds the backend's mutex.
func (r *region) lookupParamGroup(ref *string) (*paramGroup, error) {
	if g, ok := r.defaultGroups()[strings.ToLower(aws.ToString(ref))]; ok {
		return g, nil
	}
	return lookup(r.paramGroups, ref, paramGroupNotFound)
}

// customParamGroup returns the custom group a Modify, Reset or Delete request names, or AWS's
// error for a default group or a missing one. The caller holds the backend's mutex.
func (r *region) customParamGroup(ref *string) (*paramGroup, error) {
	if name := strings.ToLower(aws.ToString(ref)); isDefault(name) {
		return nil, core.Errorf("InvalidCacheParameterGroupState", "Default parameter group %s cannot be modified or deleted.", name)
	}
	return lookup(r.paramGroups, ref, paramGroupNotFound)
}

// groupOf returns the name of the parameter group a configuration uses: the one it was given,
// else its family's default.
func groupOf(cfg *config) string {
	if cfg.paramGroup != "" {
		return cfg.paramGroup
	}
	return "default." + familyOf(cfg.engine, cfg.version)
}

// checkParamGroup returns the group a create or modify request names for an engine version, or
// CacheParameterGroupNotFound, or InvalidParameterCombination for a group of another family.
// The caller holds the backend's mutex.
func (r *region) checkParamGroup(ref *string, engine, version string) (*paramGroup, error) {
	g, err := r.lookupParamGroup(ref)
	if err != nil {
		return nil, err
	}
	if want := familyOf(engine, version); g.family != want {
		return nil, invalidCombination("The parameter group %s is of family %s; a %s %s cluster needs a group of family %s.", g.name, g.family, engine, version, want)
	}
	return g, nil
}

// createCacheParameterGroup creates a custom parameter group of a family, with its tags: a copy
// of the family's default group.
func (b *Backend) createCacheParameterGroup(call *core.Call, in *elasticache.CreateCacheParameterGroupInput) (*elasticache.CreateCacheParameterGroupOutput, error) {
	name, err := checkID("CacheParameterGroupName", aws.ToString(in.CacheParameterGroupName), 255)
	if err != nil {
		return nil, err
	}
	family := aws.ToString(in.CacheParameterGroupFamily)
	if _, ok := families[family]; !ok {
		return nil, invalidValue("The parameter CacheParameterGroupFamily is not a valid family: %s. Valid families are %s.", family,
			strings.Join(core.SortedKeys(families), ", "))
	}
	if aws.ToString(in.Description) == "" {
		return nil, invalidValue("The parameter Description must be provided and must not be blank.")
	}
	return settledTagged(b, call, in.Tags, func(r *region, tags map[string]string) (*elasticache.CreateCacheParameterGroupOutput, error) {
		if _, ok := r.paramGroups[name]; ok {
			return nil, core.Errorf("CacheParameterGroupAlreadyExists", "Parameter group %s already exists.", name)
		}
		g := &paramGroup{name: name, arn: r.scope.ARN("elasticache", "parametergroup:"+name), family: family, description: *in.Description,
			settings: map[string]string{}}
		if err := b.tags.Replace(g.arn, tags); err != nil {
			return nil, err
		}
		r.paramGroups[name] = g
		return &elasticache.CreateCacheParameterGroupOutput{CacheParameterGroup: ptr(g.describe())}, nil
	})
}

// describeCacheParameterGroups describes one group, or every default and custom group by pages,
// in name order.
func (b *Backend) describeCacheParameterGroups(call *core.Call, in *elasticache.DescribeCacheParameterGroupsInput) (*elasticache.DescribeCacheParameterGroupsOutput, error) {
	return settled(b, call, func(r *region) (*elasticache.DescribeCacheParameterGroupsOutput, error) {
		all := r.defaultGroups()
		for name, g := range r.paramGroups {
			all[name] = g
		}
		names := core.SortedKeys(all)
		if in.CacheParameterGroupName != nil {
			g, err := r.lookupParamGroup(in.CacheParameterGroupName)
			if err != nil {
				return nil, err
			}
			names = []string{g.name}
		}
		groups, next, err := describedPage(names, in.Marker, in.MaxRecords, func(name string) types.CacheParameterGroup { return all[name].describe() })
		return &elasticache.DescribeCacheParameterGroupsOutput{CacheParameterGroups: groups, Marker: next}, err
	})
}

// deleteCacheParameterGroup deletes a custom group no cluster uses.
func (b *Backend) deleteCacheParameterGroup(call *core.Call, in *elasticache.DeleteCacheParameterGroupInput) (*elasticache.DeleteCacheParameterGroupOutput, error) {
	return settledOn(b, call, in.CacheParameterGroupName, (*region).customParamGroup, func(r *region, g *paramGroup) (*elasticache.DeleteCacheParameterGroupOutput, error) {
		if len(r.usersOf(g.name)) > 0 {
			return nil, core.Errorf("InvalidCacheParameterGroupState", "One or more cache clusters are still members of parameter group %s.", g.name)
		}
		delete(r.paramGroups, g.name)
		b.tags.Delete(g.arn)
		return &elasticache.DeleteCacheParameterGroupOutput{}, nil
	})
}

// usersOf returns the clusters (standalone and members of replication groups) that use the
// parameter group name, in id order. The caller holds the backend's mutex.
func (r *region) usersOf(name string) []*cluster {
	var out []*cluster
	for _, id := range core.SortedKeys(r.clusters) {
		if c := r.clusters[id]; groupOf(c.cfg) == name {
			out = append(out, c)
		}
	}
	return out
}
