package rdsinstance

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdstags"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// inheritedPassword is the password version an instance made from another (a read replica, a
// restore) records at creation: its password is its source's, so the Secret's is set on the
// first pass where it may be (at once for a restore, after the promotion for a replica).
const inheritedPassword = "inherited"

// fieldReplicaSource is how a plan names the promotion of a replica.
const fieldReplicaSource = "replicaSourceIdentifier"

// createDerived creates an instance from another: a read replica of the spec's source, or a
// restore from a snapshot or to a point in time, with the spec's class, placement, groups and
// the desired tags. It reports whether the spec asked for one. A source named by identifier
// rather than by reference must be one an object of the namespace made (checkSource).
func (d *driver) createDerived(ctx context.Context, i *v1alpha1.RDSInstance, s *v1alpha1.RDSInstanceSpec, id string, tags []types.Tag) (bool, error) {
	var err error
	switch r := s.RestoreFrom; {
	case s.ReplicaSourceIdentifier != "":
		if err := d.checkSource(ctx, i, s.ReplicaSourceIdentifier, i.Spec.ReplicaSourceRef == nil); err != nil {
			return true, err
		}
		_, err = d.api.CreateDBInstanceReadReplica(ctx, &rds.CreateDBInstanceReadReplicaInput{DBInstanceIdentifier: aws.String(id),
			SourceDBInstanceIdentifier: aws.String(s.ReplicaSourceIdentifier), DBInstanceClass: aws.String(s.DBInstanceClass),
			DBSubnetGroupName: optional(s.DBSubnetGroupName), DBParameterGroupName: optional(s.DBParameterGroupName), OptionGroupName: optional(s.OptionGroupName),
			VpcSecurityGroupIds: s.VPCSecurityGroupIDs, MultiAZ: aws.Bool(s.MultiAZ), PubliclyAccessible: aws.Bool(s.PubliclyAccessible),
			CopyTagsToSnapshot: aws.Bool(s.CopyTagsToSnapshot), DeletionProtection: aws.Bool(aws.ToBool(s.DeletionProtection)), Tags: tags})
	case r != nil && r.SnapshotIdentifier != "":
		if err := d.checkSnapshot(ctx, i, r.SnapshotIdentifier); err != nil {
			return true, err
		}
		_, err = d.api.RestoreDBInstanceFromDBSnapshot(ctx, &rds.RestoreDBInstanceFromDBSnapshotInput{DBInstanceIdentifier: aws.String(id),
			DBSnapshotIdentifier: aws.String(r.SnapshotIdentifier), DBInstanceClass: aws.String(s.DBInstanceClass),
			DBSubnetGroupName: optional(s.DBSubnetGroupName), DBParameterGroupName: optional(s.DBParameterGroupName), OptionGroupName: optional(s.OptionGroupName),
			VpcSecurityGroupIds: s.VPCSecurityGroupIDs, MultiAZ: aws.Bool(s.MultiAZ), PubliclyAccessible: aws.Bool(s.PubliclyAccessible),
			CopyTagsToSnapshot: aws.Bool(s.CopyTagsToSnapshot), DeletionProtection: aws.Bool(aws.ToBool(s.DeletionProtection)), Tags: tags})
	case r != nil && r.PointInTime != nil:
		p := r.PointInTime
		if err := d.checkSource(ctx, i, p.SourceDBInstanceIdentifier, p.SourceRef == nil); err != nil {
			return true, err
		}
		in := &rds.RestoreDBInstanceToPointInTimeInput{TargetDBInstanceIdentifier: aws.String(id), SourceDBInstanceIdentifier: aws.String(p.SourceDBInstanceIdentifier),
			UseLatestRestorableTime: aws.Bool(p.UseLatestRestorableTime), DBInstanceClass: aws.String(s.DBInstanceClass),
			DBSubnetGroupName: optional(s.DBSubnetGroupName), DBParameterGroupName: optional(s.DBParameterGroupName), OptionGroupName: optional(s.OptionGroupName),
			VpcSecurityGroupIds: s.VPCSecurityGroupIDs, MultiAZ: aws.Bool(s.MultiAZ), PubliclyAccessible: aws.Bool(s.PubliclyAccessible),
			CopyTagsToSnapshot: aws.Bool(s.CopyTagsToSnapshot), DeletionProtection: aws.Bool(aws.ToBool(s.DeletionProtection)), Tags: tags}
		if p.RestoreTime != nil {
			in.RestoreTime = aws.Time(p.RestoreTime.Time)
		}
		_, err = d.api.RestoreDBInstanceToPointInTime(ctx, in)
	default:
		return false, nil
	}
	if err != nil {
		if w := groupError(s, err); w != nil {
			return true, w
		}
		if awserr.Code(err) == "DBInstanceAlreadyExists" {
			return true, managed.Waiting(condition.ReasonIdentifierTaken,
				"a DB instance named %s appeared in AWS while this one was being created; checking whether it belongs to this object", id)
		}
		return true, managed.Wrap(err, "create DB instance %s from its source", id)
	}
	managed.SetExternalName(i, id)
	i.Status.MasterUserPasswordVersion = inheritedPassword
	return true, nil
}

// checkSource checks, when byID (the spec names the instance by identifier, not by reference),
// that the instance a replica or a point-in-time restore copies is one an object of i's
// namespace made: its data would otherwise reach a namespace that may not read it.
func (d *driver) checkSource(ctx context.Context, i *v1alpha1.RDSInstance, source string, byID bool) error {
	if !byID {
		return nil
	}
	out, err := d.api.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{DBInstanceIdentifier: aws.String(source)})
	if err != nil || len(out.DBInstances) == 0 {
		return managed.Wrap(err, "describe source DB instance %s", source)
	}
	return managed.CheckForeignWrite(ctx, i, "DB instance", source, rdstags.Map(out.DBInstances[0].TagList))
}

// checkSnapshot checks that the snapshot a restore copies is one an object of i's namespace
// made (its ownership tags, copied from its instance), as checkSource does for instances, and
// waits while it is still being taken.
func (d *driver) checkSnapshot(ctx context.Context, i *v1alpha1.RDSInstance, snapshot string) error {
	out, err := d.api.DescribeDBSnapshots(ctx, &rds.DescribeDBSnapshotsInput{DBSnapshotIdentifier: aws.String(snapshot)})
	if err != nil || len(out.DBSnapshots) == 0 {
		return managed.Wrap(err, "describe DB snapshot %s", snapshot)
	}
	tags, err := rdstags.Read(ctx, d.api, "DB snapshot", aws.ToString(out.DBSnapshots[0].DBSnapshotArn))
	if err != nil {
		return err
	}
	if err := managed.CheckForeignWrite(ctx, i, "DB snapshot", snapshot, tags); err != nil {
		return err
	}
	if status := aws.ToString(out.DBSnapshots[0].Status); status != "available" {
		return managed.Waiting(condition.ReasonReferenceNotReady, "DB snapshot %s is %s; the instance is restored from it once it is available", snapshot, status)
	}
	return nil
}

// planPromotion plans promoting a read replica whose spec no longer names a source
// (PromoteReadReplica, with the spec's backup retention), and reports whether inst is still a
// replica: what it inherits from its source (engine version, backups, password) is then not
// compared.
func (d *driver) planPromotion(changes *managed.Plan, i *v1alpha1.RDSInstance, inst *types.DBInstance) bool {
	source := aws.ToString(inst.ReadReplicaSourceDBInstanceIdentifier)
	if source == "" || i.Spec.ReplicaSourceIdentifier != "" {
		return source != ""
	}
	id := aws.ToString(inst.DBInstanceIdentifier)
	changes.AddValue(fieldReplicaSource, source, "", func(ctx context.Context) error {
		_, err := d.api.PromoteReadReplica(ctx, &rds.PromoteReadReplicaInput{DBInstanceIdentifier: aws.String(id),
			BackupRetentionPeriod: i.Spec.BackupRetentionPeriod, PreferredBackupWindow: optional(i.Spec.PreferredBackupWindow)})
		if err != nil {
			return fmt.Errorf("promote read replica %s: %w", id, err)
		}
		return nil
	})
	return true
}
