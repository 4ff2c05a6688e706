package ekscluster

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planner plans the changes of one observation of an ACTIVE cluster and gathers why it is not
// Ready yet.
type planner struct {
	// d makes the calls the plan holds.
	d *driver
	// o is the object whose spec the cluster is compared with.
	o *v1alpha1.EKSCluster
	// state is what AWS said about the cluster, its node groups and its add-ons.
	state *State
	// tags are the tags the cluster, its node groups and its add-ons should carry.
	tags map[string]string
	// obs is the observation the plan goes to.
	obs *managed.Observation[State]
	// waiting says why the cluster is not Ready yet, one entry per reason.
	waiting []string
	// membersSettled is false while a node group or add-on is being created, changed or
	// deleted, or a node group runs an older Kubernetes version than the control plane: a
	// version upgrade of the control plane waits for them.
	membersSettled bool
}

// plan plans, in order, the cluster's tags, the changes of its node groups and add-ons (see
// planNodeGroups and planAddons), and then at most one update of the cluster itself (see
// planCluster): EKS refuses a second update while one is in progress, and node groups and
// add-ons can be created only in an ACTIVE cluster. The cluster is Ready when it runs the
// spec's version and every node group and add-on is ACTIVE and as the spec says.
func (d *driver) plan(obs *managed.Observation[State], o *v1alpha1.EKSCluster, tags map[string]string) {
	p := &planner{d: d, o: o, state: obs.State, tags: tags, obs: obs, membersSettled: true}
	c := obs.State.Cluster
	obs.Conflict = clusterCreatedAsSpecified(o, c)
	p.planTags("tags", aws.ToString(c.Arn), c.Tags)
	p.planNodeGroups()
	p.planAddons()
	p.planCluster()
	if running := aws.ToString(c.Version); running != o.Spec.Version {
		p.waiting = append(p.waiting, "the control plane runs Kubernetes "+running+", upgrading to "+o.Spec.Version+" one minor version at a time")
	}
	obs.Ready = len(p.waiting) == 0
	obs.Message = strings.Join(p.waiting, "; ")
}

// conflict records err as the observation's conflict, unless one is recorded already.
func (p *planner) conflict(err error) {
	if p.obs.Conflict == nil {
		p.obs.Conflict = err
	}
}

// wait records that a node group or add-on is not settled: why the cluster is not Ready, and,
// when uncompared names a field, that the field could not be compared.
func (p *planner) wait(why, uncompared string) {
	p.waiting = append(p.waiting, why)
	p.membersSettled = false
	if uncompared != "" {
		p.obs.Uncompared = append(p.obs.Uncompared, uncompared)
	}
}

// specNodeGroupNames returns the names of the spec's node groups.
func specNodeGroupNames(o *v1alpha1.EKSCluster) []string {
	out := make([]string, 0, len(o.Spec.NodeGroups))
	for _, g := range o.Spec.NodeGroups {
		out = append(out, g.Name)
	}
	return out
}

// specAddonNames returns the names of the spec's add-ons.
func specAddonNames(o *v1alpha1.EKSCluster) []string {
	out := make([]string, 0, len(o.Spec.Addons))
	for _, a := range o.Spec.Addons {
		out = append(out, a.Name)
	}
	return out
}

// memberNames returns the names of the node groups or add-ons (found, by name, with tagsOf)
// that o manages: those of inSpec that exist, in the spec's order, then those that carry o's
// ownership tags and are not in the spec, sorted.
func memberNames[T any](o *v1alpha1.EKSCluster, inSpec []string, found map[string]T, tagsOf func(T) map[string]string) []string {
	var out []string
	for _, name := range inSpec {
		if _, ok := found[name]; ok {
			out = append(out, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(found)) {
		if !slices.Contains(inSpec, name) && managed.OwnedBy(o, tagsOf(found[name])) {
			out = append(out, name)
		}
	}
	return out
}

// minor returns the minor number of a Kubernetes version "1.<minor>", or -1.
func minor(version string) int {
	major, m, ok := strings.Cut(version, ".")
	n, err := strconv.Atoi(m)
	if !ok || major != "1" || err != nil {
		return -1
	}
	return n
}

// ownedByAnother reports whether the node group or add-on (what) name, which the spec lists in
// field, carries the ownership tags of another object, and records the conflict if so. One
// without ownership tags is adopted: the plan tags it.
func (p *planner) ownedByAnother(what, field, name string, tags map[string]string) bool {
	if tags[shared.TagOwnerUID] == "" || managed.OwnedBy(p.o, tags) {
		return false
	}
	p.conflict(managed.Terminal(condition.ReasonOwnedByAnother, "%s %s of EKS cluster %s belongs to the %s %s/%s; remove it from %s, or give yours another name",
		what, name, aws.ToString(p.state.Cluster.Name), tags[shared.TagOwnerKind], tags[shared.TagOwnerNamespace], tags[shared.TagOwnerName], field))
	return true
}

// planRemovals plans deleting the node groups or add-ons (what, listed in the spec under
// field) of found that carry o's ownership tags and that inSpec no longer names, with remove;
// describe returns one's tags and whether it is being deleted already, which is waited for.
// Those made outside the operator are left alone.
func planRemovals[T any](p *planner, what, field string, inSpec []string, found map[string]T, describe func(T) (map[string]string, bool),
	remove func(ctx context.Context, name string) error) {
	for _, name := range slices.Sorted(maps.Keys(found)) {
		tags, deleting := describe(found[name])
		if slices.Contains(inSpec, name) || !managed.OwnedBy(p.o, tags) {
			continue
		}
		at := field + "[" + name + "]"
		if deleting {
			p.wait(what+" "+name+" is being deleted", at+" (DELETING)")
			continue
		}
		p.obs.Changes.Add(at, func(ctx context.Context) error { return remove(ctx, name) })
		p.wait(what+" "+name+" is no longer in the spec", "")
	}
}
