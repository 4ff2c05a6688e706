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
	}
)

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
