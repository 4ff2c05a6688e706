package rds

import (
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// restoreDBClusterFromSnapshot makes a new cluster from an available DB cluster snapshot: the
// snapshot's engine, version, storage, encryption, master user and database, with the request's
// network, parameter group, capacity, backups and protection in place of the source's. The new
// cluster has no members (CreateDBInstance adds them) and does not manage its master password.
func (b *Backend) restoreDBClusterFromSnapshot(call *core.Call, in *rds.RestoreDBClusterFromSnapshotInput) (*rds.RestoreDBClusterFromSnapshotOutput, error) {
	id, err := checkIdentifier("DBClusterIdentifier", aws.ToString(in.DBClusterIdentifier), 63)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*rds.RestoreDBClusterFromSnapshotOutput, error) {
		if r.cluster(id, call.Now) != nil {
			return nil, core.Errorf("DBClusterAlreadyExistsFault", "DB Cluster already exists")
		}
		ref := aws.ToString(in.SnapshotIdentifier)
		s, ok := r.clusterSnapshots[strings.ToLower(r.nameFromARN(ref, "cluster-snapshot"))]
		switch {
		case !ok:
			return nil, clusterSnapshotNotFound(ref)
		case call.Now.Before(s.readyAt):
			return nil, core.Errorf("InvalidDBClusterSnapshotStateFault", "DBClusterSnapshot %s is not available.", ref)
		case aws.ToString(in.Engine) != s.cluster.eng.name:
			return nil, invalidCombination("The engine %s does not match the engine %s of DB cluster snapshot %s.", aws.ToString(in.Engine), s.cluster.eng.name, ref)
		}
		c, err := r.restoredCluster(call, id, s.cluster, in)
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
