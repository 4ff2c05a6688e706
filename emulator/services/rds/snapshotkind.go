package rds

import (
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// snapshotOf is one manual snapshot of a source (an instance, or a cluster) described as V: its
// description (without status, progress and tags), when it is ready, and the source as it was
// when the snapshot was taken, which a restore recreates (its master user and password
// included, as a restored instance or cluster keeps them).
type snapshotOf[V, Src any] struct {
	view    V
	readyAt time.Time
	source  Src
}

// A snapshot is a DB snapshot, of an instance; a clusterSnapshot is a DB cluster snapshot.
type (
	snapshot        = snapshotOf[types.DBSnapshot, instance]
	clusterSnapshot = snapshotOf[types.DBClusterSnapshot, cluster]
)

func snapshotNotFound(id string) *core.APIError {
	return core.NotFoundf("DBSnapshotNotFound", "DBSnapshot not found: %s", id)
}

func clusterSnapshotNotFound(id string) *core.APIError {
	return core.NotFoundf("DBClusterSnapshotNotFoundFault", "DBClusterSnapshot %s not found.", id)
}

// snapshotKind is what the operations of a kind of snapshot (DB snapshot, DB cluster snapshot)
// share: where a region keeps the snapshots (of sources Src, described as V) and the ARN resource
// type of their names, where a description keeps the ARN, status, progress and tags, and the
// errors of the kind.
type snapshotKind[V, Src any] struct {
	snapshots func(r *region) map[string]*snapshotOf[V, Src]
	resource  string
	fields    func(v *V) (arn *string, status **string, progress **int32, tags *[]types.Tag)
	notFound  func(ref string) *core.APIError
	// exists and creating are the errors for a taken identifier and for a source still creating.
	exists   func(id string) error
	creating func(source string) error
	// state is the error code for a snapshot in the wrong state, and notReady the message (of
	// the request's reference) for restoring one that is not available yet.
	state, notReady string
}

// The kinds of snapshot.
var (
	dbSnapshots = snapshotKind[types.DBSnapshot, instance]{
		snapshots: func(r *region) map[string]*snapshot { return r.snapshots }, resource: "snapshot",
		fields: func(v *types.DBSnapshot) (*string, **string, **int32, *[]types.Tag) {
			return v.DBSnapshotArn, &v.Status, &v.PercentProgress, &v.TagList
		},
		notFound: snapshotNotFound,
		exists: func(id string) error {
			return core.Errorf("DBSnapshotAlreadyExists", "Cannot create the snapshot because a snapshot with the identifier %s already exists.", id)
		},
		creating: func(source string) error {
			return core.Errorf("InvalidDBInstanceState", "Instance %s is currently creating - a snapshot cannot be taken.", source)
		},
		state: "InvalidDBSnapshotState", notReady: "Snapshot %s is not in available state.",
	}
	clusterSnapshots = snapshotKind[types.DBClusterSnapshot, cluster]{
		snapshots: func(r *region) map[string]*clusterSnapshot { return r.clusterSnapshots }, resource: "cluster-snapshot",
		fields: func(v *types.DBClusterSnapshot) (*string, **string, **int32, *[]types.Tag) {
			return v.DBClusterSnapshotArn, &v.Status, &v.PercentProgress, &v.TagList
		},
		notFound: clusterSnapshotNotFound,
		exists: func(id string) error {
			return core.Errorf("DBClusterSnapshotAlreadyExistsFault", "Cannot create the snapshot because a snapshot with the identifier %s already exists.", id)
		},
		creating: func(source string) error {
			return clusterState("Cluster %s is currently creating - a snapshot cannot be taken.", source)
		},
		state: "InvalidDBClusterSnapshotStateFault", notReady: "DBClusterSnapshot %s is not available.",
	}
)

// arn returns a snapshot's ARN.
func (k snapshotKind[V, Src]) arn(s *snapshotOf[V, Src]) string {
	arn, _, _, _ := k.fields(&s.view)
	return aws.ToString(arn)
}

// describe returns a snapshot as the Describe operation of its kind reports it at now: creating
// for a transition, then available; with its tags.
func (k snapshotKind[V, Src]) describe(r *region, s *snapshotOf[V, Src], now time.Time) V {
	d := s.view
	_, status, progress, tags := k.fields(&d)
	*status, *progress = aws.String("available"), aws.Int32(100)
	if now.Before(s.readyAt) {
		*status, *progress = aws.String("creating"), aws.Int32(0)
	}
	*tags = r.tagList(k.arn(s))
	return d
}

// finalSnapshot checks a Delete operation's SkipFinalSnapshot and FinalDBSnapshotIdentifier,
// and has take take the final snapshot when one is asked for.
func finalSnapshot(skip *bool, final *string, take func(id string) error) error {
	switch {
	case aws.ToBool(skip) && final != nil:
		return invalidCombination("FinalDBSnapshotIdentifier can't be specified when SkipFinalSnapshot is enabled.")
	case !aws.ToBool(skip) && final == nil:
		return invalidCombination("FinalDBSnapshotIdentifier is required unless SkipFinalSnapshot is specified.")
	case final != nil:
		return take(*final)
	}
	return nil
}

// newID checks the identifier name a request gives in field for a new snapshot of the source
// source, which may not be creating, and returns it, lowercased. The caller holds the backend's
// mutex.
func (k snapshotKind[V, Src]) newID(r *region, field, name, source string, creating bool) (string, error) {
	id, err := checkIdentifier(field, name, 255)
	if err != nil {
		return "", err
	}
	if creating {
		return "", k.creating(source)
	}
	if _, ok := k.snapshots(r)[id]; ok {
		return "", k.exists(id)
	}
	return id, nil
}

// keep adds the new snapshot s, named id, with the tags of its source (whose ARN is source) when
// copyTags is set. The caller holds the backend's mutex.
func (k snapshotKind[V, Src]) keep(r *region, id string, s *snapshotOf[V, Src], source string, copyTags bool) {
	if copyTags {
		r.tags.Copy(source, k.arn(s))
	}
	k.snapshots(r)[id] = s
}

// created adds a Create operation's tags to the snapshot s it took and returns s described.
func (k snapshotKind[V, Src]) created(r *region, s *snapshotOf[V, Src], tags []types.Tag, now time.Time) (*V, error) {
	if err := r.tags.Merge(requestTags(tags), k.arn(s)); err != nil {
		return nil, err
	}
	out := k.describe(r, s, now)
	return &out, nil
}

// find returns the snapshot a request names by identifier or ARN in ref, or the error for a
// missing one. The caller holds the backend's mutex.
func (k snapshotKind[V, Src]) find(r *region, ref string) (string, *snapshotOf[V, Src], error) {
	id := strings.ToLower(r.nameFromARN(ref, k.resource))
	s, ok := k.snapshots(r)[id]
	if !ok {
		return "", nil, k.notFound(ref)
	}
	return id, s, nil
}

// ready returns the available snapshot a Restore request names by identifier or ARN in ref, or
// the error for one that is missing or not available yet. The caller holds the backend's mutex.
func (k snapshotKind[V, Src]) ready(r *region, ref string, now time.Time) (*snapshotOf[V, Src], error) {
	_, s, err := k.find(r, ref)
	if err == nil && now.Before(s.readyAt) {
		return nil, core.Errorf(k.state, k.notReady, ref)
	}
	return s, err
}

// listed returns the snapshots a Describe operation lists, described at now, in the order of
// their identifiers: every snapshot, or the one ref names, that passes filters, whose fields
// returns a snapshot's filterable fields.
func (k snapshotKind[V, Src]) listed(r *region, ref *string, filters []types.Filter, now time.Time,
	fields func(id string, v V) map[string][]string) ([]V, error) {
	ids := core.SortedKeys(k.snapshots(r))
	if ref != nil {
		id, _, err := k.find(r, *ref)
		if err != nil {
			return nil, err
		}
		ids = []string{id}
	}
	return matching(ids, filters, func(id string) (V, bool) { return k.describe(r, k.snapshots(r)[id], now), true },
		fields, func(v V) V { return v })
}

// remove deletes the available snapshot a request names in ref, and its tags, and returns it
// described as deleted, or the error for a snapshot that is missing or not available.
func (k snapshotKind[V, Src]) remove(r *region, ref *string, now time.Time) (*V, error) {
	id := strings.ToLower(aws.ToString(ref))
	s, ok := k.snapshots(r)[id]
	if !ok {
		return nil, k.notFound(aws.ToString(ref))
	}
	out := k.describe(r, s, now)
	_, status, _, _ := k.fields(&out)
	if aws.ToString(*status) != "available" {
		return nil, core.Errorf(k.state, "Cannot delete the snapshot %s because it is in state %s.", id, aws.ToString(*status))
	}
	delete(k.snapshots(r), id)
	r.tags.Delete(k.arn(s))
	*status = aws.String("deleted")
	return &out, nil
}
