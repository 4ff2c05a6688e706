package rds

import (
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// restoreDBInstanceFromDBSnapshot makes a new instance from an available snapshot: the engine,
// version, storage, encryption and master user (its password too) the snapshot recorded, with
// the request's class, placement and groups.
func (b *Backend) restoreDBInstanceFromDBSnapshot(call *core.Call, in *rds.RestoreDBInstanceFromDBSnapshotInput) (*rds.RestoreDBInstanceFromDBSnapshotOutput, error) {
	return creating(b, call, instanceKind, "DBInstanceIdentifier", in.DBInstanceIdentifier, false, func(r *region, id string) (*rds.RestoreDBInstanceFromDBSnapshotOutput, error) {
		s, err := dbSnapshots.ready(r, aws.ToString(in.DBSnapshotIdentifier), call.Now)
		if err != nil {
			return nil, err
		}
		d := derivedFrom(in)
		i, err := r.derive(call, id, s.source, d)
		if err != nil {
			return nil, err
		}
		out, err := r.addDerived(call, i, d.Tags)
		return &rds.RestoreDBInstanceFromDBSnapshotOutput{DBInstance: out}, err
	})
}

// restoreDBInstanceToPointInTime makes a new instance from a source instance's automated backups
// at RestoreTime, or at its latest restorable time: the source must keep backups
// (PointInTimeRestoreNotEnabled otherwise), and the time must lie between the source's creation
// and now (InvalidRestoreFault otherwise). The emulator keeps no history: the new instance has
// the source's settings as they are now.
func (b *Backend) restoreDBInstanceToPointInTime(call *core.Call, in *rds.RestoreDBInstanceToPointInTimeInput) (*rds.RestoreDBInstanceToPointInTimeOutput, error) {
	return creating(b, call, instanceKind, "TargetDBInstanceIdentifier", in.TargetDBInstanceIdentifier, false, func(r *region, id string) (*rds.RestoreDBInstanceToPointInTimeOutput, error) {
		latest := aws.ToBool(in.UseLatestRestorableTime)
		if latest == (in.RestoreTime != nil) {
			return nil, invalidCombination("Exactly one of RestoreTime and UseLatestRestorableTime must be given.")
		}
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
		d := derivedFrom(in)
		i, err := r.derive(call, id, *src, d)
		if err != nil {
			return nil, err
		}
		out, err := r.addDerived(call, i, d.Tags)
		return &rds.RestoreDBInstanceToPointInTimeOutput{DBInstance: out}, err
	})
}

// restoreDBClusterFromSnapshot makes a new cluster from an available DB cluster snapshot: the
// snapshot's engine, version, storage, encryption, master user and database, with the request's
// network, parameter group, capacity, backups and protection in place of the source's. The new
// cluster has no members (CreateDBInstance adds them) and does not manage its master password.
func (b *Backend) restoreDBClusterFromSnapshot(call *core.Call, in *rds.RestoreDBClusterFromSnapshotInput) (*rds.RestoreDBClusterFromSnapshotOutput, error) {
	return creating(b, call, clusterKind, "DBClusterIdentifier", in.DBClusterIdentifier, true, func(r *region, id string) (*rds.RestoreDBClusterFromSnapshotOutput, error) {
		ref := aws.ToString(in.SnapshotIdentifier)
		s, err := clusterSnapshots.ready(r, ref, call.Now)
		switch {
		case err != nil:
			return nil, err
		case aws.ToString(in.Engine) != s.source.eng.name:
			return nil, invalidCombination("The engine %s does not match the engine %s of DB cluster snapshot %s.", aws.ToString(in.Engine), s.source.eng.name, ref)
		}
		c, err := r.restoredCluster(call, id, s.source, in)
		if err != nil {
			return nil, err
		}
		if err := r.tags.Merge(requestTags(in.Tags), c.arn); err != nil {
			return nil, err
		}
		r.clusters[id] = c
		out := r.describeCluster(c, call.Now)
		return &rds.RestoreDBClusterFromSnapshotOutput{DBCluster: &out}, nil
	})
}

// restoredCluster returns the cluster id made from src, a snapshot's cluster, with the request's
// settings, checked as CreateDBCluster checks them.
func (r *region) restoredCluster(call *core.Call, id string, src cluster, in *rds.RestoreDBClusterFromSnapshotInput) (*cluster, error) {
	c := src
	r.born(&c, call, id)
	c.pendingVersion, c.pendingParamGroup, c.passwordPending, c.maintenanceAt = nil, nil, false, time.Time{}
	c.secret, c.secretKMS = "", ""
	c.deletionProtection, c.copyTags = aws.ToBool(in.DeletionProtection), aws.ToBool(in.CopyTagsToSnapshot)
	if in.EngineVersion != nil {
		version, err := c.eng.version(*in.EngineVersion)
		if err != nil {
			return nil, err
		}
		if versionLess(version, src.engineVersion) {
			return nil, invalidCombination("Cannot restore %s %s to the older version %s", c.eng.name, src.engineVersion, version)
		}
		c.engineVersion = version
	}
	if in.KmsKeyId != nil {
		c.encrypted, c.kmsKey = true, kmsKeyARN(r.scope, *in.KmsKeyId, "aws/rds")
	}
	return &c, r.settleSettings(&c, clusterSettings{port: in.Port, retention: in.BackupRetentionPeriod, backupWindow: in.PreferredBackupWindow,
		subnetGroup: in.DBSubnetGroupName, paramGroup: in.DBClusterParameterGroupName, securityGroups: slices.Clone(in.VpcSecurityGroupIds),
		logExports: slices.Clone(in.EnableCloudwatchLogsExports), scaling: in.ServerlessV2ScalingConfiguration})
}
