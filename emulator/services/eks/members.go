package eks

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// What clusters, node groups and add-ons share in how they are found, named and listed.

// member is a node group or add-on of a cluster, C its SDK description. Like a cluster's, its
// settings are replaced, never changed in place.
type member[C any] struct {
	lifecycle
	token string // the ClientRequestToken of the request that created it
	cfg   C      // as described, but for status and tags
}

// present returns m, or missing when m is nil: the resource a request names is not there, or its
// deletion has ended.
func present[M any](m *M, missing error) (*M, error) {
	if m == nil {
		return nil, missing
	}
	return m, nil
}

// named returns phase p as a kind of resource names it with its status enum: creating,
// updating, deleting (until it is gone) or active.
func named[S any](p phase, creating, updating, deleting, active S) S {
	switch p {
	case phaseCreating:
		return creating
	case phaseUpdating:
		return updating
	case phaseDeleting, phaseGone:
		return deleting
	}
	return active
}

// live returns the resource name of resources, settled at now, or nil when there is none or its
// deletion has ended, when it deletes it and forget forgets the rest of it (its tags). The
// caller holds the backend's mutex.
func live[M interface{ phase(time.Time) phase }](resources map[string]M, name string, now time.Time, forget func(M)) M {
	m, ok := resources[name]
	if ok && m.phase(now) == phaseGone {
		delete(resources, name)
		forget(m)
		var none M
		return none
	}
	return m
}

// liveNames returns the names of resources, sorted, for which alive (which settles them)
// reports that they are still there.
func liveNames[M any](resources map[string]M, alive func(name string) bool) []string {
	var names []string
	for _, n := range core.SortedKeys(resources) {
		if alive(n) {
			names = append(names, n)
		}
	}
	return names
}

// inCluster runs f, holding the backend's mutex, on the call's region and the cluster a request
// names in its clusterName, or answers the error EKS gives for that name.
func inCluster[O any](b *Backend, call *core.Call, name *string, f func(r *region, c *cluster) (*O, error)) (*O, error) {
	return core.Locked(b.state, call, func(r *region) (*O, error) {
		c, err := r.cluster("clusterName", aws.ToString(name), call.Now)
		if err != nil {
			return nil, err
		}
		return f(r, c)
	})
}

// inMember runs f, holding the backend's mutex, on the node group or add-on a request names in
// name, which find looks up in the cluster it names in clusterName, or answers the error EKS
// gives for either name.
func inMember[M, O any](b *Backend, call *core.Call, find func(c *cluster, r *region, name string, now time.Time) (M, error),
	clusterName, name *string, f func(r *region, c *cluster, m M) (*O, error)) (*O, error) {
	return inCluster(b, call, clusterName, func(r *region, c *cluster) (*O, error) {
		m, err := find(c, r, aws.ToString(name), call.Now)
		if err != nil {
			return nil, err
		}
		return f(r, c, m)
	})
}
