package emulator_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestRDSReplicasAndRestores checks read replicas, snapshots and restores as AWS documents them:
// a replica needs a source that keeps automated backups, names its source, which lists it, and
// keeps no backups itself; promoting it makes it standalone. A manual snapshot restores into a
// new instance of the snapshot's engine, version, storage and master user, with the request's
// class; a point-in-time restore needs a source with backups and a time in its window; and the
// replicas of a deleted source become standalone.
func TestRDSReplicasAndRestores(t *testing.T) {
	e, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	if _, err := c.CreateDBInstance(ctx, postgres("primary")); err != nil {
		t.Fatal(err)
	}
	noBackups := postgres("nobackups")
	noBackups.BackupRetentionPeriod = aws.Int32(0)
	if _, err := c.CreateDBInstance(ctx, noBackups); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)

	replica := func(id, source string) error {
		_, err := c.CreateDBInstanceReadReplica(ctx, &rds.CreateDBInstanceReadReplicaInput{DBInstanceIdentifier: aws.String(id),
			SourceDBInstanceIdentifier: aws.String(source), DBInstanceClass: aws.String("db.t3.small")})
		return err
	}
	if got := errorCode(replica("r0", "nobackups")); got != "InvalidDBInstanceState" {
		t.Errorf("a replica of an instance without backups: %q, want InvalidDBInstanceState", got)
	}
	if got := errorCode(replica("r0", "missing")); got != "DBInstanceNotFound" {
		t.Errorf("a replica of a missing instance: %q", got)
	}
	if err := replica("reader", "primary"); err != nil {
		t.Fatal(err)
	}
	r := describeInstance(t, c, "reader")
	if aws.ToString(r.ReadReplicaSourceDBInstanceIdentifier) != "primary" || aws.ToInt32(r.BackupRetentionPeriod) != 0 ||
		aws.ToString(r.DBInstanceClass) != "db.t3.small" || aws.ToString(r.EngineVersion) != "17.6" || aws.ToString(r.DBInstanceStatus) != "creating" {
		t.Errorf("replica: source %q retention %d class %s version %s status %s", aws.ToString(r.ReadReplicaSourceDBInstanceIdentifier),
			aws.ToInt32(r.BackupRetentionPeriod), aws.ToString(r.DBInstanceClass), aws.ToString(r.EngineVersion), aws.ToString(r.DBInstanceStatus))
	}
	if got := describeInstance(t, c, "primary").ReadReplicaDBInstanceIdentifiers; !slices.Equal(got, []string{"reader"}) {
		t.Errorf("the source lists %v, want [reader]", got)
	}
	e.Clock.Advance(time.Minute)
	if _, err := c.PromoteReadReplica(ctx, &rds.PromoteReadReplicaInput{DBInstanceIdentifier: aws.String("primary")}); errorCode(err) != "InvalidDBInstanceState" {
		t.Errorf("promoting an instance that is no replica: %v", err)
	}
	if _, err := c.PromoteReadReplica(ctx, &rds.PromoteReadReplicaInput{DBInstanceIdentifier: aws.String("reader"), BackupRetentionPeriod: aws.Int32(7)}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	if r := describeInstance(t, c, "reader"); r.ReadReplicaSourceDBInstanceIdentifier != nil || aws.ToInt32(r.BackupRetentionPeriod) != 7 ||
		aws.ToString(r.DBInstanceStatus) != "available" {
		t.Errorf("promoted: source %v retention %d status %s", r.ReadReplicaSourceDBInstanceIdentifier, aws.ToInt32(r.BackupRetentionPeriod), aws.ToString(r.DBInstanceStatus))
	}
	if got := describeInstance(t, c, "primary").ReadReplicaDBInstanceIdentifiers; len(got) != 0 {
		t.Errorf("the source still lists %v", got)
	}

	// A manual snapshot restores into a new instance.
	if _, err := c.CreateDBSnapshot(ctx, &rds.CreateDBSnapshotInput{DBInstanceIdentifier: aws.String("primary"), DBSnapshotIdentifier: aws.String("nightly")}); err != nil {
		t.Fatal(err)
	}
	restore := &rds.RestoreDBInstanceFromDBSnapshotInput{DBInstanceIdentifier: aws.String("restored"), DBSnapshotIdentifier: aws.String("nightly"),
		DBInstanceClass: aws.String("db.t3.large")}
	if _, err := c.RestoreDBInstanceFromDBSnapshot(ctx, restore); errorCode(err) != "InvalidDBSnapshotState" {
		t.Errorf("restoring a snapshot still creating: %v", err)
	}
	e.Clock.Advance(time.Minute)
	if _, err := c.RestoreDBInstanceFromDBSnapshot(ctx, restore); err != nil {
		t.Fatal(err)
	}
	restored := describeInstance(t, c, "restored")
	if aws.ToString(restored.DBInstanceClass) != "db.t3.large" || aws.ToString(restored.Engine) != "postgres" || aws.ToString(restored.MasterUsername) != "app" ||
		aws.ToInt32(restored.AllocatedStorage) != 20 {
		t.Errorf("restored: %s %s %s %d", aws.ToString(restored.DBInstanceClass), aws.ToString(restored.Engine), aws.ToString(restored.MasterUsername), aws.ToInt32(restored.AllocatedStorage))
	}
	if _, err := c.RestoreDBInstanceFromDBSnapshot(ctx, &rds.RestoreDBInstanceFromDBSnapshotInput{DBInstanceIdentifier: aws.String("other"),
		DBSnapshotIdentifier: aws.String("missing")}); errorCode(err) != "DBSnapshotNotFound" {
		t.Errorf("restoring a missing snapshot: %v", err)
	}

	// Point in time.
	pitr := func(source string, at *time.Time, latest bool) error {
		_, err := c.RestoreDBInstanceToPointInTime(ctx, &rds.RestoreDBInstanceToPointInTimeInput{SourceDBInstanceIdentifier: aws.String(source),
			TargetDBInstanceIdentifier: aws.String("pitr-" + source), RestoreTime: at, UseLatestRestorableTime: aws.Bool(latest)})
		return err
	}
	if got := errorCode(pitr("nobackups", nil, true)); got != "PointInTimeRestoreNotEnabled" {
		t.Errorf("point in time of an instance without backups: %q", got)
	}
	if got := errorCode(pitr("primary", aws.Time(e.Clock.Now().Add(-24*time.Hour)), false)); got != "InvalidRestoreFault" {
		t.Errorf("a time before the instance existed: %q", got)
	}
	if got := errorCode(pitr("primary", aws.Time(e.Clock.Now()), true)); got != "InvalidParameterCombination" {
		t.Errorf("both a time and the latest time: %q", got)
	}
	if err := pitr("primary", aws.Time(e.Clock.Now().Add(-time.Minute)), false); err != nil {
		t.Fatal(err)
	}
	if got := describeInstance(t, c, "pitr-primary"); aws.ToString(got.DBInstanceStatus) != "creating" || aws.ToString(got.Engine) != "postgres" {
		t.Errorf("restored to a point in time: %s %s", aws.ToString(got.DBInstanceStatus), aws.ToString(got.Engine))
	}

	// The replicas of a deleted source stand alone.
	if err := replica("reader2", "primary"); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	if _, err := c.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("primary"), SkipFinalSnapshot: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	if r := describeInstance(t, c, "reader2"); r.ReadReplicaSourceDBInstanceIdentifier != nil {
		t.Errorf("the replica of a deleted source still names %s", aws.ToString(r.ReadReplicaSourceDBInstanceIdentifier))
	}
}
