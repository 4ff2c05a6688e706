package differential

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/emulator"
)

// recovery is one side's RDS client and how it lets lifecycles finish.
type recovery struct {
	rds    *rds.Client
	settle func()
}

// recoverySteps is the replica and restore sequence both sides run: a source with backups, a
// read replica and its promotion, a manual snapshot restored into a new instance, a
// point-in-time restore, and the refusals for missing sources.
func recoverySteps() []step[*recovery] {
	ctx := context.Background()
	describe := func(id string) func(c *recovery) outcome {
		return func(c *recovery) outcome {
			c.settle()
			out, err := c.rds.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{DBInstanceIdentifier: aws.String(id)})
			if err != nil {
				return observe(err, nil)
			}
			d := out.DBInstances[0]
			return observe(nil, map[string]string{"source": aws.ToString(d.ReadReplicaSourceDBInstanceIdentifier), "replicas": strconv.Itoa(len(d.ReadReplicaDBInstanceIdentifiers)),
				"engine": aws.ToString(d.Engine), "class": aws.ToString(d.DBInstanceClass), "user": aws.ToString(d.MasterUsername)})
		}
	}
	return []step[*recovery]{
		{"CreateSource", func(c *recovery) outcome {
			_, err := c.rds.CreateDBInstance(ctx, &rds.CreateDBInstanceInput{DBInstanceIdentifier: aws.String("diff-primary"), DBInstanceClass: aws.String("db.t3.micro"),
				Engine: aws.String("postgres"), AllocatedStorage: aws.Int32(20), MasterUsername: aws.String("app"), MasterUserPassword: aws.String("correct-horse-1"),
				BackupRetentionPeriod: aws.Int32(7)})
			return observe(err, nil)
		}},
		{"CreateReplica", func(c *recovery) outcome {
			c.settle()
			_, err := c.rds.CreateDBInstanceReadReplica(ctx, &rds.CreateDBInstanceReadReplicaInput{DBInstanceIdentifier: aws.String("diff-reader"),
				SourceDBInstanceIdentifier: aws.String("diff-primary"), DBInstanceClass: aws.String("db.t3.small")})
			return observe(err, nil)
		}},
		{"ReplicaOfMissing", func(c *recovery) outcome {
			_, err := c.rds.CreateDBInstanceReadReplica(ctx, &rds.CreateDBInstanceReadReplicaInput{DBInstanceIdentifier: aws.String("diff-reader2"),
				SourceDBInstanceIdentifier: aws.String("diff-missing")})
			return observe(err, nil)
		}},
		{"DescribeReplica", describe("diff-reader")},
		{"DescribeSource", describe("diff-primary")},
		{"Promote", func(c *recovery) outcome {
			c.settle()
			_, err := c.rds.PromoteReadReplica(ctx, &rds.PromoteReadReplicaInput{DBInstanceIdentifier: aws.String("diff-reader")})
			return observe(err, nil)
		}},
		{"DescribePromoted", describe("diff-reader")},
		{"Snapshot", func(c *recovery) outcome {
			c.settle()
			_, err := c.rds.CreateDBSnapshot(ctx, &rds.CreateDBSnapshotInput{DBInstanceIdentifier: aws.String("diff-primary"), DBSnapshotIdentifier: aws.String("diff-nightly")})
			return observe(err, nil)
		}},
		{"RestoreSnapshot", func(c *recovery) outcome {
			c.settle()
			_, err := c.rds.RestoreDBInstanceFromDBSnapshot(ctx, &rds.RestoreDBInstanceFromDBSnapshotInput{DBInstanceIdentifier: aws.String("diff-restored"),
				DBSnapshotIdentifier: aws.String("diff-nightly"), DBInstanceClass: aws.String("db.t3.large")})
			return observe(err, nil)
		}},
		{"DescribeRestored", describe("diff-restored")},
		{"RestoreMissingSnapshot", func(c *recovery) outcome {
			_, err := c.rds.RestoreDBInstanceFromDBSnapshot(ctx, &rds.RestoreDBInstanceFromDBSnapshotInput{DBInstanceIdentifier: aws.String("diff-other"),
				DBSnapshotIdentifier: aws.String("diff-missing"), DBInstanceClass: aws.String("db.t3.micro")})
			return observe(err, nil)
		}},
		{"PointInTime", func(c *recovery) outcome {
			_, err := c.rds.RestoreDBInstanceToPointInTime(ctx, &rds.RestoreDBInstanceToPointInTimeInput{SourceDBInstanceIdentifier: aws.String("diff-primary"),
				TargetDBInstanceIdentifier: aws.String("diff-pitr"), UseLatestRestorableTime: aws.Bool(true)})
			return observe(err, nil)
		}},
		{"DescribePointInTime", describe("diff-pitr")},
	}
}

// TestRecoveryAgainstMoto runs the replica and restore sequence against the emulator and moto.
func TestRecoveryAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	compare(t, &recovery{rds: rds.NewFromConfig(sdkConfig(t, emu.URL)), settle: func() { e.Clock.Advance(time.Hour) }},
		&recovery{rds: rds.NewFromConfig(sdkConfig(t, peerURL)), settle: func() {}}, "moto "+motoVersion, recoverySteps(), map[string]string{
			"DescribePromoted": "moto's promoted replica still names its source; AWS's is a standalone instance (PromoteReadReplica) with no " +
				"ReadReplicaSourceDBInstanceIdentifier",
			"DescribePointInTime": "moto reports an instance restored to a point in time as a read replica of its source; AWS's is a new " +
				"standalone instance",
		})
}
