package rds

import (
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// groupKind is what the operations of a kind of group (DB subnet group, DB parameter group,
// option group) share: where a region keeps the groups, their ARN, the errors for a name that is
// taken, missing or in use, and whether an instance uses a group.
type groupKind[G any] struct {
	groups   func(r *region) map[string]*G
	arn      func(g *G) string
	exists   func(name string) error
	notFound func(ref string) error
	inUse    func(name, instance string) error
	uses     func(i *instance, name string) bool
	// usedBy, when set, returns the identifier of a user of the group (a DB cluster, for a DB
	// cluster parameter group) in place of the instances uses looks at, or "".
	usedBy func(r *region, name string, now time.Time) string
	// Default groups, whose names start with defaultPrefix when it is set, may not be deleted:
	// deleting one is an error of code defaultCode and message defaultMessage (of the name).
	defaultPrefix, defaultCode, defaultMessage string
	// Parameter groups are named in a Create request's field, have ARNs of resource type
	// resource, and are of a family that family accepts (or answers the error for), whose
	// parameters catalogue lists. lookup finds a group (and makes a default one), and changed
	// leaves the users of a group pending-reboot.
	field, resource string
	family          func(family string) error
	catalogue       func(family string) []parameter
	lookup          func(r *region, name string) (*paramGroup, bool)
	changed         func(r *region, name string, now time.Time)
}

// The kinds of group.
var (
	subnetGroups = groupKind[subnetGroup]{
		groups: func(r *region) map[string]*subnetGroup { return r.subnetGroups }, arn: func(g *subnetGroup) string { return g.arn },
		exists: func(name string) error {
			return core.Errorf("DBSubnetGroupAlreadyExists", "The DB subnet group '%s' already exists.", name)
		},
		notFound: func(ref string) error { return subnetGroupNotFound(ref) },
		inUse: func(name, id string) error {
			return core.Errorf("InvalidDBSubnetGroupStateFault", "Cannot delete the subnet group '%s' because at least one database instance: %s is still using it.", name, id)
		},
		uses: func(i *instance, name string) bool {
			return i.subnetGroup == name || aws.ToString(i.pending.subnetGroup) == name
		},
	}
	paramGroups = groupKind[paramGroup]{
		groups: func(r *region) map[string]*paramGroup { return r.paramGroups }, arn: func(g *paramGroup) string { return g.arn },
		exists: func(name string) error {
			return core.Errorf("DBParameterGroupAlreadyExists", "Parameter group %s already exists", name)
		},
		notFound: func(ref string) error { return paramGroupNotFound(ref) },
		inUse: func(name, _ string) error {
			return core.Errorf("InvalidDBParameterGroupState",
				"One or more database instances are still members of this parameter group %s, so the group cannot be deleted", name)
		},
		uses: func(i *instance, name string) bool {
			return i.paramGroup == name || aws.ToString(i.pending.paramGroup) == name
		},
		defaultPrefix: "default.", defaultCode: "InvalidDBParameterGroupState", defaultMessage: "Default DBParameterGroup cannot be deleted: %s",
		field: "DBParameterGroupName", resource: "pg", catalogue: catalogueOf,
		lookup: (*region).paramGroup, changed: (*region).parametersChanged,
		family: func(family string) error {
			if !isFamily(family) {
				return invalidValue("Invalid DB parameter group family: %s", family)
			}
			return nil
		},
	}
	// clusterParamGroups are DB cluster parameter groups as a kind of group: used by clusters.
	clusterParamGroups = groupKind[paramGroup]{
		groups: func(r *region) map[string]*paramGroup { return r.clusterParamGroups }, arn: func(g *paramGroup) string { return g.arn },
		exists: func(name string) error {
			return core.Errorf("DBParameterGroupAlreadyExists", "Parameter group %s already exists", name)
		},
		notFound: func(ref string) error { return clusterParamGroupNotFound(ref) },
		inUse: func(name, _ string) error {
			return core.Errorf("InvalidDBParameterGroupState",
				"One or more DB clusters are still members of this parameter group %s, so the group cannot be deleted", name)
		},
		usedBy: func(r *region, name string, now time.Time) string {
			for _, id := range core.SortedKeys(r.clusters) {
				if c := r.cluster(id, now); c != nil && (c.paramGroup == name || aws.ToString(c.pendingParamGroup) == name) {
					return c.id
				}
			}
			return ""
		},
		defaultPrefix: "default.", defaultCode: "InvalidDBParameterGroupState", defaultMessage: "Default DBClusterParameterGroup cannot be deleted: %s",
		field: "DBClusterParameterGroupName", resource: "cluster-pg", catalogue: clusterCatalogueOf,
		lookup: (*region).clusterParamGroup, changed: (*region).clusterParametersChanged,
		family: func(family string) error {
			if !isClusterFamily(family) {
				return invalidValue("Invalid DB cluster parameter group family: %s", family)
			}
			return nil
		},
	}
	optionGroups = groupKind[optionGroup]{
		groups: func(r *region) map[string]*optionGroup { return r.optionGroups }, arn: func(g *optionGroup) string { return g.arn },
		exists: func(name string) error {
			return core.Errorf("OptionGroupAlreadyExistsFault", "Option Group %s already exists.", name)
		},
		notFound: func(ref string) error { return optionGroupNotFound(ref) },
		inUse: func(name, _ string) error {
			return core.Errorf("InvalidOptionGroupStateFault", "The option group '%s' cannot be deleted because it is in use.", name)
		},
		uses: func(i *instance, name string) bool {
			return i.optionGroup == name || aws.ToString(i.pending.optionGroup) == name
		},
		defaultPrefix: "default:", defaultCode: "InvalidOptionGroupStateFault", defaultMessage: "Default option group %s cannot be deleted.",
	}
)

// parametersChanged marks the live instances of the group name pending-reboot. The caller holds
// the backend's mutex.
func (r *region) parametersChanged(name string, now time.Time) {
	for _, id := range core.SortedKeys(r.instances) {
		if i := r.instance(id, now); i != nil && i.paramGroup == name {
			i.paramStatus = "pending-reboot"
		}
	}
}

// clusterParametersChanged marks the members of the clusters of the group name pending-reboot.
func (r *region) clusterParametersChanged(name string, now time.Time) {
	for _, id := range core.SortedKeys(r.clusters) {
		if c := r.cluster(id, now); c != nil && c.paramGroup == name {
			for _, i := range r.members(c, now) {
				i.clusterParamStatus = "pending-reboot"
			}
		}
	}
}

// user returns the identifier of a live instance for which uses holds, or "".
func (r *region) user(now time.Time, uses func(*instance) bool) string {
	for _, id := range core.SortedKeys(r.instances) {
		if i := r.instance(id, now); i != nil && uses(i) {
			return i.id
		}
	}
	return ""
}

// add adds the new group g, named name, to the region with a request's tags, or answers the
// error for a name that is taken. The caller holds the backend's mutex.
func (k groupKind[G]) add(r *region, name string, g *G, tags []types.Tag) error {
	if _, ok := k.groups(r)[name]; ok {
		return k.exists(name)
	}
	if err := r.tags.Merge(requestTags(tags), k.arn(g)); err != nil {
		return err
	}
	k.groups(r)[name] = g
	return nil
}

// remove deletes the group a request names in ref, and its tags, or answers the error for a
// group that is missing or that an instance uses at now. The caller holds the backend's mutex.
func (k groupKind[G]) remove(r *region, ref *string, now time.Time) error {
	name := strings.ToLower(aws.ToString(ref))
	g, ok := k.groups(r)[name]
	if !ok {
		return k.notFound(aws.ToString(ref))
	}
	if k.usedBy != nil {
		if id := k.usedBy(r, name, now); id != "" {
			return k.inUse(name, id)
		}
	} else if id := r.user(now, func(i *instance) bool { return k.uses(i, name) }); id != "" {
		return k.inUse(name, id)
	}
	r.tags.Delete(k.arn(g))
	delete(k.groups(r), name)
	return nil
}

// delete deletes the group a Delete request names in ref (see remove), or answers the error for
// a default group.
func (k groupKind[G]) delete(b *Backend, call *core.Call, ref *string) error {
	if name := strings.ToLower(aws.ToString(ref)); k.defaultPrefix != "" && strings.HasPrefix(name, k.defaultPrefix) {
		return core.Errorf(k.defaultCode, k.defaultMessage, name)
	}
	_, err := core.Locked(b.state, call, func(r *region) (struct{}, error) { return struct{}{}, k.remove(r, ref, call.Now) })
	return err
}

// createParamGroup checks a Create request's name and family for a new parameter group of the
// kind k and adds the group, with the request's tags.
func (b *Backend) createParamGroup(call *core.Call, k groupKind[paramGroup], name, family, description *string, tags []types.Tag) (*paramGroup, error) {
	id, err := checkIdentifier(k.field, aws.ToString(name), 255)
	if err != nil {
		return nil, err
	}
	if err := k.family(aws.ToString(family)); err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*paramGroup, error) {
		g := &paramGroup{name: id, arn: r.scope.ARN("rds", k.resource+":"+id), family: aws.ToString(family), description: aws.ToString(description)}
		return g, k.add(r, id, g, tags)
	})
}

// listed returns the groups a Describe operation lists, in the order of their names: every
// group, or the one ref names when it names one, which find looks up (and makes, for a default
// group), or the error for a group that is missing.
func (k groupKind[G]) listed(r *region, ref *string, find func(name string) (*G, bool)) ([]*G, error) {
	if ref != nil {
		g, ok := find(*ref)
		if !ok {
			return nil, k.notFound(*ref)
		}
		return []*G{g}, nil
	}
	var out []*G
	for _, name := range core.SortedKeys(k.groups(r)) {
		out = append(out, k.groups(r)[name])
	}
	return out, nil
}

// describedGroups returns the groups a Describe operation lists (see listed) that keep, when set,
// keeps, each as view describes it.
func describedGroups[G, V any](k groupKind[G], r *region, ref *string, find func(name string) (*G, bool),
	keep func(g *G) bool, view func(g *G) V) ([]V, error) {
	listed, err := k.listed(r, ref, find)
	if err != nil {
		return nil, err
	}
	var out []V
	for _, g := range listed {
		if keep == nil || keep(g) {
			out = append(out, view(g))
		}
	}
	return out, nil
}
