package rds

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// resourceKind is what the operations of a kind of resource (T, described as V: DB instances,
// DB clusters) share: how one is found by identifier and its status, how a Describe operation
// lists them (every one in a region, or the one a request names, that is readable and passes the
// request's filters), and the errors of the kind. A request that names a missing one is
// answered with notFound.
type resourceKind[T, V any] struct {
	ids        func(r *region) []string
	find       func(r *region, id string, now time.Time) *T
	status     func(t *T) string
	readableAt func(t *T) time.Time
	fields     func(r *region, t *T) map[string][]string
	describe   func(r *region, t *T, now time.Time) V
	notFound   func(ref string) *core.APIError
	// exists is the error for a new identifier in use; deleting the error for a resource a
	// request would delete that is being deleted; protected reports deletion protection, which
	// refuses a Delete request with unprotect's message.
	exists    func() error
	deleting  func(t *T) error
	protected func(t *T) bool
	unprotect string
}

// The kinds of resource found by identifier.
var (
	instanceKind = resourceKind[instance, types.DBInstance]{
		ids: func(r *region) []string { return core.SortedKeys(r.instances) }, find: (*region).instance, status: (*instance).status,
		readableAt: func(i *instance) time.Time { return i.readableAt },
		fields: func(r *region, i *instance) map[string][]string {
			return map[string][]string{"db-instance-id": {i.id, i.arn}, "engine": {i.eng.name}, "dbi-resource-id": {i.resourceID},
				"db-cluster-id": {i.cluster, r.scope.ARN("rds", "cluster:"+i.cluster)}}
		},
		describe: (*region).describe, notFound: instanceNotFound,
		exists: func() error { return core.Errorf("DBInstanceAlreadyExists", "DB instance already exists") },
		deleting: func(i *instance) error {
			return core.Errorf("InvalidDBInstanceState", "Instance %s is already being deleted.", i.id)
		},
		protected: func(i *instance) bool { return i.deletionProtection },
		unprotect: "Cannot delete protected DB Instance, please disable deletion protection and try again.",
	}
	clusterKind = resourceKind[cluster, types.DBCluster]{
		ids: func(r *region) []string { return core.SortedKeys(r.clusters) }, find: (*region).cluster, status: (*cluster).status,
		readableAt: func(c *cluster) time.Time { return c.readableAt },
		fields: func(_ *region, c *cluster) map[string][]string {
			return map[string][]string{"db-cluster-id": {c.id, c.arn}, "engine": {c.eng.name}, "db-cluster-resource-id": {c.resourceID}}
		},
		describe: (*region).describeCluster, notFound: clusterNotFound,
		exists:    func() error { return core.Errorf("DBClusterAlreadyExistsFault", "DB Cluster already exists") },
		deleting:  func(c *cluster) error { return clusterState("Cluster %s is already being deleted.", c.id) },
		protected: func(c *cluster) bool { return c.deletionProtection },
		unprotect: "Cannot delete protected Cluster, please disable deletion protection and try again.",
	}
)

// list returns the resources a Describe operation lists at now, described, in the order of their
// identifiers: every readable one, or the one ref names, that passes filters. The caller holds
// the backend's mutex.
func (l resourceKind[T, V]) list(r *region, ref *string, filters []types.Filter, now time.Time) ([]V, error) {
	ids := l.ids(r)
	if ref != nil {
		ids = []string{*ref}
	}
	found, err := matching(ids, filters, func(id string) (*T, bool) {
		t := l.find(r, id, now)
		return t, t != nil && !now.Before(l.readableAt(t))
	}, func(_ string, t *T) map[string][]string { return l.fields(r, t) }, func(t *T) V { return l.describe(r, t, now) })
	if err != nil {
		return nil, err
	}
	if ref != nil && len(found) == 0 {
		return nil, l.notFound(*ref)
	}
	return found, nil
}

// named returns the resource a request names in ref, or the error for a missing one. The caller
// holds the backend's mutex.
func (k resourceKind[T, V]) named(r *region, ref *string, now time.Time) (*T, error) {
	t := k.find(r, aws.ToString(ref), now)
	if t == nil {
		return nil, k.notFound(aws.ToString(ref))
	}
	return t, nil
}

// available returns the available resource a request names in ref, or the error for a missing
// one, or state's error for one in another state. The caller holds the backend's mutex.
func (k resourceKind[T, V]) available(r *region, ref *string, now time.Time, state func(t *T) error) (*T, error) {
	t, err := k.named(r, ref, now)
	if err == nil && k.status(t) != statusAvailable {
		return nil, state(t)
	}
	return t, err
}

// deletable returns the resource a Delete request names in ref, or the error for one that is
// missing, already being deleted or protected from deletion. The caller holds the backend's
// mutex.
func (k resourceKind[T, V]) deletable(r *region, ref *string, now time.Time) (*T, error) {
	t, err := k.named(r, ref, now)
	switch {
	case err != nil:
		return nil, err
	case k.status(t) == statusDeleting:
		return nil, k.deleting(t)
	case k.protected(t):
		return nil, invalidCombination("%s", k.unprotect)
	}
	return t, nil
}

// creating checks the identifier a Create or Restore request gives in field (ref) for a new
// resource of the kind k, and runs f with it, holding the backend's mutex. When taken is set, an
// identifier in use is refused before f runs; otherwise f checks it.
func creating[T, V, O any](b *Backend, call *core.Call, k resourceKind[T, V], field string, ref *string, taken bool,
	f func(r *region, id string) (*O, error)) (*O, error) {
	id, err := checkIdentifier(field, aws.ToString(ref), 63)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*O, error) {
		if taken && k.find(r, id, call.Now) != nil {
			return nil, k.exists()
		}
		return f(r, id)
	})
}
