package rds

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// takeSnapshot records a manual snapshot of an instance (DeleteDBInstance's final snapshot, or
// CreateDBSnapshot's, whose identifier field is field), with the instance's tags when it copies
// tags to snapshots, and returns it.
func (r *region) takeSnapshot(call *core.Call, i *instance, field, name string) (*snapshot, error) {
	id, err := dbSnapshots.newID(r, field, name, i.id, i.status() == statusCreating)
	if err != nil {
		return nil, err
	}
	s := &snapshot{readyAt: call.Now.Add(call.Transition), source: *i}
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
	dbSnapshots.keep(r, id, s, i.arn, i.copyTags)
	return s, nil
}

// createDBSnapshot takes a manual snapshot of an available instance, with the request's tags.
func (b *Backend) createDBSnapshot(call *core.Call, in *rds.CreateDBSnapshotInput) (*rds.CreateDBSnapshotOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.CreateDBSnapshotOutput, error) {
		i, err := instanceKind.named(r, in.DBInstanceIdentifier, call.Now)
		if err != nil {
			return nil, err
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
		out, err := dbSnapshots.created(r, s, in.Tags, call.Now)
		return &rds.CreateDBSnapshotOutput{DBSnapshot: out}, err
	})
}

func (b *Backend) describeDBSnapshots(call *core.Call, in *rds.DescribeDBSnapshotsInput) (*rds.DescribeDBSnapshotsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DescribeDBSnapshotsOutput, error) {
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
		found, err := dbSnapshots.listed(r, in.DBSnapshotIdentifier, filters, call.Now, func(id string, s types.DBSnapshot) map[string][]string {
			instanceID := aws.ToString(s.DBInstanceIdentifier)
			return map[string][]string{"db-instance-id": {instanceID, r.scope.ARN("rds", "db:"+instanceID)},
				"db-snapshot-id": {id}, "dbi-resource-id": {aws.ToString(s.DbiResourceId)}, "snapshot-type": {aws.ToString(s.SnapshotType)},
				"engine": {aws.ToString(s.Engine)}}
		})
		return page(found, err, in.Marker, in.MaxRecords, func(out []types.DBSnapshot, marker *string) *rds.DescribeDBSnapshotsOutput {
			return &rds.DescribeDBSnapshotsOutput{DBSnapshots: out, Marker: marker}
		})
	})
}

func (b *Backend) deleteDBSnapshot(call *core.Call, in *rds.DeleteDBSnapshotInput) (*rds.DeleteDBSnapshotOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DeleteDBSnapshotOutput, error) {
		out, err := dbSnapshots.remove(r, in.DBSnapshotIdentifier, call.Now)
		return &rds.DeleteDBSnapshotOutput{DBSnapshot: out}, err
	})
}

// takeClusterSnapshot records a manual snapshot of a cluster (DeleteDBCluster's final snapshot,
// whose identifier field is field), with the cluster's tags when it copies tags to snapshots.
func (r *region) takeClusterSnapshot(call *core.Call, c *cluster, field, name string) (*clusterSnapshot, error) {
	id, err := clusterSnapshots.newID(r, field, name, c.id, c.status() == statusCreating)
	if err != nil {
		return nil, err
	}
	s := &clusterSnapshot{readyAt: call.Now.Add(call.Transition), source: *c}
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
	clusterSnapshots.keep(r, id, s, c.arn, c.copyTags)
	return s, nil
}

// createDBClusterSnapshot takes a manual snapshot of an available cluster, with the request's
// tags.
func (b *Backend) createDBClusterSnapshot(call *core.Call, in *rds.CreateDBClusterSnapshotInput) (*rds.CreateDBClusterSnapshotOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.CreateDBClusterSnapshotOutput, error) {
		c, err := clusterKind.available(r, in.DBClusterIdentifier, call.Now, func(c *cluster) error { return clusterState("DBCluster %s is not in available state.", c.id) })
		if err != nil {
			return nil, err
		}
		s, err := r.takeClusterSnapshot(call, c, "DBClusterSnapshotIdentifier", aws.ToString(in.DBClusterSnapshotIdentifier))
		if err != nil {
			return nil, err
		}
		out, err := clusterSnapshots.created(r, s, in.Tags, call.Now)
		return &rds.CreateDBClusterSnapshotOutput{DBClusterSnapshot: out}, err
	})
}

func (b *Backend) describeDBClusterSnapshots(call *core.Call, in *rds.DescribeDBClusterSnapshotsInput) (*rds.DescribeDBClusterSnapshotsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DescribeDBClusterSnapshotsOutput, error) {
		filters := in.Filters
		if in.DBClusterIdentifier != nil {
			id := strings.ToLower(r.nameFromARN(*in.DBClusterIdentifier, "cluster"))
			filters = append(filters, types.Filter{Name: aws.String("db-cluster-id"), Values: []string{id}})
		}
		if in.SnapshotType != nil {
			filters = append(filters, types.Filter{Name: aws.String("snapshot-type"), Values: []string{*in.SnapshotType}})
		}
		found, err := clusterSnapshots.listed(r, in.DBClusterSnapshotIdentifier, filters, call.Now, func(id string, s types.DBClusterSnapshot) map[string][]string {
			clusterID := aws.ToString(s.DBClusterIdentifier)
			return map[string][]string{"db-cluster-id": {clusterID, r.scope.ARN("rds", "cluster:"+clusterID)},
				"db-cluster-snapshot-id": {id}, "snapshot-type": {aws.ToString(s.SnapshotType)}, "engine": {aws.ToString(s.Engine)}}
		})
		return page(found, err, in.Marker, in.MaxRecords, func(out []types.DBClusterSnapshot, marker *string) *rds.DescribeDBClusterSnapshotsOutput {
			return &rds.DescribeDBClusterSnapshotsOutput{DBClusterSnapshots: out, Marker: marker}
		})
	})
}

func (b *Backend) deleteDBClusterSnapshot(call *core.Call, in *rds.DeleteDBClusterSnapshotInput) (*rds.DeleteDBClusterSnapshotOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.DeleteDBClusterSnapshotOutput, error) {
		out, err := clusterSnapshots.remove(r, in.DBClusterSnapshotIdentifier, call.Now)
		return &rds.DeleteDBClusterSnapshotOutput{DBClusterSnapshot: out}, err
	})
}
