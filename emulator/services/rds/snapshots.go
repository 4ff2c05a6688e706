package rds

import (
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// snapshot is one manual DB snapshot: what it recorded of its instance, and when it is ready.
type snapshot struct {
	view    types.DBSnapshot // without status, progress and tags
	readyAt time.Time
	// instance is the instance as it was when the snapshot was taken, which a restore
	// recreates (its master password included, as a restored instance keeps it).
	instance instance
}

// describeSnapshot returns a snapshot as DescribeDBSnapshots reports it: creating for a
// transition, then available.
func (r *region) describeSnapshot(s *snapshot, now time.Time) types.DBSnapshot {
	d := s.view
	d.Status, d.PercentProgress = aws.String("available"), aws.Int32(100)
	if now.Before(s.readyAt) {
		d.Status, d.PercentProgress = aws.String("creating"), aws.Int32(0)
	}
	d.TagList = r.tagList(aws.ToString(s.view.DBSnapshotArn))
	return d
}

func snapshotNotFound(id string) *core.APIError {
	return core.NotFoundf("DBSnapshotNotFound", "DBSnapshot not found: %s", id)
}

// takeSnapshot records a manual snapshot of an instance (DeleteDBInstance's final snapshot, or
// CreateDBSnapshot's, whose identifier field is field), with the instance's tags when it copies
// tags to snapshots, and returns it.
func (r *region) takeSnapshot(call *core.Call, i *instance, field, name string) (*snapshot, error) {
	id, err := checkIdentifier(field, name, 255)
	if err != nil {
		return nil, err
	}
	if i.status() == statusCreating {
		return nil, core.Errorf("InvalidDBInstanceState", "Instance %s is currently creating - a snapshot cannot be taken.", i.id)
	}
	if _, ok := r.snapshots[id]; ok {
		return nil, core.Errorf("DBSnapshotAlreadyExists", "Cannot create the snapshot because a snapshot with the identifier %s already exists.", id)
	}
	s := &snapshot{readyAt: call.Now.Add(call.Transition), instance: *i}
	iops, throughput := i.performance()
	s.view = types.DBSnapshot{
		DBSnapshotIdentifier: aws.String(id), DBSnapshotArn: aws.String(r.scope.ARN("rds", "snapshot:"+id)),
		DBInstanceIdentifier: aws.String(i.id), DbiResourceId: aws.String(i.resourceID), SnapshotType: aws.String("manual"),
		SnapshotCreateTime: aws.Time(call.Now), OriginalSnapshotCreateTime: aws.Time(call.Now), InstanceCreateTime: aws.Time(i.created),
		Engine: aws.String(i.eng.name), EngineVersion: aws.String(i.engineVersion), LicenseModel: aws.String(i.license),
		AllocatedStorage: aws.Int32(i.storage), StorageType: aws.String(i.storageType), Iops: iops, StorageThroughput: throughput,
		Port: aws.Int32(i.port), AvailabilityZone: aws.String(i.zone), MasterUsername: aws.String(i.masterUsername),
		OptionGroupName: aws.String(i.optionGroup), Encrypted: aws.Bool(i.encrypted),
		IAMDatabaseAuthenticationEnabled: aws.Bool(i.iamAuth), SnapshotTarget: aws.String("region"),
	}
	if i.encrypted {
		s.view.KmsKeyId = aws.String(i.kmsKey)
	}
	if i.copyTags {
		r.tags.Copy(i.arn, *s.view.DBSnapshotArn)
	}
	r.snapshots[id] = s
	return s, nil
}

// createDBSnapshot takes a manual snapshot of an available instance, with the request's tags.
func (b *Backend) createDBSnapshot(call *core.Call, in *rds.CreateDBSnapshotInput) (*rds.CreateDBSnapshotOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.CreateDBSnapshotOutput, error) {
		i := r.instance(aws.ToString(in.DBInstanceIdentifier), call.Now)
		if i == nil {
			return nil, instanceNotFound(aws.ToString(in.DBInstanceIdentifier))
		}
		if i.cluster != "" {
			return nil, invalidValue("The specified instance is a member of a cluster and a snapshot cannot be created directly. " +
				"Please use the CreateDBClusterSnapshot API instead.")
		}
		if i.status() != statusAvailable {
			return nil, core.Errorf("InvalidDBInstanceState", "Instance %s is not in available state.", i.id)
		}
		s, err := r.takeSnapshot(call, i, "DBSnapshotIdentifier", aws.ToString(in.DBSnapshotIdentifier))
		if err != nil {
			return nil, err
		}
		if err := r.tags.Merge(requestTags(in.Tags), aws.ToString(s.view.DBSnapshotArn)); err != nil {
			return nil, err
		}
		out := r.describeSnapshot(s, call.Now)
		return &rds.CreateDBSnapshotOutput{DBSnapshot: &out}, nil
	})
}

func (b *Backend) describeDBSnapshots(call *core.Call, in *rds.DescribeDBSnapshotsInput) (*rds.DescribeDBSnapshotsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DescribeDBSnapshotsOutput, error) {
		ids := core.SortedKeys(r.snapshots)
		if in.DBSnapshotIdentifier != nil {
			id := strings.ToLower(r.nameFromARN(*in.DBSnapshotIdentifier, "snapshot"))
			if _, ok := r.snapshots[id]; !ok {
				return nil, snapshotNotFound(*in.DBSnapshotIdentifier)
			}
			ids = []string{id}
		}
		// DBInstanceIdentifier (not case-sensitive), DbiResourceId and SnapshotType select as their
		// filters do.
		filters := in.Filters
		if in.DBInstanceIdentifier != nil {
			in.DBInstanceIdentifier = aws.String(strings.ToLower(*in.DBInstanceIdentifier))
		}
		for name, v := range map[string]*string{"db-instance-id": in.DBInstanceIdentifier, "dbi-resource-id": in.DbiResourceId, "snapshot-type": in.SnapshotType} {
			if v != nil {
				filters = append(filters, types.Filter{Name: aws.String(name), Values: []string{*v}})
			}
		}
		var found []types.DBSnapshot
		for _, id := range ids {
			s := r.describeSnapshot(r.snapshots[id], call.Now)
			instanceID := aws.ToString(s.DBInstanceIdentifier)
			ok, err := matchFilters(filters, map[string][]string{"db-instance-id": {instanceID, r.scope.ARN("rds", "db:"+instanceID)},
				"db-snapshot-id": {id}, "dbi-resource-id": {aws.ToString(s.DbiResourceId)}, "snapshot-type": {aws.ToString(s.SnapshotType)},
				"engine": {aws.ToString(s.Engine)}})
			if err != nil {
				return nil, err
			}
			if ok {
				found = append(found, s)
			}
		}
		return page(found, in.Marker, in.MaxRecords, func(out []types.DBSnapshot, marker *string) *rds.DescribeDBSnapshotsOutput {
			return &rds.DescribeDBSnapshotsOutput{DBSnapshots: out, Marker: marker}
		})
	})
}

func (b *Backend) deleteDBSnapshot(call *core.Call, in *rds.DeleteDBSnapshotInput) (*rds.DeleteDBSnapshotOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DeleteDBSnapshotOutput, error) {
		id := strings.ToLower(aws.ToString(in.DBSnapshotIdentifier))
		s, ok := r.snapshots[id]
		if !ok {
			return nil, snapshotNotFound(aws.ToString(in.DBSnapshotIdentifier))
		}
		out := r.describeSnapshot(s, call.Now)
		if aws.ToString(out.Status) != "available" {
			return nil, core.Errorf("InvalidDBSnapshotState", "Cannot delete the snapshot %s because it is in state %s.", id, aws.ToString(out.Status))
		}
		delete(r.snapshots, id)
		r.tags.Delete(*s.view.DBSnapshotArn)
		out.Status = aws.String("deleted")
		return &rds.DeleteDBSnapshotOutput{DBSnapshot: &out}, nil
	})
}
