package rds

import (
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// clusterSnapshot is one manual DB cluster snapshot, and when it is ready.
type clusterSnapshot struct {
	view    types.DBClusterSnapshot // without status, progress and tags
	readyAt time.Time
	// cluster is the cluster as it was when the snapshot was taken, which a restore recreates
	// (its master user and password included).
	cluster cluster
}

// describeClusterSnapshot returns a snapshot as DescribeDBClusterSnapshots reports it:
// creating for a transition, then available.
func (r *region) describeClusterSnapshot(s *clusterSnapshot, now time.Time) types.DBClusterSnapshot {
	d := s.view
	d.Status, d.PercentProgress = aws.String("available"), aws.Int32(100)
	if now.Before(s.readyAt) {
		d.Status, d.PercentProgress = aws.String("creating"), aws.Int32(0)
	}
	d.TagList = r.tagList(aws.ToString(s.view.DBClusterSnapshotArn))
	return d
}

func clusterSnapshotNotFound(id string) *core.APIError {
	return core.NotFoundf("DBClusterSnapshotNotFoundFault", "DBClusterSnapshot %s not found.", id)
}

// takeClusterSnapshot records a manual snapshot of a cluster (DeleteDBCluster's final snapshot,
// whose identifier field is field), with the cluster's tags when it copies tags to snapshots.
func (r *region) takeClusterSnapshot(call *core.Call, c *cluster, field, name string) (*clusterSnapshot, error) {
	id, err := checkIdentifier(field, name, 255)
	if err != nil {
		return nil, err
	}
	if c.status() == statusCreating {
		return nil, clusterState("Cluster %s is currently creating - a snapshot cannot be taken.", c.id)
	}
	if _, ok := r.clusterSnapshots[id]; ok {
		return nil, core.Errorf("DBClusterSnapshotAlreadyExistsFault", "Cannot create the snapshot because a snapshot with the identifier %s already exists.", id)
	}
	s := &clusterSnapshot{readyAt: call.Now.Add(call.Transition), cluster: *c}
	s.view = types.DBClusterSnapshot{
		DBClusterSnapshotIdentifier: aws.String(id), DBClusterSnapshotArn: aws.String(r.scope.ARN("rds", "cluster-snapshot:"+id)),
		DBClusterIdentifier: aws.String(c.id), DbClusterResourceId: aws.String(c.resourceID), SnapshotType: aws.String("manual"),
		SnapshotCreateTime: aws.Time(call.Now), ClusterCreateTime: aws.Time(c.created), Engine: aws.String(c.eng.name),
		EngineVersion: aws.String(c.engineVersion), EngineMode: aws.String("provisioned"), LicenseModel: aws.String(c.eng.license),
		AllocatedStorage: aws.Int32(1), StorageType: aws.String("aurora"), Port: aws.Int32(c.port), MasterUsername: aws.String(c.masterUsername),
		StorageEncrypted: aws.Bool(c.encrypted), IAMDatabaseAuthenticationEnabled: aws.Bool(false),
		AvailabilityZones: []string{zoneOf(r.scope.Region, 0), zoneOf(r.scope.Region, 1), zoneOf(r.scope.Region, 2)},
	}
	if c.encrypted {
		s.view.KmsKeyId = aws.String(c.kmsKey)
	}
	if c.copyTags {
		r.tags.Copy(c.arn, *s.view.DBClusterSnapshotArn)
	}
	r.clusterSnapshots[id] = s
	return s, nil
}

// createDBClusterSnapshot takes a manual snapshot of an available cluster, with the request's
// tags.
func (b *Backend) createDBClusterSnapshot(call *core.Call, in *rds.CreateDBClusterSnapshotInput) (*rds.CreateDBClusterSnapshotOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.CreateDBClusterSnapshotOutput, error) {
		c := r.cluster(aws.ToString(in.DBClusterIdentifier), call.Now)
		if c == nil {
			return nil, clusterNotFound(aws.ToString(in.DBClusterIdentifier))
		}
		if c.status() != statusAvailable {
			return nil, clusterState("DBCluster %s is not in available state.", c.id)
		}
		s, err := r.takeClusterSnapshot(call, c, "DBClusterSnapshotIdentifier", aws.ToString(in.DBClusterSnapshotIdentifier))
		if err != nil {
			return nil, err
		}
		if err := r.tags.Merge(requestTags(in.Tags), aws.ToString(s.view.DBClusterSnapshotArn)); err != nil {
			return nil, err
		}
		out := r.describeClusterSnapshot(s, call.Now)
		return &rds.CreateDBClusterSnapshotOutput{DBClusterSnapshot: &out}, nil
	})
}

func (b *Backend) describeDBClusterSnapshots(call *core.Call, in *rds.DescribeDBClusterSnapshotsInput) (*rds.DescribeDBClusterSnapshotsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DescribeDBClusterSnapshotsOutput, error) {
		ids := core.SortedKeys(r.clusterSnapshots)
		if in.DBClusterSnapshotIdentifier != nil {
			id := strings.ToLower(r.nameFromARN(*in.DBClusterSnapshotIdentifier, "cluster-snapshot"))
			if _, ok := r.clusterSnapshots[id]; !ok {
				return nil, clusterSnapshotNotFound(*in.DBClusterSnapshotIdentifier)
			}
			ids = []string{id}
		}
		filters := in.Filters
		if in.DBClusterIdentifier != nil {
			id := strings.ToLower(r.nameFromARN(*in.DBClusterIdentifier, "cluster"))
			filters = append(filters, types.Filter{Name: aws.String("db-cluster-id"), Values: []string{id}})
		}
		if in.SnapshotType != nil {
			filters = append(filters, types.Filter{Name: aws.String("snapshot-type"), Values: []string{*in.SnapshotType}})
		}
		var found []types.DBClusterSnapshot
		for _, id := range ids {
			s := r.describeClusterSnapshot(r.clusterSnapshots[id], call.Now)
			clusterID := aws.ToString(s.DBClusterIdentifier)
			ok, err := matchFilters(filters, map[string][]string{"db-cluster-id": {clusterID, r.scope.ARN("rds", "cluster:"+clusterID)},
				"db-cluster-snapshot-id": {id}, "snapshot-type": {aws.ToString(s.SnapshotType)}, "engine": {aws.ToString(s.Engine)}})
			if err != nil {
				return nil, err
			}
			if ok {
				found = append(found, s)
			}
		}
		return page(found, in.Marker, in.MaxRecords, func(out []types.DBClusterSnapshot, marker *string) *rds.DescribeDBClusterSnapshotsOutput {
			return &rds.DescribeDBClusterSnapshotsOutput{DBClusterSnapshots: out, Marker: marker}
		})
	})
}

func (b *Backend) deleteDBClusterSnapshot(call *core.Call, in *rds.DeleteDBClusterSnapshotInput) (*rds.DeleteDBClusterSnapshotOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DeleteDBClusterSnapshotOutput, error) {
		id := strings.ToLower(aws.ToString(in.DBClusterSnapshotIdentifier))
		s, ok := r.clusterSnapshots[id]
		if !ok {
			return nil, clusterSnapshotNotFound(aws.ToString(in.DBClusterSnapshotIdentifier))
		}
		out := r.describeClusterSnapshot(s, call.Now)
		if aws.ToString(out.Status) != "available" {
			return nil, core.Errorf("InvalidDBClusterSnapshotStateFault", "Cannot delete the snapshot %s because it is in state %s.", id, aws.ToString(out.Status))
		}
		delete(r.clusterSnapshots, id)
		r.tags.Delete(*s.view.DBClusterSnapshotArn)
		out.Status = aws.String("deleted")
		return &rds.DeleteDBClusterSnapshotOutput{DBClusterSnapshot: &out}, nil
	})
}
