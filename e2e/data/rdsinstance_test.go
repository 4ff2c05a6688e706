package data_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// wellFormedSG stands in for the seed's sg-xxx placeholder once the example is reconciled.
const wellFormedSG = "sg-0123456789abcdef0"

// describeInstance returns the emulator's DB instance id, failing the test when it is absent.
func describeInstance(t *testing.T, c *rds.Client, id string) types.DBInstance {
	t.Helper()
	out, err := c.DescribeDBInstances(context.Background(), &rds.DescribeDBInstancesInput{DBInstanceIdentifier: aws.String(id)})
	if err != nil || len(out.DBInstances) != 1 {
		t.Fatalf("describe DB instance %s: %v", id, err)
	}
	return out.DBInstances[0]
}

// instanceGone reports whether the DB instance id no longer exists.
func instanceGone(c *rds.Client, id string) bool {
	_, err := c.DescribeDBInstances(context.Background(), &rds.DescribeDBInstancesInput{DBInstanceIdentifier: aws.String(id)})
	return err != nil && strings.Contains(err.Error(), "DBInstanceNotFound")
}

// tagsOf returns an RDS tag list as a map.
func tagsOf(list []types.Tag) map[string]string {
	out := map[string]string{}
	for _, t := range list {
		out[aws.ToString(t.Key)] = aws.ToString(t.Value)
	}
	return out
}

// TestRDSSeedExamples applies the seed's two RDS examples verbatim and checks that they become
// Ready and that the instances in AWS match them; it logs the calls each took.
func TestRDSSeedExamples(t *testing.T) {
	h := start(t)
	h.provider("default", "production-aws")
	h.secret("default", "postgres-password", "password", "postgres-Secret-1")
	h.secret("default", "mysql-password", "password", "mysql-Secret-1")
	c := rds.NewFromConfig(h.aws)
	ctx := context.Background()
	if _, err := c.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{DBSubnetGroupName: aws.String("production-db-subnet-group"),
		DBSubnetGroupDescription: aws.String("production"), SubnetIds: []string{"subnet-0123456789abcdef0", "subnet-0123456789abcdef1"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateDBParameterGroup(ctx, &rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String("custom-mysql-params"),
		DBParameterGroupFamily: aws.String("mysql8.0"), Description: aws.String("custom")}); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		file, name, id string
		// fix puts real values where the example has placeholders; nil when it has none.
		fix   func(*v1alpha1.RDSInstance)
		check func(t *testing.T, d types.DBInstance)
	}{
		{"rdsinstance-postgres.yaml", "production-postgres", "production-postgres-01",
			func(i *v1alpha1.RDSInstance) { i.Spec.VPCSecurityGroupIDs = []string{wellFormedSG} },
			func(t *testing.T, d types.DBInstance) {
				if aws.ToString(d.DBInstanceClass) != "db.t3.medium" || aws.ToString(d.Engine) != "postgres" || aws.ToString(d.EngineVersion) != "14.7" {
					t.Errorf("class/engine: %s %s %s", aws.ToString(d.DBInstanceClass), aws.ToString(d.Engine), aws.ToString(d.EngineVersion))
				}
				if aws.ToInt32(d.AllocatedStorage) != 100 || aws.ToString(d.StorageType) != "gp3" || !aws.ToBool(d.StorageEncrypted) {
					t.Errorf("storage: %d %s encrypted=%v", aws.ToInt32(d.AllocatedStorage), aws.ToString(d.StorageType), aws.ToBool(d.StorageEncrypted))
				}
				if !aws.ToBool(d.MultiAZ) || aws.ToInt32(d.BackupRetentionPeriod) != 7 || !aws.ToBool(d.DeletionProtection) || aws.ToBool(d.PubliclyAccessible) {
					t.Errorf("multiAZ=%v backups=%d deletionProtection=%v public=%v", aws.ToBool(d.MultiAZ), aws.ToInt32(d.BackupRetentionPeriod),
						aws.ToBool(d.DeletionProtection), aws.ToBool(d.PubliclyAccessible))
				}
				if aws.ToString(d.PreferredBackupWindow) != "03:00-04:00" || aws.ToString(d.PreferredMaintenanceWindow) != "sun:04:00-sun:05:00" {
					t.Errorf("windows: %s %s", aws.ToString(d.PreferredBackupWindow), aws.ToString(d.PreferredMaintenanceWindow))
				}
				if d.DBSubnetGroup == nil || aws.ToString(d.DBSubnetGroup.DBSubnetGroupName) != "production-db-subnet-group" ||
					len(d.VpcSecurityGroups) != 1 || aws.ToString(d.VpcSecurityGroups[0].VpcSecurityGroupId) != wellFormedSG {
					t.Errorf("network: %+v %+v", d.DBSubnetGroup, d.VpcSecurityGroups)
				}
				if aws.ToString(d.DBName) != "production" || aws.ToString(d.MasterUsername) != "postgres" {
					t.Errorf("db name/user: %s %s", aws.ToString(d.DBName), aws.ToString(d.MasterUsername))
				}
			}},
		{"rdsinstance-mysql.yaml", "app-mysql", "app-mysql-01", nil,
			func(t *testing.T, d types.DBInstance) {
				if aws.ToString(d.DBInstanceClass) != "db.t3.small" || aws.ToString(d.Engine) != "mysql" || aws.ToString(d.EngineVersion) != "8.0.33" {
					t.Errorf("class/engine: %s %s %s", aws.ToString(d.DBInstanceClass), aws.ToString(d.Engine), aws.ToString(d.EngineVersion))
				}
				if aws.ToInt32(d.AllocatedStorage) != 50 || aws.ToString(d.StorageType) != "gp2" || aws.ToBool(d.MultiAZ) || aws.ToInt32(d.BackupRetentionPeriod) != 7 {
					t.Errorf("storage %d %s multiAZ=%v backups=%d", aws.ToInt32(d.AllocatedStorage), aws.ToString(d.StorageType), aws.ToBool(d.MultiAZ), aws.ToInt32(d.BackupRetentionPeriod))
				}
				if len(d.DBParameterGroups) != 1 || aws.ToString(d.DBParameterGroups[0].DBParameterGroupName) != "custom-mysql-params" {
					t.Errorf("parameter groups: %+v", d.DBParameterGroups)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.emu.Calls.Reset()
			began := time.Now()
			h.applySeed(tc.file, "default")
			obj := &v1alpha1.RDSInstance{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: tc.name}}
			if tc.fix != nil {
				// The placeholder passes admission; AWS refuses it, and the object says so.
				waitCondition(h, obj, "Synced", "False", "AWSRejectedRequest")
				h.emu.Calls.Reset()
				began = time.Now()
				update(h, obj, tc.fix)
			}
			obj = waitReady(h, obj)
			elapsed := time.Since(began)
			createCalls := h.calls("RDS")
			if obj.Status.DBInstanceIdentifier != tc.id || obj.Status.DBInstanceStatus != "available" || obj.Status.Endpoint == "" ||
				obj.Status.Port == 0 || obj.Status.ARN == "" || !strings.HasPrefix(obj.Status.MasterUserPasswordVersion, obj.Spec.MasterUserPasswordSecretRef.Name+"/") {
				t.Errorf("status: %+v", obj.Status)
			}
			d := describeInstance(t, c, tc.id)
			tc.check(t, d)
			got := tagsOf(d.TagList)
			if got[shared.TagOwnerUID] != string(obj.UID) || got[shared.TagOwnerKind] != "RDSInstance" || got[shared.TagOwnerName] != tc.name {
				t.Errorf("ownership tags missing: %v", got)
			}
			for k, v := range obj.Spec.Tags {
				if got[k] != v {
					t.Errorf("tag %s = %q, want %q", k, got[k], v)
				}
			}
			h.emu.Calls.Reset()
			h.resync(obj)
			waitFor(h, obj, 10*time.Second, "a resync", func(o *v1alpha1.RDSInstance) bool { return total(h.calls("RDS")) > 0 && o.Status.Ready })
			time.Sleep(300 * time.Millisecond)
			steady := h.calls("RDS")
			t.Logf("figures: %s: %d RDS calls to create (%v), Ready after %s; %d calls per steady-state sync (%v)",
				tc.name, total(createCalls), createCalls, elapsed.Round(10*time.Millisecond), total(steady), steady)
			if total(steady) != 1 || steady["DescribeDBInstances"] != 1 {
				t.Errorf("a steady-state sync made %d calls (%v); want DescribeDBInstances only", total(steady), steady)
			}
		})
	}
}

// rdsInstance returns a small postgres RDSInstance in ns that uses the provider "aws" and the
// password Secret secret.
func rdsInstance(ns, name, id, secret string) *v1alpha1.RDSInstance {
	// The maintenance window is three days away, so nothing deferred to it is applied during the
	// test.
	day := strings.ToLower(time.Now().UTC().Add(72 * time.Hour).Weekday().String()[:3])
	return &v1alpha1.RDSInstance{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: v1alpha1.RDSInstanceSpec{
			ManagedSpec:                 shared.ManagedSpec{ProviderRef: shared.ProviderReference{Name: "aws"}, Tags: map[string]string{"team": "data"}},
			DBInstanceIdentifier:        id,
			DBInstanceClass:             "db.t3.micro",
			Engine:                      "postgres",
			EngineVersion:               "16.3",
			AllocatedStorage:            20,
			MasterUsername:              "app",
			MasterUserPasswordSecretRef: shared.SecretKeySelector{Name: secret, Key: "password"},
			BackupRetentionPeriod:       aws.Int32(1),
			PreferredMaintenanceWindow:  day + ":10:00-" + day + ":11:00",
			ApplyImmediately:            true,
		},
	}
}

// statusRecorder remembers every dbInstanceStatus a waitFor poll saw.
type statusRecorder struct {
	mu   sync.Mutex
	seen []string
}

func (r *statusRecorder) see(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.seen) == 0 || r.seen[len(r.seen)-1] != s {
		r.seen = append(r.seen, s)
	}
}

// TestRDSLifecycle drives one control plane through updates, password rotation, a missing
// Secret, drift, deletion protection, final snapshots and the deletion policies.
func TestRDSLifecycle(t *testing.T) {
	h := start(t)
	h.provider("default", "aws")
	c := rds.NewFromConfig(h.aws)
	ctx := context.Background()
	h.secret("default", "lc-password", "password", "first-Passw0rd")
	obj := rdsInstance("default", "lifecycle", "lifecycle-db", "lc-password")
	h.create(obj)
	obj = waitReady(h, obj)

	t.Run("update applied immediately", func(t *testing.T) {
		h.emu.Calls.Reset()
		var rec statusRecorder
		update(h, obj, func(o *v1alpha1.RDSInstance) { o.Spec.DBInstanceClass = "db.t3.small" })
		waitFor(h, obj, 30*time.Second, "the new class", func(o *v1alpha1.RDSInstance) bool {
			rec.see(o.Status.DBInstanceStatus)
			return o.Status.Ready && o.Status.ObservedGeneration == o.Generation && o.Status.DBInstanceStatus == "available" &&
				len(o.Status.PendingModifications) == 0 && aws.ToString(describeInstance(t, c, "lifecycle-db").DBInstanceClass) == "db.t3.small"
		})
		if !slices.Contains(rec.seen, "modifying") {
			t.Errorf("status went %v; want it to pass through modifying", rec.seen)
		}
		if n := h.calls("RDS")["ModifyDBInstance"]; n != 1 {
			t.Errorf("%d ModifyDBInstance calls; want 1", n)
		}
	})

	t.Run("update deferred to the maintenance window", func(t *testing.T) {
		h.emu.Calls.Reset()
		update(h, obj, func(o *v1alpha1.RDSInstance) {
			o.Spec.ApplyImmediately = false
			o.Spec.DBInstanceClass = "db.t3.medium"
		})
		waitFor(h, obj, 30*time.Second, "a pending class change", func(o *v1alpha1.RDSInstance) bool {
			return o.Status.Ready && o.Status.ObservedGeneration == o.Generation && slices.Contains(o.Status.PendingModifications, "dbInstanceClass")
		})
		for range 2 {
			h.resync(obj)
			time.Sleep(500 * time.Millisecond)
		}
		if n := h.calls("RDS")["ModifyDBInstance"]; n != 1 {
			t.Errorf("%d ModifyDBInstance calls; want 1 (a pending change is not sent again)", n)
		}
		d := describeInstance(t, c, "lifecycle-db")
		if aws.ToString(d.DBInstanceClass) != "db.t3.small" || d.PendingModifiedValues == nil || aws.ToString(d.PendingModifiedValues.DBInstanceClass) != "db.t3.medium" {
			t.Errorf("class %s, pending %+v; want db.t3.small with db.t3.medium pending", aws.ToString(d.DBInstanceClass), d.PendingModifiedValues)
		}
		// Turning applyImmediately on applies what is pending.
		update(h, obj, func(o *v1alpha1.RDSInstance) { o.Spec.ApplyImmediately = true })
		waitFor(h, obj, 30*time.Second, "the pending class applied", func(o *v1alpha1.RDSInstance) bool {
			return o.Status.Ready && o.Status.ObservedGeneration == o.Generation && len(o.Status.PendingModifications) == 0 &&
				aws.ToString(describeInstance(t, c, "lifecycle-db").DBInstanceClass) == "db.t3.medium"
		})
	})

	t.Run("password rotation", func(t *testing.T) {
		before := obj.Status.MasterUserPasswordVersion
		h.emu.Calls.Reset()
		var s corev1.Secret
		if err := h.env.Client.Get(ctx, client.ObjectKey{Namespace: "default", Name: "lc-password"}, &s); err != nil {
			t.Fatal(err)
		}
		s.Data = map[string][]byte{"password": []byte("second-Passw0rd")}
		if err := h.env.Client.Update(ctx, &s); err != nil {
			t.Fatal(err)
		}
		waitFor(h, obj, 30*time.Second, "the new password applied", func(o *v1alpha1.RDSInstance) bool {
			return o.Status.MasterUserPasswordVersion == "lc-password/"+s.ResourceVersion && o.Status.Ready && o.Status.DBInstanceStatus == "available"
		})
		time.Sleep(500 * time.Millisecond)
		if n := h.calls("RDS")["ModifyDBInstance"]; n != 1 {
			t.Errorf("%d ModifyDBInstance calls after the rotation (version %s -> %s); want 1", n, before, obj.Status.MasterUserPasswordVersion)
		}
		var events corev1.EventList
		if err := h.env.Client.List(ctx, &events, client.InNamespace("default")); err != nil {
			t.Fatal(err)
		}
		for _, e := range events.Items {
			if strings.Contains(e.Message, "Passw0rd") {
				t.Errorf("event %s holds the password: %s", e.Reason, e.Message)
			}
		}
		if strings.Contains(fmt.Sprintf("%+v", obj.Status), "Passw0rd") {
			t.Errorf("status holds the password: %+v", obj.Status)
		}
	})

	t.Run("drift", func(t *testing.T) {
		if _, err := c.ModifyDBInstance(ctx, &rds.ModifyDBInstanceInput{DBInstanceIdentifier: aws.String("lifecycle-db"),
			BackupRetentionPeriod: aws.Int32(5), ApplyImmediately: aws.Bool(true)}); err != nil {
			t.Fatal(err)
		}
		h.resync(obj)
		h.waitEvent(obj, "DriftDetected", "backupRetentionPeriod")
		waitFor(h, obj, 30*time.Second, "backup retention restored", func(o *v1alpha1.RDSInstance) bool {
			return o.Status.Ready && aws.ToInt32(describeInstance(t, c, "lifecycle-db").BackupRetentionPeriod) == 1
		})
	})

	t.Run("missing Secret", func(t *testing.T) {
		late := rdsInstance("default", "late-secret", "late-secret-db", "late-password")
		late.Spec.FinalSnapshot = &v1alpha1.RDSFinalSnapshot{Skip: true}
		h.emu.Calls.Reset()
		h.create(late)
		late = waitCondition(h, late, "Ready", "False", "SecretNotFound")
		if c := late.Status.Conditions; !strings.Contains(fmt.Sprint(c), "default/late-password") {
			t.Errorf("conditions do not name the Secret: %+v", c)
		}
		if n := h.calls("RDS")["CreateDBInstance"]; n != 0 {
			t.Errorf("%d CreateDBInstance calls without a password; want none", n)
		}
		h.secret("default", "late-password", "password", "late-Passw0rd")
		waitReady(h, late)

		t.Run("skip final snapshot", func(t *testing.T) {
			h.delete(late)
			if !instanceGone(c, "late-secret-db") {
				// Deleting takes one transition; the object is released once it is gone.
				t.Errorf("DB instance late-secret-db still exists")
			}
			out, err := c.DescribeDBSnapshots(ctx, &rds.DescribeDBSnapshotsInput{DBInstanceIdentifier: aws.String("late-secret-db")})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.DBSnapshots) != 0 {
				t.Errorf("snapshots of a deletion that skips them: %+v", out.DBSnapshots)
			}
		})
	})

	t.Run("deletion protection and final snapshot", func(t *testing.T) {
		update(h, obj, func(o *v1alpha1.RDSInstance) { o.Spec.DeletionProtection = aws.Bool(true) })
		obj = waitReady(h, obj)
		if !aws.ToBool(describeInstance(t, c, "lifecycle-db").DeletionProtection) {
			t.Fatal("deletion protection was not turned on")
		}
		if err := h.env.Client.Delete(ctx, obj); err != nil {
			t.Fatal(err)
		}
		waitCondition(h, obj, "Synced", "False", "DeletionProtected")
		time.Sleep(500 * time.Millisecond)
		if d := describeInstance(t, c, "lifecycle-db"); aws.ToString(d.DBInstanceStatus) != "available" {
			t.Errorf("a protected instance is %s", aws.ToString(d.DBInstanceStatus))
		}
		update(h, obj, func(o *v1alpha1.RDSInstance) { o.Spec.DeletionProtection = aws.Bool(false) })
		h.waitGone(obj)
		if !instanceGone(c, "lifecycle-db") {
			t.Errorf("DB instance lifecycle-db still exists")
		}
		snap := "lifecycle-db-final-" + string(obj.UID)[:8]
		out, err := c.DescribeDBSnapshots(ctx, &rds.DescribeDBSnapshotsInput{DBSnapshotIdentifier: aws.String(snap)})
		if err != nil || len(out.DBSnapshots) != 1 {
			t.Fatalf("final snapshot %s: %v %+v", snap, err, out)
		}
	})

	for _, policy := range []shared.DeletionPolicy{shared.DeletionPolicyRetain, shared.DeletionPolicyOrphan} {
		t.Run(string(policy), func(t *testing.T) {
			name := strings.ToLower(string(policy))
			h.secret("default", name+"-password", "password", "kept-Passw0rd")
			o := rdsInstance("default", name, name+"-db", name+"-password")
			o.Spec.DeletionPolicy = policy
			h.create(o)
			o = waitReady(h, o)
			h.delete(o)
			d := describeInstance(t, c, name+"-db")
			if aws.ToString(d.DBInstanceStatus) != "available" {
				t.Errorf("a kept instance is %s", aws.ToString(d.DBInstanceStatus))
			}
			tags := tagsOf(d.TagList)
			owned := tags[shared.TagOwnerUID] == string(o.UID)
			if policy == shared.DeletionPolicyRetain && !owned {
				t.Errorf("Retain removed the ownership tags: %v", tags)
			}
			if policy == shared.DeletionPolicyOrphan {
				for k := range tags {
					if strings.HasPrefix(k, shared.Group+"/") {
						t.Errorf("Orphan left the ownership tag %s", k)
					}
				}
				if tags["team"] != "data" {
					t.Errorf("Orphan removed the spec's tags: %v", tags)
				}
			}
		})
	}

	t.Run("adoption changes only what the spec names", func(t *testing.T) {
		// The orphaned instance is adopted by a new object whose spec leaves deletion
		// protection unset and whose password Secret holds another password.
		if _, err := c.ModifyDBInstance(ctx, &rds.ModifyDBInstanceInput{DBInstanceIdentifier: aws.String("orphan-db"),
			DeletionProtection: aws.Bool(true), ApplyImmediately: aws.Bool(true)}); err != nil {
			t.Fatal(err)
		}
		h.emu.Calls.Reset()
		h.secret("default", "adopter-password", "password", "other-Passw0rd")
		o := rdsInstance("default", "adopter", "orphan-db", "adopter-password")
		o.Annotations = map[string]string{shared.AnnotationExternalName: "orphan-db"}
		h.create(o)
		o = waitReady(h, o)
		waitFor(h, o, 30*time.Second, "the adopted instance carries this object's tags", func(*v1alpha1.RDSInstance) bool {
			return tagsOf(describeInstance(t, c, "orphan-db").TagList)[shared.TagOwnerUID] == string(o.UID)
		})
		if n := h.calls("RDS")["ModifyDBInstance"]; n != 0 {
			t.Errorf("adoption made %d ModifyDBInstance calls (password or deletion protection); want none", n)
		}
		if !aws.ToBool(describeInstance(t, c, "orphan-db").DeletionProtection) {
			t.Errorf("adoption turned off the deletion protection set outside the operator")
		}
		if err := h.env.Client.Delete(ctx, o); err != nil {
			t.Fatal(err)
		}
		waitCondition(h, o, "Synced", "False", "DeletionProtected")
		if gone := instanceGone(c, "orphan-db"); gone {
			t.Fatal("the protected instance was deleted")
		}
		update(h, o, func(o *v1alpha1.RDSInstance) { o.Spec.DeletionPolicy = shared.DeletionPolicyOrphan })
		h.waitGone(o)
	})
}

// TestRDSBadInput checks that admission refuses specs RDS would refuse, and the changes RDS
// cannot make.
func TestRDSBadInput(t *testing.T) {
	h := start(t)
	for name, tc := range map[string]struct {
		mutate func(*v1alpha1.RDSInstance)
		want   string
	}{
		"DoubleHyphen":    {func(i *v1alpha1.RDSInstance) { i.Spec.DBInstanceIdentifier = "bad--name" }, "two consecutive hyphens"},
		"TrailingHyphen":  {func(i *v1alpha1.RDSInstance) { i.Spec.DBInstanceIdentifier = "bad-name-" }, "cannot end with a hyphen"},
		"UnknownEngine":   {func(i *v1alpha1.RDSInstance) { i.Spec.Engine = "db2" }, "spec.engine"},
		"SmallStorage":    {func(i *v1alpha1.RDSInstance) { i.Spec.AllocatedStorage = 10 }, "spec.allocatedStorage"},
		"IO1WithoutIops":  {func(i *v1alpha1.RDSInstance) { i.Spec.StorageType = "io1" }, "storageType io1 and io2 need iops"},
		"KMSWithoutCrypt": {func(i *v1alpha1.RDSInstance) { i.Spec.KMSKeyID = "alias/rds" }, "kmsKeyID and kmsKeyRef need storageEncrypted: true"},
		"GroupAndSubnets": {func(i *v1alpha1.RDSInstance) {
			i.Spec.DBSubnetGroupName, i.Spec.SubnetRefs = "private", []shared.Reference{{Name: "a"}}
		}, "give the subnets either as dbSubnetGroupName or as subnetIDs/subnetRefs"},
		"TooManyGroups": {func(i *v1alpha1.RDSInstance) {
			i.Spec.VPCSecurityGroupIDs = []string{"sg-1", "sg-2", "sg-3"}
			i.Spec.SecurityGroupRefs = []shared.Reference{{Name: "a"}, {Name: "b"}, {Name: "c"}}
		}, "at most 5 VPC security groups"},
	} {
		t.Run(name, func(t *testing.T) {
			o := rdsInstance("default", "bad-"+strings.ToLower(name), "good-name", "pw")
			tc.mutate(o)
			h.mustRefuse(o, tc.want)
		})
	}

	// Changes RDS cannot make are refused on update.
	o := rdsInstance("default", "immutable", "immutable-db", "pw")
	o.Spec.AllocatedStorage = 50
	h.create(o)
	for name, tc := range map[string]struct {
		mutate func(*v1alpha1.RDSInstance)
		want   string
	}{
		"EngineChange":  {func(i *v1alpha1.RDSInstance) { i.Spec.Engine = "mysql" }, "engine cannot change"},
		"StorageShrink": {func(i *v1alpha1.RDSInstance) { i.Spec.AllocatedStorage = 30 }, "allocatedStorage can only grow"},
		"SubnetsAdded": {func(i *v1alpha1.RDSInstance) { i.Spec.SubnetIDs = []string{"subnet-01234567", "subnet-76543210"} },
			"whether the operator makes the DB subnet group (subnetIDs/subnetRefs without dbSubnetGroupName) cannot change"},
	} {
		t.Run(name, func(t *testing.T) {
			kubetest.MustRefuseUpdate(t, h.env.Client, o, tc.mutate, tc.want)
		})
	}
}
