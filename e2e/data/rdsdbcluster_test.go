package data_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	netv1 "github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// describeCluster returns DB cluster id as DescribeDBClusters reports it.
func describeCluster(t *testing.T, c *rds.Client, id string) types.DBCluster {
	t.Helper()
	out, err := c.DescribeDBClusters(context.Background(), &rds.DescribeDBClustersInput{DBClusterIdentifier: aws.String(id)})
	if err != nil || len(out.DBClusters) != 1 {
		t.Fatalf("describe DB cluster %s: %v", id, err)
	}
	return out.DBClusters[0]
}

// clusterGone reports whether the DB cluster id no longer exists.
func clusterGone(c *rds.Client, id string) bool {
	_, err := c.DescribeDBClusters(context.Background(), &rds.DescribeDBClustersInput{DBClusterIdentifier: aws.String(id)})
	return err != nil && strings.Contains(err.Error(), "DBClusterNotFound")
}

// memberNames returns the identifiers of the cluster's instances in AWS, sorted, and its writer.
func memberNames(t *testing.T, c *rds.Client, id string) (names []string, writer string) {
	t.Helper()
	for _, m := range describeCluster(t, c, id).DBClusterMembers {
		names = append(names, aws.ToString(m.DBInstanceIdentifier))
		if aws.ToBool(m.IsClusterWriter) {
			writer = aws.ToString(m.DBInstanceIdentifier)
		}
	}
	slices.Sort(names)
	return names, writer
}

// auroraCluster returns an RDSDBCluster of provider "aws" with count db.r6g.large instances and
// the password of Secret secret (key password), backups kept one day and a final snapshot skipped.
func auroraCluster(ns, name, id, secret string, count int32) *v1alpha1.RDSDBCluster {
	return &v1alpha1.RDSDBCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: v1alpha1.RDSDBClusterSpec{
			ManagedSpec:                 shared.ManagedSpec{ProviderRef: shared.ProviderReference{Name: "aws"}, Tags: map[string]string{"team": "data"}},
			DBClusterIdentifier:         id,
			Engine:                      "aurora-postgresql",
			Instances:                   v1alpha1.RDSDBClusterInstances{Count: count, InstanceClass: "db.r6g.large"},
			MasterUsername:              "app",
			MasterUserPasswordSecretRef: &shared.SecretKeySelector{Name: secret, Key: "password"},
			BackupRetentionPeriod:       aws.Int32(1),
			ApplyImmediately:            true,
			FinalSnapshot:               &v1alpha1.RDSFinalSnapshot{Skip: true},
		},
	}
}

// get reads o again from the API server.
func get[O client.Object](t *testing.T, h *harness, o O) O {
	t.Helper()
	if err := h.env.Client.Get(context.Background(), client.ObjectKeyFromObject(o), o); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestRDSDBCluster applies examples/data/rdsdbcluster-aurora.yaml verbatim (its subnets,
// security group and cluster parameter group by reference, in the VPC app-vpc): the cluster
// becomes Ready with its writer and reader, both endpoints and its outputs; a steady sync reads
// only. It then scales the instances 2 -> 3 -> 1 (the writer stays), makes again an instance
// deleted outside the operator, changes the backup retention, and deletes the object: the
// instances first, then the cluster after its final snapshot, then the subnet group.
func TestRDSDBCluster(t *testing.T) {
	h := startWithNetwork(t)
	h.provider("default", "production-aws")
	c := rds.NewFromConfig(h.aws)
	ctx := context.Background()
	vpc := &netv1.VPC{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "app-vpc"},
		Spec: netv1.VPCSpec{ManagedSpec: shared.ManagedSpec{ProviderRef: shared.ProviderReference{Name: "production-aws"}}, CIDRBlock: "10.0.0.0/16"}}
	h.create(vpc)
	waitReady(h, vpc)

	h.emu.Calls.Reset()
	began := time.Now()
	h.applySeed("rdsdbcluster-aurora.yaml", "default")
	cl := &v1alpha1.RDSDBCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "storefront"}}
	cl = waitReady(h, cl)
	t.Logf("create: Ready after %s, %d RDS calls %v", time.Since(began).Round(10*time.Millisecond), total(h.calls("RDS")), h.calls("RDS"))

	// AWS has the cluster as the example says, with a writer and a reader.
	d := describeCluster(t, c, "storefront-aurora")
	if aws.ToString(d.Engine) != "aurora-postgresql" || aws.ToString(d.EngineVersion) != "16.4" || aws.ToString(d.DatabaseName) != "storefront" ||
		!aws.ToBool(d.StorageEncrypted) || aws.ToInt32(d.BackupRetentionPeriod) != 7 || aws.ToString(d.DBSubnetGroup) != "storefront-aurora" ||
		aws.ToString(d.DBClusterParameterGroup) != "storefront-aurora-tuned" || len(d.VpcSecurityGroups) != 1 || d.MasterUserSecret == nil {
		t.Errorf("DB cluster in AWS: %+v", d)
	}
	if names, writer := memberNames(t, c, "storefront-aurora"); !slices.Equal(names, []string{"storefront-aurora-1", "storefront-aurora-2"}) || writer == "" {
		t.Errorf("members %v, writer %q", names, writer)
	}
	if inst := describeInstance(t, c, "storefront-aurora-2"); aws.ToString(inst.DBInstanceClass) != "db.r6g.large" || tagsOf(inst.TagList)["Application"] != "storefront" {
		t.Errorf("instance storefront-aurora-2: class %s, tags %v", aws.ToString(inst.DBInstanceClass), tagsOf(inst.TagList))
	}
	s := cl.Status
	if s.Endpoint == "" || s.ReaderEndpoint == "" || s.Endpoint == s.ReaderEndpoint || s.Port != 5432 || !strings.HasPrefix(s.ARN, "arn:aws:rds:") ||
		s.DBClusterIdentifier != "storefront-aurora" || s.Status != "available" || !strings.HasPrefix(s.MasterUserSecretARN, "arn:aws:secretsmanager:") || len(s.Members) != 2 {
		t.Errorf("status: %+v", s)
	}
	out := &corev1.Secret{}
	kubetest.ResyncUntil(t, h.env.Client, cl, "the outputs Secret", func() bool {
		return h.env.Client.Get(ctx, client.ObjectKey{Namespace: "default", Name: "storefront-db"}, out) == nil
	})
	for _, key := range []string{"endpoint", "readerEndpoint", "port", "arn", "dbClusterIdentifier", "masterUserSecretARN", "username"} {
		if len(out.Data[key]) == 0 {
			t.Errorf("outputs Secret has no %s: keys %v", key, slices.Sorted(func(yield func(string) bool) {
				for k := range out.Data {
					if !yield(k) {
						return
					}
				}
			}))
		}
	}

	// A steady sync reads only.
	h.emu.Calls.Reset()
	kubetest.ResyncUntil(t, h.env.Client, cl, "looked at again", func() bool { return h.calls("RDS")["DescribeDBClusters"] > 0 })
	time.Sleep(300 * time.Millisecond)
	calls := h.calls("RDS")
	for op := range calls {
		if !strings.HasPrefix(op, "Describe") && !strings.HasPrefix(op, "List") {
			t.Errorf("a steady sync wrote: %v", calls)
		}
	}
	t.Logf("steady sync: %d RDS calls %v", total(calls), calls)

	// Scale 2 -> 3 -> 1: the writer stays.
	update(h, cl, func(o *v1alpha1.RDSDBCluster) { o.Spec.Instances.Count = 3 })
	waitFor(h, cl, kubetest.Timeout, "three instances", func(o *v1alpha1.RDSDBCluster) bool {
		return o.Status.Ready && o.Status.ObservedGeneration == o.Generation && len(o.Status.Members) == 3
	})
	if names, _ := memberNames(t, c, "storefront-aurora"); !slices.Equal(names, []string{"storefront-aurora-1", "storefront-aurora-2", "storefront-aurora-3"}) {
		t.Errorf("members after scaling to 3: %v", names)
	}
	_, writer := memberNames(t, c, "storefront-aurora")
	update(h, cl, func(o *v1alpha1.RDSDBCluster) { o.Spec.Instances.Count = 1 })
	waitFor(h, cl, kubetest.Timeout, "one instance", func(o *v1alpha1.RDSDBCluster) bool {
		names, _ := memberNames(t, c, "storefront-aurora")
		return o.Status.Ready && o.Status.ObservedGeneration == o.Generation && len(names) == 1
	})
	if names, w := memberNames(t, c, "storefront-aurora"); !slices.Equal(names, []string{writer}) || w != writer {
		t.Errorf("members after scaling to 1: %v (writer %q), want the writer %s only", names, w, writer)
	}

	// An instance deleted outside the operator is made again under its name.
	update(h, cl, func(o *v1alpha1.RDSDBCluster) { o.Spec.Instances.Count = 2 })
	waitFor(h, cl, kubetest.Timeout, "two instances", func(o *v1alpha1.RDSDBCluster) bool {
		return o.Status.Ready && o.Status.ObservedGeneration == o.Generation && len(o.Status.Members) == 2
	})
	names, writer := memberNames(t, c, "storefront-aurora")
	reader := names[0]
	if reader == writer {
		reader = names[1]
	}
	if _, err := c.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String(reader)}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.env.Client, cl, "the reader made again", func() bool {
		got, _ := memberNames(t, c, "storefront-aurora")
		if !slices.Contains(got, reader) {
			return false
		}
		return aws.ToString(describeInstance(t, c, reader).DBInstanceStatus) != "deleting"
	})
	waitReady(h, cl)

	// A change of the backup retention is applied.
	update(h, cl, func(o *v1alpha1.RDSDBCluster) { o.Spec.BackupRetentionPeriod = aws.Int32(14) })
	waitFor(h, cl, kubetest.Timeout, "backups kept 14 days", func(o *v1alpha1.RDSDBCluster) bool {
		return o.Status.Ready && o.Status.ObservedGeneration == o.Generation && aws.ToInt32(describeCluster(t, c, "storefront-aurora").BackupRetentionPeriod) == 14
	})

	// Deletion: the instances, then the cluster after its final snapshot, then the subnet group.
	h.emu.Calls.Reset()
	h.delete(cl)
	if !clusterGone(c, "storefront-aurora") {
		t.Error("the DB cluster is still in AWS")
	}
	for _, n := range names {
		if !instanceGone(c, n) {
			t.Errorf("DB instance %s is still in AWS", n)
		}
	}
	snaps, err := c.DescribeDBClusterSnapshots(ctx, &rds.DescribeDBClusterSnapshotsInput{DBClusterSnapshotIdentifier: aws.String("storefront-aurora-final")})
	if err != nil || len(snaps.DBClusterSnapshots) != 1 {
		t.Errorf("final snapshot: %v %+v", err, snaps)
	}
	if _, err := c.DescribeDBSubnetGroups(ctx, &rds.DescribeDBSubnetGroupsInput{DBSubnetGroupName: aws.String("storefront-aurora")}); err == nil {
		t.Error("the DB subnet group the operator made is still in AWS")
	}
	if calls := h.calls("RDS"); calls["DeleteDBInstance"] != 2 || calls["DeleteDBCluster"] != 1 || calls["DeleteDBSubnetGroup"] != 1 {
		t.Errorf("deletion calls: %v", calls)
	}
}

// TestRDSDBClusterAdmission checks what the API server refuses: the engine's change, both or
// neither of the password sources, db.serverless without its capacity range, a capacity off the
// 0.5 steps or a range upside down.
func TestRDSDBClusterAdmission(t *testing.T) {
	h := start(t)
	h.provider("default", "aws")
	h.secret("default", "admission-password", "password", "admission-Passw0rd")
	h.emu.Calls.Reset()

	both := auroraCluster("default", "both", "both", "admission-password", 1)
	both.Spec.ManageMasterUserPassword = true
	h.mustRefuse(both, "exactly one of masterUserPasswordSecretRef")
	neither := auroraCluster("default", "neither", "neither", "admission-password", 1)
	neither.Spec.MasterUserPasswordSecretRef = nil
	h.mustRefuse(neither, "exactly one of masterUserPasswordSecretRef")
	serverless := auroraCluster("default", "serverless", "serverless", "admission-password", 1)
	serverless.Spec.Instances.InstanceClass = "db.serverless"
	h.mustRefuse(serverless, "db.serverless needs serverlessV2Scaling")
	serverless.Spec.ServerlessV2Scaling = &v1alpha1.RDSServerlessV2Scaling{MinCapacity: "0.7", MaxCapacity: "8"}
	h.mustRefuse(serverless, "steps of 0.5")
	serverless.Spec.ServerlessV2Scaling = &v1alpha1.RDSServerlessV2Scaling{MinCapacity: "16", MaxCapacity: "8"}
	h.mustRefuse(serverless, "minCapacity cannot be above maxCapacity")
	tooMany := auroraCluster("default", "too-many", "too-many", "admission-password", 17)
	h.mustRefuse(tooMany, "instances.count")

	// A valid serverless cluster is taken, with its capacity range; its engine cannot change.
	serverless.Spec.ServerlessV2Scaling = &v1alpha1.RDSServerlessV2Scaling{MinCapacity: "0.5", MaxCapacity: "8"}
	h.create(serverless)
	serverless = waitReady(h, serverless)
	d := describeCluster(t, rds.NewFromConfig(h.aws), "serverless")
	if sc := d.ServerlessV2ScalingConfiguration; sc == nil || aws.ToFloat64(sc.MinCapacity) != 0.5 || aws.ToFloat64(sc.MaxCapacity) != 8 {
		t.Errorf("serverless v2 scaling in AWS: %+v", sc)
	}
	kubetest.MustRefuseUpdate(t, h.env.Client, serverless, func(o *v1alpha1.RDSDBCluster) { o.Spec.Engine = "aurora-mysql" }, "engine cannot change")
	kubetest.MustRefuseUpdate(t, h.env.Client, serverless, func(o *v1alpha1.RDSDBCluster) { o.Spec.DBClusterIdentifier = "other" }, "dbClusterIdentifier cannot change")
}

// TestRDSDBClusterPasswordAndProtection checks that a missing password Secret is a condition
// that recovers once the Secret exists, that the password never shows in the status, that
// deletion protection holds the deletion until it is turned off, and that a final snapshot name
// already taken holds it before any instance is deleted.
func TestRDSDBClusterPasswordAndProtection(t *testing.T) {
	h := start(t)
	h.provider("default", "aws")
	c := rds.NewFromConfig(h.aws)
	cl := auroraCluster("default", "guarded", "guarded", "guarded-password", 1)
	cl.Spec.DeletionProtection = aws.Bool(true)
	h.create(cl)
	waitCondition(h, cl, "Ready", "False", "SecretNotFound")
	if !clusterGone(c, "guarded") {
		t.Fatal("a DB cluster was created without its password")
	}
	const password = "guarded-Passw0rd-9"
	h.secret("default", "guarded-password", "password", password)
	cl = waitReady(h, cl)
	if strings.Contains(strings.Join(kubetest.ConditionTexts(cl.Status.Conditions), " ")+cl.Status.MasterUserPasswordVersion, password) {
		t.Error("the password shows in the status")
	}
	if !aws.ToBool(describeCluster(t, c, "guarded").DeletionProtection) {
		t.Error("deletion protection is off in AWS")
	}

	// Deletion waits for protection to be turned off, then goes.
	if err := h.env.Client.Delete(context.Background(), cl); err != nil {
		t.Fatal(err)
	}
	waitCondition(h, cl, "Synced", "False", "DeletionProtected")
	if clusterGone(c, "guarded") || instanceGone(c, "guarded-1") {
		t.Fatal("a protected cluster was deleted")
	}
	// A final snapshot whose name is taken holds the deletion before anything is deleted.
	if _, err := c.CreateDBClusterSnapshot(context.Background(), &rds.CreateDBClusterSnapshotInput{DBClusterIdentifier: aws.String("guarded"),
		DBClusterSnapshotIdentifier: aws.String("guarded-taken")}); err != nil {
		t.Fatal(err)
	}
	update(h, cl, func(o *v1alpha1.RDSDBCluster) {
		o.Spec.DeletionProtection, o.Spec.FinalSnapshot = aws.Bool(false), &v1alpha1.RDSFinalSnapshot{Identifier: "guarded-taken"}
	})
	waitCondition(h, cl, "Synced", "False", "FinalSnapshotExists")
	if instanceGone(c, "guarded-1") || aws.ToString(describeInstance(t, c, "guarded-1").DBInstanceStatus) == "deleting" {
		t.Fatal("an instance was deleted although the cluster's final snapshot cannot be taken")
	}
	update(h, cl, func(o *v1alpha1.RDSDBCluster) {
		o.Spec.FinalSnapshot = &v1alpha1.RDSFinalSnapshot{Identifier: "guarded-final"}
	})
	h.waitGone(cl)
	if !clusterGone(c, "guarded") || !instanceGone(c, "guarded-1") {
		t.Error("the DB cluster or its instance is still in AWS")
	}
}

// TestRDSDBClusterParameterGroupScope checks that an RDSDBCluster's dbClusterParameterGroupRef
// must name a group of scope Cluster, and an RDSInstance's dbParameterGroupRef one of scope
// Instance: either is a terminal condition, with no create call, until the reference changes.
func TestRDSDBClusterParameterGroupScope(t *testing.T) {
	h := start(t)
	h.provider("default", "aws")
	h.secret("default", "scope-password", "password", "scope-Passw0rd")
	instanceGroup := &v1alpha1.RDSDBParameterGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "instance-group"},
		Spec: v1alpha1.RDSDBParameterGroupSpec{ManagedSpec: shared.ManagedSpec{ProviderRef: shared.ProviderReference{Name: "aws"}}, Family: "aurora-postgresql16"}}
	clusterGroup := &v1alpha1.RDSDBParameterGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cluster-group"},
		Spec: v1alpha1.RDSDBParameterGroupSpec{ManagedSpec: shared.ManagedSpec{ProviderRef: shared.ProviderReference{Name: "aws"}}, Family: "aurora-postgresql16",
			Scope: v1alpha1.ParameterGroupScopeCluster, Parameters: []v1alpha1.DBParameter{{Name: "log_min_duration_statement", Value: "250"}}}}
	h.create(instanceGroup)
	h.create(clusterGroup)
	waitReady(h, instanceGroup)
	clusterGroup = waitReady(h, clusterGroup)
	if instanceGroup := get(t, h, instanceGroup); instanceGroup.Spec.Scope != v1alpha1.ParameterGroupScopeInstance {
		t.Errorf("scope defaults to %q", instanceGroup.Spec.Scope)
	}
	c := rds.NewFromConfig(h.aws)
	if out, err := c.DescribeDBClusterParameterGroups(context.Background(), &rds.DescribeDBClusterParameterGroupsInput{
		DBClusterParameterGroupName: aws.String("cluster-group")}); err != nil || len(out.DBClusterParameterGroups) != 1 {
		t.Fatalf("the cluster parameter group in AWS: %v", err)
	}
	kubetest.MustRefuseUpdate(t, h.env.Client, clusterGroup, func(g *v1alpha1.RDSDBParameterGroup) { g.Spec.Scope = "Instance" }, "scope cannot change")

	h.emu.Calls.Reset()
	cl := auroraCluster("default", "scoped", "scoped", "scope-password", 1)
	cl.Spec.EngineVersion, cl.Spec.DBClusterParameterGroupRef = "16.4", &shared.Reference{Name: "instance-group"}
	h.create(cl)
	cl = waitCondition(h, cl, "Synced", "False", "InvalidSpec")
	if text := strings.Join(kubetest.ConditionTexts(cl.Status.Conditions), " "); !strings.Contains(text, "of scope Instance, but needs a group of scope Cluster") {
		t.Errorf("conditions: %s", text)
	}
	inst := rdsInstance("default", "scoped-instance", "scoped-instance", "scope-password")
	inst.Spec.DBParameterGroupRef = &shared.Reference{Name: "cluster-group"}
	h.create(inst)
	waitCondition(h, inst, "Synced", "False", "InvalidSpec")
	if calls := h.calls("RDS"); calls["CreateDBCluster"]+calls["CreateDBInstance"] != 0 {
		t.Errorf("create calls for a group of the wrong scope: %v", calls)
	}

	// Naming the right group recovers; the cluster uses it.
	update(h, cl, func(o *v1alpha1.RDSDBCluster) {
		o.Spec.DBClusterParameterGroupRef = &shared.Reference{Name: "cluster-group"}
	})
	waitReady(h, cl)
	if got := aws.ToString(describeCluster(t, c, "scoped").DBClusterParameterGroup); got != "cluster-group" {
		t.Errorf("the cluster's parameter group is %s", got)
	}

	// A static parameter's change waits for the instances to reboot: the cluster says so.
	update(h, clusterGroup, func(g *v1alpha1.RDSDBParameterGroup) {
		g.Spec.Parameters = append(g.Spec.Parameters, v1alpha1.DBParameter{Name: "rds.logical_replication", Value: "1"})
	})
	kubetest.ResyncUntil(t, h.env.Client, cl, "pending-reboot", func() bool {
		cur := get(t, h, &v1alpha1.RDSDBCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "scoped"}})
		return cur.Status.ParameterApplyStatus == "pending-reboot" &&
			slices.ContainsFunc(cur.Status.PendingModifications, func(m string) bool { return strings.HasPrefix(m, "parameters") })
	})
}

// TestRDSDBClusterHostileNamespace checks what one namespace cannot do to a cluster another
// made: an object naming the same dbClusterIdentifier is refused (AlreadyExists) without a
// write, and deleting it (with the identifier recorded, as an adoption annotation would) deletes
// nothing. It also checks that an instance added to a cluster outside the operator is never
// deleted: scaling down leaves it, and it holds the cluster's deletion, named in the error,
// until it is gone.
func TestRDSDBClusterHostileNamespace(t *testing.T) {
	h := start(t)
	owner, tenant := h.env.Namespace(t), h.env.Namespace(t)
	for _, ns := range []string{owner, tenant} {
		h.provider(ns, "aws")
		h.secret(ns, "pw", "password", "hostile-Passw0rd")
	}
	c := rds.NewFromConfig(h.aws)
	ctx := context.Background()
	cl := auroraCluster(owner, "shared", "shared-db", "pw", 2)
	h.create(cl)
	cl = waitReady(h, cl)

	h.emu.Calls.Reset()
	thief := auroraCluster(tenant, "thief", "shared-db", "pw", 1)
	thief.Spec.BackupRetentionPeriod, thief.Spec.DeletionProtection = aws.Int32(30), aws.Bool(false)
	h.create(thief)
	waitCondition(h, thief, "Synced", "False", "AlreadyExists")
	update(h, thief, func(o *v1alpha1.RDSDBCluster) {
		o.Annotations = map[string]string{shared.AnnotationExternalName: "shared-db"}
	})
	h.delete(thief)
	for op, n := range h.calls("RDS") {
		if !strings.HasPrefix(op, "Describe") && !strings.HasPrefix(op, "List") {
			t.Errorf("another namespace's object wrote to the cluster: %s x%d", op, n)
		}
	}
	if names, _ := memberNames(t, c, "shared-db"); len(names) != 2 || aws.ToInt32(describeCluster(t, c, "shared-db").BackupRetentionPeriod) != 1 {
		t.Errorf("the cluster changed: members %v", names)
	}

	// An instance added outside the operator is left by scaling down and holds the deletion.
	if _, err := c.CreateDBInstance(ctx, &rds.CreateDBInstanceInput{DBInstanceIdentifier: aws.String("shared-db-manual"),
		DBClusterIdentifier: aws.String("shared-db"), Engine: aws.String("aurora-postgresql"), DBInstanceClass: aws.String("db.r6g.large")}); err != nil {
		t.Fatal(err)
	}
	update(h, cl, func(o *v1alpha1.RDSDBCluster) { o.Spec.Instances.Count = 1 })
	waitFor(h, cl, kubetest.Timeout, "one instance of its own", func(o *v1alpha1.RDSDBCluster) bool {
		names, _ := memberNames(t, c, "shared-db")
		return o.Status.Ready && o.Status.ObservedGeneration == o.Generation && len(names) == 2 && slices.Contains(names, "shared-db-manual")
	})
	if err := h.env.Client.Delete(ctx, cl); err != nil {
		t.Fatal(err)
	}
	waitFor(h, cl, kubetest.Timeout, "held by the instance it did not make", func(o *v1alpha1.RDSDBCluster) bool {
		return strings.Contains(strings.Join(kubetest.ConditionTexts(o.Status.Conditions), " "), "shared-db-manual, which this object did not make")
	})
	if clusterGone(c, "shared-db") || instanceGone(c, "shared-db-manual") {
		t.Fatal("the cluster or the instance the operator did not make was deleted")
	}
	if _, err := c.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("shared-db-manual")}); err != nil {
		t.Fatal(err)
	}
	h.waitGone(cl)
	if !clusterGone(c, "shared-db") {
		t.Error("the DB cluster is still in AWS")
	}
}

// TestRDSDBClusterOrphan deletes an object with deletionPolicy Orphan: the cluster, its
// instances and the DB subnet group the operator made stay in AWS, without the ownership tags
// and with the spec's.
func TestRDSDBClusterOrphan(t *testing.T) {
	h := start(t)
	h.provider("default", "aws")
	h.secret("default", "orphan-password", "password", "orphan-Passw0rd")
	c := rds.NewFromConfig(h.aws)
	cl := auroraCluster("default", "orphan", "orphan-db", "orphan-password", 2)
	cl.Spec.DeletionPolicy, cl.Spec.SubnetIDs = shared.DeletionPolicyOrphan, []string{"subnet-01234567", "subnet-76543210"}
	h.create(cl)
	cl = waitReady(h, cl)
	h.delete(cl)
	group, err := c.DescribeDBSubnetGroups(context.Background(), &rds.DescribeDBSubnetGroupsInput{DBSubnetGroupName: aws.String("orphan-db")})
	if err != nil {
		t.Fatal(err)
	}
	arns := map[string]string{"cluster": aws.ToString(describeCluster(t, c, "orphan-db").DBClusterArn),
		"subnet group": aws.ToString(group.DBSubnetGroups[0].DBSubnetGroupArn)}
	for _, id := range []string{"orphan-db-1", "orphan-db-2"} {
		arns[id] = aws.ToString(describeInstance(t, c, id).DBInstanceArn)
	}
	for what, arn := range arns {
		out, err := c.ListTagsForResource(context.Background(), &rds.ListTagsForResourceInput{ResourceName: aws.String(arn)})
		if err != nil {
			t.Fatal(err)
		}
		tags := tagsOf(out.TagList)
		for k := range tags {
			if strings.HasPrefix(k, shared.Group+"/") {
				t.Errorf("Orphan left the ownership tag %s on the %s", k, what)
			}
		}
		if tags["team"] != "data" {
			t.Errorf("Orphan removed the spec's tags of the %s: %v", what, tags)
		}
	}
}
