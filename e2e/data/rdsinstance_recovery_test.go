package data_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	rdstypes "github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestRDSReplicasAndRestores checks the paths to disaster recovery: a read replica of an
// RDSInstance by reference is created with CreateDBInstanceReadReplica, follows its source
// (no backups, no password change of its own) and is promoted when the spec drops its source,
// after which it gets its own Secret's password; an instance restored from a snapshot of the
// namespace and one restored to a point in time become Ready and then take their Secret's
// password; a replica of another namespace's instance by identifier and a restore of a snapshot
// the namespace did not make are refused before any write; restoreFrom cannot be added to an
// existing instance, nor can an instance become a replica.
func TestRDSReplicasAndRestores(t *testing.T) {
	h := start(t)
	other := h.env.Namespace(t)
	h.provider("default", "aws")
	h.provider(other, "aws")
	c := rds.NewFromConfig(h.aws)
	ctx := context.Background()
	h.secret("default", "primary-password", "password", "primary-Passw0rd")
	h.secret("default", "copy-password", "password", "copy-Passw0rd-2")
	primary := rdsInstance("default", "primary", "primary-db", "primary-password")
	primary.Spec.CopyTagsToSnapshot = true
	h.create(primary)
	primary = waitReady(h, primary)

	// A replica by reference.
	h.emu.Calls.Reset()
	replica := rdsInstance("default", "reader", "reader-db", "copy-password")
	replica.Spec.ReplicaSourceRef = &shared.Reference{Name: "primary"}
	h.create(replica)
	replica = waitReady(h, replica)
	calls := h.calls("RDS")
	if calls["CreateDBInstanceReadReplica"] != 1 || calls["CreateDBInstance"] != 0 || calls["ModifyDBInstance"] != 0 {
		t.Errorf("creating the replica made %v, want one CreateDBInstanceReadReplica and no ModifyDBInstance (backups and password are the source's)", calls)
	}
	if d := describeInstance(t, c, "reader-db"); aws.ToString(d.ReadReplicaSourceDBInstanceIdentifier) != "primary-db" {
		t.Fatalf("the replica's source: %q", aws.ToString(d.ReadReplicaSourceDBInstanceIdentifier))
	}
	kubetest.MustRefuseUpdate(t, h.env.Client, primary, func(i *v1alpha1.RDSInstance) {
		i.Spec.ReplicaSourceIdentifier = "reader-db"
	}, "an existing instance cannot become a replica")

	// Promotion: the spec drops its source.
	h.emu.Calls.Reset()
	update(h, replica, func(i *v1alpha1.RDSInstance) { i.Spec.ReplicaSourceRef = nil })
	waitFor(h, replica, kubetest.Timeout, "promoted, with its own password", func(i *v1alpha1.RDSInstance) bool {
		d := describeInstance(t, c, "reader-db")
		return i.Status.Ready && i.Status.ObservedGeneration == i.Generation && d.ReadReplicaSourceDBInstanceIdentifier == nil &&
			i.Status.MasterUserPasswordVersion != "inherited" && aws.ToString(d.DBInstanceStatus) == "available"
	})
	if n := h.calls("RDS")["PromoteReadReplica"]; n != 1 {
		t.Errorf("%d PromoteReadReplica calls, want 1", n)
	}

	// A snapshot of the namespace's instance restores into a new instance.
	if _, err := c.CreateDBSnapshot(ctx, &rds.CreateDBSnapshotInput{DBInstanceIdentifier: aws.String("primary-db"), DBSnapshotIdentifier: aws.String("primary-nightly")}); err != nil {
		t.Fatal(err)
	}
	restored := rdsInstance("default", "restored", "restored-db", "copy-password")
	restored.Spec.RestoreFrom = &v1alpha1.RDSRestoreFrom{SnapshotIdentifier: "primary-nightly"}
	h.create(restored)
	waitFor(h, restored, kubetest.Timeout, "restored, with its own password", func(i *v1alpha1.RDSInstance) bool {
		return i.Status.Ready && i.Status.MasterUserPasswordVersion != "" && i.Status.MasterUserPasswordVersion != "inherited"
	})
	kubetest.MustRefuseUpdate(t, h.env.Client, primary, func(i *v1alpha1.RDSInstance) {
		i.Spec.RestoreFrom = &v1alpha1.RDSRestoreFrom{SnapshotIdentifier: "primary-nightly"}
	}, "restoreFrom applies only when the instance is created")

	// A point-in-time restore of the primary, by reference.
	pitr := rdsInstance("default", "pitr", "pitr-db", "copy-password")
	pitr.Spec.RestoreFrom = &v1alpha1.RDSRestoreFrom{PointInTime: &v1alpha1.RDSPointInTime{SourceRef: &shared.Reference{Name: "primary"}, UseLatestRestorableTime: true}}
	h.create(pitr)
	waitReady(h, pitr)

	// Another namespace copies none of this namespace's data by identifier.
	h.secret(other, "thief-password", "password", "thief-Passw0rd-3")
	h.emu.Calls.Reset()
	thief := rdsInstance(other, "thief", "thief-db", "thief-password")
	thief.Spec.ReplicaSourceIdentifier = "primary-db"
	h.create(thief)
	waitCondition(h, thief, "Synced", "False", condition.ReasonForeignWriteNotAllowed)
	snap := rdsInstance(other, "thief-snap", "thief-snap-db", "thief-password")
	snap.Spec.RestoreFrom = &v1alpha1.RDSRestoreFrom{SnapshotIdentifier: "primary-nightly"}
	h.create(snap)
	waitCondition(h, snap, "Synced", "False", condition.ReasonForeignWriteNotAllowed)
	if calls := h.calls("RDS"); calls["CreateDBInstanceReadReplica"]+calls["RestoreDBInstanceFromDBSnapshot"]+calls["CreateDBInstance"] != 0 {
		t.Errorf("the other namespace's attempts made %v, want no create", calls)
	}
	out, err := c.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{Filters: []rdstypes.Filter{{Name: aws.String("db-instance-id"), Values: []string{"thief-db", "thief-snap-db"}}}})
	if err != nil || len(out.DBInstances) != 0 {
		t.Errorf("instances of the other namespace: %v, %v", out, err)
	}
}
