package rds

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// restoreDBInstanceFromDBSnapshot makes a new instance from an available snapshot: the engine,
// version, storage, encryption and master user (its password too) the snapshot recorded, with
// the request's class, placement and groups.
func (b *Backend) restoreDBInstanceFromDBSnapshot(call *core.Call, in *rds.RestoreDBInstanceFromDBSnapshotInput) (*rds.RestoreDBInstanceFromDBSnapshotOutput, error) {
	id, err := checkIdentifier("DBInstanceIdentifier", aws.ToString(in.DBInstanceIdentifier), 63)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*rds.RestoreDBInstanceFromDBSnapshotOutput, error) {
		ref := aws.ToString(in.DBSnapshotIdentifier)
		s, ok := r.snapshots[strings.ToLower(r.nameFromARN(ref, "snapshot"))]
		if !ok {
			return nil, snapshotNotFound(ref)
		}
		if call.Now.Before(s.readyAt) {
			return nil, core.Errorf("InvalidDBSnapshotState", "Snapshot %s is not in available state.", ref)
		}
		i, err := r.derive(call, id, s.instance, derived{class: in.DBInstanceClass, subnetGroup: in.DBSubnetGroupName, zone: in.AvailabilityZone,
			paramGroup: in.DBParameterGroupName, multiAZ: in.MultiAZ, public: in.PubliclyAccessible, deletionProtection: in.DeletionProtection,
			copyTags: in.CopyTagsToSnapshot, securityGroups: in.VpcSecurityGroupIds})
		if err != nil {
			return nil, err
		}
		i.startCreating(call)
		if err := r.add(call, i, in.Tags); err != nil {
			return nil, err
		}
		out := r.describe(i, call.Now)
		return &rds.RestoreDBInstanceFromDBSnapshotOutput{DBInstance: &out}, nil
	})
}

// restoreDBInstanceToPointInTime makes a new instance from a source instance's automated backups
// at RestoreTime, or at its latest restorable time: the source must keep backups
// (PointInTimeRestoreNotEnabled otherwise), and the time must lie between the source's creation
// and now (InvalidRestoreFault otherwise). The emulator keeps no history: the new instance has
// the source's settings as they are now.
func (b *Backend) restoreDBInstanceToPointInTime(call *core.Call, in *rds.RestoreDBInstanceToPointInTimeInput) (*rds.RestoreDBInstanceToPointInTimeOutput, error) {
	id, err := checkIdentifier("TargetDBInstanceIdentifier", aws.ToString(in.TargetDBInstanceIdentifier), 63)
	if err != nil {
		return nil, err
	}
	latest := aws.ToBool(in.UseLatestRestorableTime)
	if latest == (in.RestoreTime != nil) {
		return nil, invalidCombination("Exactly one of RestoreTime and UseLatestRestorableTime must be given.")
	}
	return core.Locked(b.state, call, func(r *region) (*rds.RestoreDBInstanceToPointInTimeOutput, error) {
		src := r.instance(aws.ToString(in.SourceDBInstanceIdentifier), call.Now)
		switch {
		case src == nil:
			return nil, instanceNotFound(aws.ToString(in.SourceDBInstanceIdentifier))
		case src.backupRetention == 0:
			return nil, core.Errorf("PointInTimeRestoreNotEnabled", "Point-in-time restore is not enabled for DB instance %s: it keeps no automated backups.", src.id)
		case !latest && (in.RestoreTime.Before(src.created) || in.RestoreTime.After(call.Now)):
			return nil, core.Errorf("InvalidRestoreFault", "The restore time %s is outside the restorable window of DB instance %s.",
				in.RestoreTime.UTC().Format("2006-01-02T15:04:05Z"), src.id)
		}
		i, err := r.derive(call, id, *src, derived{class: in.DBInstanceClass, subnetGroup: in.DBSubnetGroupName, zone: in.AvailabilityZone,
			paramGroup: in.DBParameterGroupName, multiAZ: in.MultiAZ, public: in.PubliclyAccessible, deletionProtection: in.DeletionProtection,
			copyTags: in.CopyTagsToSnapshot, securityGroups: in.VpcSecurityGroupIds})
		if err != nil {
			return nil, err
		}
		i.startCreating(call)
		if err := r.add(call, i, in.Tags); err != nil {
			return nil, err
		}
		out := r.describe(i, call.Now)
		return &rds.RestoreDBInstanceToPointInTimeOutput{DBInstance: &out}, nil
	})
}
