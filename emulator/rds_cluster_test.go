package emulator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/runner-codes/infra-operator/emulator"
)

// auroraCluster returns a valid CreateDBCluster request for an Aurora PostgreSQL cluster.
func auroraCluster(id string) *rds.CreateDBClusterInput {
	return &rds.CreateDBClusterInput{DBClusterIdentifier: aws.String(id), Engine: aws.String("aurora-postgresql"),
		MasterUsername: aws.String("app"), MasterUserPassword: aws.String("correct-horse-1")}
}

// auroraMember returns a CreateDBInstance request for a member of the cluster.
func auroraMember(id, cluster string) *rds.CreateDBInstanceInput {
	return &rds.CreateDBInstanceInput{DBInstanceIdentifier: aws.String(id), DBClusterIdentifier: aws.String(cluster),
		Engine: aws.String("aurora-postgresql"), DBInstanceClass: aws.String("db.r6g.large")}
}

// describeCluster returns the cluster id, failing the test when it cannot be described.
func describeDBCluster(t *testing.T, c *rds.Client, id string) types.DBCluster {
	t.Helper()
	out, err := c.DescribeDBClusters(context.Background(), &rds.DescribeDBClustersInput{DBClusterIdentifier: aws.String(id)})
	if err != nil {
		t.Fatalf("describe %s: %v", id, err)
	}
	if len(out.DBClusters) != 1 {
		t.Fatalf("describe %s returned %d clusters", id, len(out.DBClusters))
	}
	return out.DBClusters[0]
}

// members returns a cluster's members as "id writer|reader tier status".
func clusterMembers(t *testing.T, c *rds.Client, id string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, m := range describeDBCluster(t, c, id).DBClusterMembers {
		role := "reader"
		if aws.ToBool(m.IsClusterWriter) {
			role = "writer"
		}
		got[aws.ToString(m.DBInstanceIdentifier)] = role + " " + aws.ToString(m.DBClusterParameterGroupStatus)
	}
	return got
}

func TestRDSCreateDBClusterValidation(t *testing.T) {
	_, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	for name, tc := range map[string]struct {
		why    string
		modify func(*rds.CreateDBClusterInput)
		code   string
	}{
		"Engine":            {"Only Aurora engines make clusters here.", func(in *rds.CreateDBClusterInput) { in.Engine = aws.String("postgres-x") }, "InvalidParameterValue"},
		"Version":           {"A major version Aurora does not offer.", func(in *rds.CreateDBClusterInput) { in.EngineVersion = aws.String("9.6") }, "InvalidParameterCombination"},
		"NoUser":            {"The master user is required.", func(in *rds.CreateDBClusterInput) { in.MasterUsername = nil }, "InvalidParameterValue"},
		"NoPassword":        {"A password, unless RDS manages it.", func(in *rds.CreateDBClusterInput) { in.MasterUserPassword = nil }, "InvalidParameterValue"},
		"ShortPassword":     {"Passwords have at least 8 characters.", func(in *rds.CreateDBClusterInput) { in.MasterUserPassword = aws.String("short") }, "InvalidParameterValue"},
		"PasswordAndManage": {"A managed password is not given.", func(in *rds.CreateDBClusterInput) { in.ManageMasterUserPassword = aws.Bool(true) }, "InvalidParameterCombination"},
		"Retention":         {"Aurora keeps backups 1 to 35 days.", func(in *rds.CreateDBClusterInput) { in.BackupRetentionPeriod = aws.Int32(0) }, "InvalidParameterValue"},
		"KeyUnencrypted":    {"A KMS key needs StorageEncrypted.", func(in *rds.CreateDBClusterInput) { in.KmsKeyId = aws.String("alias/app") }, "InvalidParameterCombination"},
		"Windows": {"Backup and maintenance windows must not overlap.", func(in *rds.CreateDBClusterInput) {
			in.PreferredBackupWindow = aws.String("05:00-05:30")
			in.PreferredMaintenanceWindow = aws.String("sun:05:00-sun:05:30")
		}, "InvalidParameterValue"},
		"SubnetGroup": {"A missing subnet group.", func(in *rds.CreateDBClusterInput) { in.DBSubnetGroupName = aws.String("missing") }, "DBSubnetGroupNotFoundFault"},
		"ParamGroup":  {"A missing DB cluster parameter group.", func(in *rds.CreateDBClusterInput) { in.DBClusterParameterGroupName = aws.String("missing") }, "DBClusterParameterGroupNotFound"},
		"ParamFamily": {"A default group of another family.", func(in *rds.CreateDBClusterInput) {
			in.DBClusterParameterGroupName = aws.String("default.aurora-mysql8.0")
		}, "InvalidParameterCombination"},
		"MinCapacity": {"Capacities go in steps of 0.5 ACU.", func(in *rds.CreateDBClusterInput) {
			in.ServerlessV2ScalingConfiguration = &types.ServerlessV2ScalingConfiguration{MinCapacity: aws.Float64(0.3), MaxCapacity: aws.Float64(4)}
		}, "InvalidParameterValue"},
		"MaxCapacity": {"MaxCapacity is at most 256.", func(in *rds.CreateDBClusterInput) {
			in.ServerlessV2ScalingConfiguration = &types.ServerlessV2ScalingConfiguration{MinCapacity: aws.Float64(1), MaxCapacity: aws.Float64(300)}
		}, "InvalidParameterValue"},
		"Inverted": {"MaxCapacity is not below MinCapacity.", func(in *rds.CreateDBClusterInput) {
			in.ServerlessV2ScalingConfiguration = &types.ServerlessV2ScalingConfiguration{MinCapacity: aws.Float64(8), MaxCapacity: aws.Float64(4)}
		}, "InvalidParameterValue"},
		"LogType":      {"A log type the engine does not export.", func(in *rds.CreateDBClusterInput) { in.EnableCloudwatchLogsExports = []string{"slowquery"} }, "InvalidParameterValue"},
		"DatabaseName": {"Database names start with a letter.", func(in *rds.CreateDBClusterInput) { in.DatabaseName = aws.String("1app") }, "InvalidParameterValue"},
		"Identifier":   {"Identifiers do not end with a hyphen.", func(in *rds.CreateDBClusterInput) { in.DBClusterIdentifier = aws.String("main-") }, "InvalidParameterValue"},
	} {
		t.Run(name, func(t *testing.T) {
			in := auroraCluster("main")
			tc.modify(in)
			if _, err := c.CreateDBCluster(ctx, in); errorCode(err) != tc.code {
				t.Errorf("%s: %v, want %s", tc.why, err, tc.code)
			}
		})
	}
	if _, err := c.DescribeDBClusters(ctx, &rds.DescribeDBClustersInput{DBClusterIdentifier: aws.String("main")}); errorCode(err) != "DBClusterNotFoundFault" {
		t.Fatalf("refused requests made a cluster: %v", err)
	}
}

// TestRDSClusterLifecycle creates Aurora clusters, checks what they report while creating and
// once available, lists them, and deletes one with a final snapshot.
func TestRDSClusterLifecycle(t *testing.T) {
	e, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	if _, err := c.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{DBSubnetGroupName: aws.String("private"), DBSubnetGroupDescription: aws.String("private"),
		SubnetIds: []string{"subnet-0123456789abcdef0", "subnet-0123456789abcdef1"}}); err != nil {
		t.Fatal(err)
	}
	in := auroraCluster("Orders")
	in.MasterUserPassword, in.ManageMasterUserPassword = nil, aws.Bool(true)
	in.DBSubnetGroupName, in.VpcSecurityGroupIds = aws.String("private"), []string{"sg-0123456789abcdef0"}
	in.DatabaseName, in.StorageEncrypted, in.DeletionProtection = aws.String("orders"), aws.Bool(true), aws.Bool(true)
	in.ServerlessV2ScalingConfiguration = &types.ServerlessV2ScalingConfiguration{MinCapacity: aws.Float64(0.5), MaxCapacity: aws.Float64(16)}
	in.EnableCloudwatchLogsExports, in.CopyTagsToSnapshot = []string{"postgresql"}, aws.Bool(true)
	in.Tags = []types.Tag{{Key: aws.String("team"), Value: aws.String("orders")}}
	out, err := c.CreateDBCluster(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	d := out.DBCluster
	if aws.ToString(d.Status) != "creating" || aws.ToString(d.DBClusterIdentifier) != "orders" {
		t.Fatalf("new cluster: %s %s", aws.ToString(d.DBClusterIdentifier), aws.ToString(d.Status))
	}
	if _, err := c.CreateDBCluster(ctx, in); errorCode(err) != "DBClusterAlreadyExistsFault" {
		t.Fatalf("second orders: %v", err)
	}
	e.Clock.Advance(time.Minute)
	d2 := describeDBCluster(t, c, "orders")
	for what, got := range map[string]string{
		"status": aws.ToString(d2.Status), "version": aws.ToString(d2.EngineVersion), "port": fmt.Sprint(aws.ToInt32(d2.Port)),
		"group": aws.ToString(d2.DBClusterParameterGroup), "subnets": aws.ToString(d2.DBSubnetGroup), "database": aws.ToString(d2.DatabaseName),
		"secret": aws.ToString(d2.MasterUserSecret.SecretStatus), "retention": fmt.Sprint(aws.ToInt32(d2.BackupRetentionPeriod)),
		"engine": aws.ToString(d2.Engine), "tags": aws.ToString(d2.TagList[0].Value),
	} {
		want := map[string]string{"status": "available", "version": "17.5", "port": "5432", "group": "default.aurora-postgresql17", "subnets": "private",
			"database": "orders", "secret": "active", "retention": "1", "engine": "aurora-postgresql", "tags": "orders"}[what]
		if got != want {
			t.Errorf("%s: %q, want %q", what, got, want)
		}
	}
	if !regexp.MustCompile(`^orders\.cluster-[0-9a-f]{12}\.us-east-1\.rds\.amazonaws\.com$`).MatchString(aws.ToString(d2.Endpoint)) ||
		!regexp.MustCompile(`^orders\.cluster-ro-[0-9a-f]{12}\.us-east-1\.rds\.amazonaws\.com$`).MatchString(aws.ToString(d2.ReaderEndpoint)) {
		t.Errorf("endpoints %s, %s", aws.ToString(d2.Endpoint), aws.ToString(d2.ReaderEndpoint))
	}
	if !regexp.MustCompile(`^arn:aws:secretsmanager:us-east-1:\d{12}:secret:rds!cluster-`).MatchString(aws.ToString(d2.MasterUserSecret.SecretArn)) ||
		aws.ToString(d2.MasterUserSecret.KmsKeyId) == "" || aws.ToString(d2.KmsKeyId) == "" {
		t.Errorf("secret %+v, key %s", d2.MasterUserSecret, aws.ToString(d2.KmsKeyId))
	}
	if s := d2.ServerlessV2ScalingConfiguration; aws.ToFloat64(s.MinCapacity) != 0.5 || aws.ToFloat64(s.MaxCapacity) != 16 {
		t.Errorf("scaling %+v", s)
	}
	if !regexp.MustCompile(`^cluster-[A-Z2-7]{26}$`).MatchString(aws.ToString(d2.DbClusterResourceId)) {
		t.Errorf("resource id %s", aws.ToString(d2.DbClusterResourceId))
	}

	mysql := auroraCluster("catalog")
	mysql.Engine = aws.String("aurora-mysql")
	if _, err := c.CreateDBCluster(ctx, mysql); err != nil {
		t.Fatal(err)
	}
	if d := describeDBCluster(t, c, "catalog"); aws.ToInt32(d.Port) != 3306 || aws.ToString(d.EngineVersion) != "8.0.mysql_aurora.3.10.0" ||
		aws.ToString(d.DBClusterParameterGroup) != "default.aurora-mysql8.0" {
		t.Errorf("aurora-mysql: port %d, version %s, group %s", aws.ToInt32(d.Port), aws.ToString(d.EngineVersion), aws.ToString(d.DBClusterParameterGroup))
	}
	list, err := c.DescribeDBClusters(ctx, &rds.DescribeDBClustersInput{Filters: []types.Filter{{Name: aws.String("engine"), Values: []string{"aurora-mysql"}}}})
	if err != nil || len(list.DBClusters) != 1 || aws.ToString(list.DBClusters[0].DBClusterIdentifier) != "catalog" {
		t.Fatalf("engine filter: %v %v", list, err)
	}
	paged, err := c.DescribeDBClusters(ctx, &rds.DescribeDBClustersInput{MaxRecords: aws.Int32(20)})
	if err != nil || len(paged.DBClusters) != 2 || paged.Marker != nil {
		t.Fatalf("listing: %v %v", paged, err)
	}
	if _, err := c.DescribeDBClusters(ctx, &rds.DescribeDBClustersInput{MaxRecords: aws.Int32(5)}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("MaxRecords 5: %v", err)
	}

	// Tags through the tag operations, on the cluster's ARN.
	arn := d2.DBClusterArn
	if _, err := c.AddTagsToResource(ctx, &rds.AddTagsToResourceInput{ResourceName: arn, Tags: []types.Tag{{Key: aws.String("tier"), Value: aws.String("db")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RemoveTagsFromResource(ctx, &rds.RemoveTagsFromResourceInput{ResourceName: arn, TagKeys: []string{"team"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := c.ListTagsForResource(ctx, &rds.ListTagsForResourceInput{ResourceName: arn})
	if err != nil || len(tags.TagList) != 1 || aws.ToString(tags.TagList[0].Key) != "tier" {
		t.Fatalf("tags: %v %v", tags, err)
	}

	// Deletion: protected, then with a final snapshot that copies the tags.
	if _, err := c.DeleteDBCluster(ctx, &rds.DeleteDBClusterInput{DBClusterIdentifier: aws.String("orders"), SkipFinalSnapshot: aws.Bool(true)}); errorCode(err) != "InvalidParameterCombination" {
		t.Fatalf("protected delete: %v", err)
	}
	if _, err := c.ModifyDBCluster(ctx, &rds.ModifyDBClusterInput{DBClusterIdentifier: aws.String("orders"), DeletionProtection: aws.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteDBCluster(ctx, &rds.DeleteDBClusterInput{DBClusterIdentifier: aws.String("orders")}); errorCode(err) != "InvalidParameterCombination" {
		t.Fatalf("delete without a final snapshot choice: %v", err)
	}
	del, err := c.DeleteDBCluster(ctx, &rds.DeleteDBClusterInput{DBClusterIdentifier: aws.String("orders"), FinalDBSnapshotIdentifier: aws.String("orders-final")})
	if err != nil || aws.ToString(del.DBCluster.Status) != "deleting" {
		t.Fatalf("delete: %v %v", del, err)
	}
	if _, err := c.DeleteDBCluster(ctx, &rds.DeleteDBClusterInput{DBClusterIdentifier: aws.String("orders"), SkipFinalSnapshot: aws.Bool(true)}); errorCode(err) != "InvalidDBClusterStateFault" {
		t.Fatalf("second delete: %v", err)
	}
	snaps, err := c.DescribeDBClusterSnapshots(ctx, &rds.DescribeDBClusterSnapshotsInput{DBClusterIdentifier: aws.String("orders")})
	if err != nil || len(snaps.DBClusterSnapshots) != 1 || aws.ToString(snaps.DBClusterSnapshots[0].Status) != "creating" {
		t.Fatalf("final snapshot: %v %v", snaps, err)
	}
	if _, err := c.DeleteDBClusterSnapshot(ctx, &rds.DeleteDBClusterSnapshotInput{DBClusterSnapshotIdentifier: aws.String("orders-final")}); errorCode(err) != "InvalidDBClusterSnapshotStateFault" {
		t.Fatalf("deleting a creating snapshot: %v", err)
	}
	e.Clock.Advance(time.Minute)
	if _, err := c.DescribeDBClusters(ctx, &rds.DescribeDBClustersInput{DBClusterIdentifier: aws.String("orders")}); errorCode(err) != "DBClusterNotFoundFault" {
		t.Fatalf("deleted cluster: %v", err)
	}
	snap, err := c.DescribeDBClusterSnapshots(ctx, &rds.DescribeDBClusterSnapshotsInput{DBClusterSnapshotIdentifier: aws.String("orders-final")})
	if err != nil || aws.ToString(snap.DBClusterSnapshots[0].Status) != "available" || len(snap.DBClusterSnapshots[0].TagList) != 1 ||
		aws.ToString(snap.DBClusterSnapshots[0].Engine) != "aurora-postgresql" {
		t.Fatalf("final snapshot once ready: %+v %v", snap, err)
	}
	manual, err := c.CreateDBClusterSnapshot(ctx, &rds.CreateDBClusterSnapshotInput{DBClusterIdentifier: aws.String("catalog"),
		DBClusterSnapshotIdentifier: aws.String("catalog-manual"), Tags: []types.Tag{{Key: aws.String("kind"), Value: aws.String("manual")}}})
	if err != nil || aws.ToString(manual.DBClusterSnapshot.Status) != "creating" || len(manual.DBClusterSnapshot.TagList) != 1 {
		t.Fatalf("manual snapshot: %+v %v", manual, err)
	}
	if _, err := c.CreateDBClusterSnapshot(ctx, &rds.CreateDBClusterSnapshotInput{DBClusterIdentifier: aws.String("catalog"),
		DBClusterSnapshotIdentifier: aws.String("catalog-manual")}); errorCode(err) != "DBClusterSnapshotAlreadyExistsFault" {
		t.Errorf("second manual snapshot: %v", err)
	}
	restore := func(id, snapshot string) (*rds.RestoreDBClusterFromSnapshotOutput, error) {
		return c.RestoreDBClusterFromSnapshot(ctx, &rds.RestoreDBClusterFromSnapshotInput{DBClusterIdentifier: aws.String(id),
			SnapshotIdentifier: aws.String(snapshot), Engine: aws.String("aurora-postgresql"), DeletionProtection: aws.Bool(true)})
	}
	restored, err := restore("orders-restored", "orders-final")
	if err != nil {
		t.Fatal(err)
	}
	if r := restored.DBCluster; aws.ToString(r.Status) != "creating" || aws.ToString(r.DatabaseName) != "orders" || aws.ToString(r.MasterUsername) != "app" ||
		!aws.ToBool(r.StorageEncrypted) || !aws.ToBool(r.DeletionProtection) || r.MasterUserSecret != nil || r.DBSubnetGroup != nil {
		t.Errorf("restored: %+v", r)
	}
	if _, err := restore("orders-restored", "orders-final"); errorCode(err) != "DBClusterAlreadyExistsFault" {
		t.Errorf("restore onto a cluster: %v", err)
	}
	if _, err := restore("orders-other", "missing"); errorCode(err) != "DBClusterSnapshotNotFoundFault" {
		t.Errorf("restore of a missing snapshot: %v", err)
	}
	if _, err := c.DeleteDBClusterSnapshot(ctx, &rds.DeleteDBClusterSnapshotInput{DBClusterSnapshotIdentifier: aws.String("orders-final")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeDBClusterSnapshots(ctx, &rds.DescribeDBClusterSnapshotsInput{DBClusterSnapshotIdentifier: aws.String("orders-final")}); errorCode(err) != "DBClusterSnapshotNotFoundFault" {
		t.Fatalf("deleted snapshot: %v", err)
	}
}

// TestRDSClusterMembers adds instances to a cluster: the first is the writer, the others
// readers; the cluster cannot be deleted while they are there; a failover and the deletion of
// the writer hand the writer role to a reader.
func TestRDSClusterMembers(t *testing.T) {
	e, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	if _, err := c.CreateDBCluster(ctx, auroraCluster("main")); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	for name, tc := range map[string]struct {
		modify func(*rds.CreateDBInstanceInput)
		code   string
	}{
		"Engine":      {func(in *rds.CreateDBInstanceInput) { in.Engine = aws.String("aurora-mysql") }, "InvalidParameterCombination"},
		"Storage":     {func(in *rds.CreateDBInstanceInput) { in.AllocatedStorage = aws.Int32(20) }, "InvalidParameterCombination"},
		"User":        {func(in *rds.CreateDBInstanceInput) { in.MasterUsername = aws.String("app") }, "InvalidParameterCombination"},
		"Password":    {func(in *rds.CreateDBInstanceInput) { in.MasterUserPassword = aws.String("correct-horse-1") }, "InvalidParameterCombination"},
		"Serverless":  {func(in *rds.CreateDBInstanceInput) { in.DBInstanceClass = aws.String("db.serverless") }, "InvalidParameterCombination"},
		"Cluster":     {func(in *rds.CreateDBInstanceInput) { in.DBClusterIdentifier = aws.String("missing") }, "DBClusterNotFoundFault"},
		"Tier":        {func(in *rds.CreateDBInstanceInput) { in.PromotionTier = aws.Int32(16) }, "InvalidParameterValue"},
		"OtherEngine": {func(in *rds.CreateDBInstanceInput) { in.EngineVersion = aws.String("16") }, "InvalidParameterCombination"},
	} {
		in := auroraMember("main-x", "main")
		tc.modify(in)
		if _, err := c.CreateDBInstance(ctx, in); errorCode(err) != tc.code {
			t.Errorf("%s: %v, want %s", name, err, tc.code)
		}
	}
	writer, err := c.CreateDBInstance(ctx, auroraMember("main-1", "main"))
	if err != nil {
		t.Fatal(err)
	}
	if w := writer.DBInstance; aws.ToString(w.DBClusterIdentifier) != "main" || aws.ToString(w.MasterUsername) != "app" || aws.ToString(w.StorageType) != "aurora" {
		t.Errorf("member: cluster %s, user %s, storage %s", aws.ToString(w.DBClusterIdentifier), aws.ToString(w.MasterUsername), aws.ToString(w.StorageType))
	}
	for id, tier := range map[string]int32{"main-2": 2, "main-3": 0} {
		in := auroraMember(id, "main")
		in.PromotionTier = aws.Int32(tier)
		if _, err := c.CreateDBInstance(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	e.Clock.Advance(time.Minute)
	if got := clusterMembers(t, c, "main"); got["main-1"] != "writer in-sync" || got["main-2"] != "reader in-sync" || got["main-3"] != "reader in-sync" {
		t.Fatalf("members %v", got)
	}
	i := describeInstance(t, c, "main-2")
	if aws.ToInt32(i.PromotionTier) != 2 || aws.ToInt32(i.Endpoint.Port) != 5432 || aws.ToString(i.EngineVersion) != "17.5" ||
		!regexp.MustCompile(`^main-2\.[0-9a-f]{12}\.us-east-1\.rds\.amazonaws\.com$`).MatchString(aws.ToString(i.Endpoint.Address)) {
		t.Errorf("reader: tier %d, endpoint %+v, version %s", aws.ToInt32(i.PromotionTier), i.Endpoint, aws.ToString(i.EngineVersion))
	}
	if _, err := c.CreateDBSnapshot(ctx, &rds.CreateDBSnapshotInput{DBInstanceIdentifier: aws.String("main-2"), DBSnapshotIdentifier: aws.String("x")}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("instance snapshot of a member: %v", err)
	}
	if _, err := c.ModifyDBInstance(ctx, &rds.ModifyDBInstanceInput{DBInstanceIdentifier: aws.String("main-2"), BackupRetentionPeriod: aws.Int32(7)}); errorCode(err) != "InvalidParameterCombination" {
		t.Errorf("member backup retention: %v", err)
	}
	if _, err := c.ModifyDBInstance(ctx, &rds.ModifyDBInstanceInput{DBInstanceIdentifier: aws.String("main-2"), PromotionTier: aws.Int32(3), DBInstanceClass: aws.String("db.r6g.xlarge"),
		ApplyImmediately: aws.Bool(true)}); err != nil {
		t.Errorf("member class: %v", err)
	}
	e.Clock.Advance(time.Minute)
	if i := describeInstance(t, c, "main-2"); aws.ToInt32(i.PromotionTier) != 3 || aws.ToString(i.DBInstanceClass) != "db.r6g.xlarge" {
		t.Errorf("modified member: tier %d, class %s", aws.ToInt32(i.PromotionTier), aws.ToString(i.DBInstanceClass))
	}
	listed, err := c.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{Filters: []types.Filter{{Name: aws.String("db-cluster-id"), Values: []string{"main"}}}})
	if err != nil || len(listed.DBInstances) != 3 {
		t.Errorf("db-cluster-id filter: %v %v", listed, err)
	}
	if _, err := c.DeleteDBCluster(ctx, &rds.DeleteDBClusterInput{DBClusterIdentifier: aws.String("main"), SkipFinalSnapshot: aws.Bool(true)}); errorCode(err) != "InvalidDBClusterStateFault" {
		t.Fatalf("delete with members: %v", err)
	}

	// A failover to a named reader, then to the one Aurora picks (the best tier).
	if _, err := c.FailoverDBCluster(ctx, &rds.FailoverDBClusterInput{DBClusterIdentifier: aws.String("main"), TargetDBInstanceIdentifier: aws.String("main-2")}); err != nil {
		t.Fatal(err)
	}
	if got := clusterMembers(t, c, "main"); got["main-2"] != "writer in-sync" || got["main-1"] != "reader in-sync" {
		t.Fatalf("after failover to main-2: %v", got)
	}
	if _, err := c.FailoverDBCluster(ctx, &rds.FailoverDBClusterInput{DBClusterIdentifier: aws.String("main"), TargetDBInstanceIdentifier: aws.String("other")}); errorCode(err) != "InvalidParameterValue" {
		t.Fatalf("failover to a stranger: %v", err)
	}
	// Deleting the writer fails over to the reader of the best tier (main-3, tier 0).
	if _, err := c.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("main-2"), SkipFinalSnapshot: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	if got := clusterMembers(t, c, "main"); got["main-3"] != "writer in-sync" || got["main-2"] != "reader in-sync" {
		t.Fatalf("after deleting the writer: %v", got)
	}
	e.Clock.Advance(time.Minute)
	if got := clusterMembers(t, c, "main"); len(got) != 2 {
		t.Fatalf("deleted member still listed: %v", got)
	}
	for _, id := range []string{"main-1", "main-3"} {
		if _, err := c.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String(id)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.DeleteDBCluster(ctx, &rds.DeleteDBClusterInput{DBClusterIdentifier: aws.String("main"), SkipFinalSnapshot: aws.Bool(true)}); err != nil {
		t.Fatalf("delete with deleting members: %v", err)
	}
}

// TestRDSServerlessMembers adds db.serverless instances to a cluster with a Serverless v2
// scaling configuration.
func TestRDSServerlessMembers(t *testing.T) {
	_, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	in := auroraCluster("flex")
	in.Engine = aws.String("aurora-mysql")
	in.ServerlessV2ScalingConfiguration = &types.ServerlessV2ScalingConfiguration{MinCapacity: aws.Float64(0), MaxCapacity: aws.Float64(2)}
	if _, err := c.CreateDBCluster(ctx, in); err != nil {
		t.Fatal(err)
	}
	member := auroraMember("flex-1", "flex")
	member.Engine, member.DBInstanceClass = aws.String("aurora-mysql"), aws.String("db.serverless")
	if _, err := c.CreateDBInstance(ctx, member); err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(describeInstance(t, c, "flex-1").DBInstanceClass); got != "db.serverless" {
		t.Errorf("class %s", got)
	}
}

// TestRDSModifyDBCluster changes backups, the master password, the scaling configuration and the
// engine version.
func TestRDSModifyDBCluster(t *testing.T) {
	e, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	in := auroraCluster("main")
	in.EngineVersion = aws.String("16")
	// A window an hour away, so that the minor upgrade below waits for it whenever the test runs
	// (the default one, Sundays 05:00 UTC, may be open).
	backup, maintenance, _ := maintenanceWindow(e.Clock.Now())
	in.PreferredBackupWindow, in.PreferredMaintenanceWindow = aws.String(backup), aws.String(maintenance)
	newBackup, _, _ := maintenanceWindow(e.Clock.Now().Add(6 * time.Hour)) // 18 hours away from the maintenance window
	if _, err := c.CreateDBCluster(ctx, in); err != nil {
		t.Fatal(err)
	}
	modify := func(in *rds.ModifyDBClusterInput) (*types.DBCluster, error) {
		in.DBClusterIdentifier = aws.String("main")
		out, err := c.ModifyDBCluster(ctx, in)
		if err != nil {
			return nil, err
		}
		return out.DBCluster, nil
	}
	if _, err := modify(&rds.ModifyDBClusterInput{BackupRetentionPeriod: aws.Int32(7)}); errorCode(err) != "InvalidDBClusterStateFault" {
		t.Fatalf("modify while creating: %v", err)
	}
	e.Clock.Advance(time.Minute)
	d, err := modify(&rds.ModifyDBClusterInput{BackupRetentionPeriod: aws.Int32(7), PreferredBackupWindow: aws.String(newBackup),
		ServerlessV2ScalingConfiguration:  &types.ServerlessV2ScalingConfiguration{MinCapacity: aws.Float64(1), MaxCapacity: aws.Float64(8)},
		CloudwatchLogsExportConfiguration: &types.CloudwatchLogsExportConfiguration{EnableLogTypes: []string{"postgresql"}}})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToInt32(d.BackupRetentionPeriod) != 7 || aws.ToString(d.PreferredBackupWindow) != newBackup || aws.ToString(d.Status) != "available" ||
		aws.ToFloat64(d.ServerlessV2ScalingConfiguration.MaxCapacity) != 8 || len(d.EnabledCloudwatchLogsExports) != 1 {
		t.Errorf("modified: %+v", d)
	}
	if _, err := modify(&rds.ModifyDBClusterInput{BackupRetentionPeriod: aws.Int32(36)}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("retention 36: %v", err)
	}
	d, err = modify(&rds.ModifyDBClusterInput{MasterUserPassword: aws.String("battery-staple-2")})
	if err != nil || aws.ToString(d.Status) != "resetting-master-credentials" || aws.ToString(d.PendingModifiedValues.MasterUserPassword) != "****" {
		t.Fatalf("password: %+v %v", d, err)
	}
	e.Clock.Advance(time.Minute)
	d, err = modify(&rds.ModifyDBClusterInput{ManageMasterUserPassword: aws.Bool(true)})
	if err != nil || d.MasterUserSecret == nil {
		t.Fatalf("managed password: %+v %v", d, err)
	}
	e.Clock.Advance(time.Minute)
	// A minor upgrade waits for the maintenance window; a major one needs the flag.
	if d, err = modify(&rds.ModifyDBClusterInput{EngineVersion: aws.String("16.10")}); err != nil || aws.ToString(d.PendingModifiedValues.EngineVersion) != "16.10" {
		t.Fatalf("pending upgrade: %+v %v", d, err)
	}
	if _, err := modify(&rds.ModifyDBClusterInput{EngineVersion: aws.String("17.5"), ApplyImmediately: aws.Bool(true)}); errorCode(err) != "InvalidParameterCombination" {
		t.Fatalf("major upgrade without the flag: %v", err)
	}
	d, err = modify(&rds.ModifyDBClusterInput{EngineVersion: aws.String("17.5"), AllowMajorVersionUpgrade: aws.Bool(true), ApplyImmediately: aws.Bool(true)})
	if err != nil || aws.ToString(d.Status) != "upgrading" {
		t.Fatalf("major upgrade: %+v %v", d, err)
	}
	e.Clock.Advance(time.Minute)
	if d := describeDBCluster(t, c, "main"); aws.ToString(d.EngineVersion) != "17.5" || aws.ToString(d.DBClusterParameterGroup) != "default.aurora-postgresql17" || d.PendingModifiedValues != nil {
		t.Errorf("upgraded: %s %s %+v", aws.ToString(d.EngineVersion), aws.ToString(d.DBClusterParameterGroup), d.PendingModifiedValues)
	}
	if _, err := modify(&rds.ModifyDBClusterInput{EngineVersion: aws.String("16.9")}); errorCode(err) != "InvalidParameterCombination" {
		t.Errorf("downgrade: %v", err)
	}
	if _, err := c.ModifyDBCluster(ctx, &rds.ModifyDBClusterInput{DBClusterIdentifier: aws.String("missing"), DeletionProtection: aws.Bool(true)}); errorCode(err) != "DBClusterNotFoundFault" {
		t.Errorf("missing cluster: %v", err)
	}
}

// TestRDSClusterParameterGroups checks DB cluster parameter groups: their parameters, changes
// that leave the members pending-reboot until they reboot, and deletion.
func TestRDSClusterParameterGroups(t *testing.T) {
	e, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	if _, err := c.CreateDBClusterParameterGroup(ctx, &rds.CreateDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String("Tuned"),
		DBParameterGroupFamily: aws.String("aurora-postgresql17"), Description: aws.String("tuned")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateDBClusterParameterGroup(ctx, &rds.CreateDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String("tuned"),
		DBParameterGroupFamily: aws.String("aurora-postgresql17"), Description: aws.String("tuned")}); errorCode(err) != "DBParameterGroupAlreadyExists" {
		t.Fatalf("second group: %v", err)
	}
	if _, err := c.CreateDBClusterParameterGroup(ctx, &rds.CreateDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String("x"),
		DBParameterGroupFamily: aws.String("postgres17"), Description: aws.String("x")}); errorCode(err) != "InvalidParameterValue" {
		t.Fatalf("a DB parameter group family: %v", err)
	}
	groups, err := c.DescribeDBClusterParameterGroups(ctx, &rds.DescribeDBClusterParameterGroupsInput{DBClusterParameterGroupName: aws.String("default.aurora-mysql8.0")})
	if err != nil || aws.ToString(groups.DBClusterParameterGroups[0].DBParameterGroupFamily) != "aurora-mysql8.0" {
		t.Fatalf("default group: %v %v", groups, err)
	}
	if _, err := c.DescribeDBClusterParameterGroups(ctx, &rds.DescribeDBClusterParameterGroupsInput{DBClusterParameterGroupName: aws.String("missing")}); errorCode(err) != "DBParameterGroupNotFound" {
		t.Fatalf("missing group: %v", err)
	}
	in := auroraCluster("main")
	in.DBClusterParameterGroupName = aws.String("tuned")
	if _, err := c.CreateDBCluster(ctx, in); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateDBInstance(ctx, auroraMember("main-1", "main")); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	param := func(name, value string, method types.ApplyMethod) types.Parameter {
		return types.Parameter{ParameterName: aws.String(name), ParameterValue: aws.String(value), ApplyMethod: method}
	}
	modify := func(group string, p types.Parameter) error {
		_, err := c.ModifyDBClusterParameterGroup(ctx, &rds.ModifyDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String(group), Parameters: []types.Parameter{p}})
		return err
	}
	for what, tc := range map[string]struct {
		group string
		p     types.Parameter
		code  string
	}{
		"default":  {"default.aurora-postgresql17", param("log_statement", "ddl", types.ApplyMethodImmediate), "InvalidParameterValue"},
		"unknown":  {"tuned", param("no_such", "1", types.ApplyMethodImmediate), "InvalidParameterValue"},
		"value":    {"tuned", param("log_statement", "everything", types.ApplyMethodImmediate), "InvalidParameterValue"},
		"static":   {"tuned", param("rds.logical_replication", "1", types.ApplyMethodImmediate), "InvalidParameterCombination"},
		"missing":  {"missing", param("log_statement", "ddl", types.ApplyMethodImmediate), "DBParameterGroupNotFound"},
		"instance": {"tuned", param("work_mem", "8192", types.ApplyMethodImmediate), "InvalidParameterValue"},
	} {
		if got := errorCode(modify(tc.group, tc.p)); got != tc.code {
			t.Errorf("%s: %s, want %s", what, got, tc.code)
		}
	}
	if err := modify("tuned", param("log_statement", "ddl", types.ApplyMethodImmediate)); err != nil {
		t.Fatal(err)
	}
	if got := clusterMembers(t, c, "main")["main-1"]; got != "writer in-sync" {
		t.Fatalf("after a dynamic change: %s", got)
	}
	if err := modify("tuned", param("rds.logical_replication", "1", types.ApplyMethodPendingReboot)); err != nil {
		t.Fatal(err)
	}
	if got := clusterMembers(t, c, "main")["main-1"]; got != "writer pending-reboot" {
		t.Fatalf("after a static change: %s", got)
	}
	user, err := c.DescribeDBClusterParameters(ctx, &rds.DescribeDBClusterParametersInput{DBClusterParameterGroupName: aws.String("tuned"), Source: aws.String("user")})
	if err != nil || len(user.Parameters) != 2 || aws.ToString(user.Parameters[0].ParameterName) != "log_statement" {
		t.Fatalf("user parameters: %v %v", user, err)
	}
	first, err := c.DescribeDBClusterParameters(ctx, &rds.DescribeDBClusterParametersInput{DBClusterParameterGroupName: aws.String("tuned"), MaxRecords: aws.Int32(20)})
	if err != nil || len(first.Parameters) == 0 || aws.ToString(first.Parameters[0].ApplyType) == "" {
		t.Fatalf("parameters: %v %v", first, err)
	}
	if _, err := c.RebootDBInstance(ctx, &rds.RebootDBInstanceInput{DBInstanceIdentifier: aws.String("main-1")}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	if got := clusterMembers(t, c, "main")["main-1"]; got != "writer in-sync" {
		t.Fatalf("after a reboot: %s", got)
	}
	if _, err := c.ResetDBClusterParameterGroup(ctx, &rds.ResetDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String("tuned"), ResetAllParameters: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	if got := clusterMembers(t, c, "main")["main-1"]; got != "writer pending-reboot" {
		t.Fatalf("after a reset: %s", got)
	}
	if _, err := c.DeleteDBClusterParameterGroup(ctx, &rds.DeleteDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String("tuned")}); errorCode(err) != "InvalidDBParameterGroupState" {
		t.Fatalf("delete a group in use: %v", err)
	}
	// Moving the cluster to another group leaves the members pending-reboot too.
	if _, err := c.ModifyDBCluster(ctx, &rds.ModifyDBClusterInput{DBClusterIdentifier: aws.String("main"), DBClusterParameterGroupName: aws.String("default.aurora-postgresql17")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteDBClusterParameterGroup(ctx, &rds.DeleteDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String("tuned")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteDBClusterParameterGroup(ctx, &rds.DeleteDBClusterParameterGroupInput{DBClusterParameterGroupName: aws.String("default.aurora-postgresql17")}); errorCode(err) != "InvalidDBParameterGroupState" {
		t.Fatalf("delete a default group: %v", err)
	}
}

// TestRDSClusterManagedSecret checks that a cluster that manages its master password keeps it in
// a Secrets Manager secret, which goes when the cluster stops managing it.
func TestRDSClusterManagedSecret(t *testing.T) {
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	c := rds.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	sm := secretsmanager.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	in := auroraCluster("vault")
	in.MasterUserPassword, in.ManageMasterUserPassword = nil, aws.Bool(true)
	out, err := c.CreateDBCluster(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	arn := out.DBCluster.MasterUserSecret.SecretArn
	value, err := sm.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: arn})
	if err != nil {
		t.Fatal(err)
	}
	var creds map[string]string
	if err := json.Unmarshal([]byte(aws.ToString(value.SecretString)), &creds); err != nil || creds["username"] != "app" || len(creds["password"]) < 8 {
		t.Fatalf("secret value %q: %v", aws.ToString(value.SecretString), err)
	}
	if !strings.HasPrefix(aws.ToString(value.Name), "rds!cluster-") {
		t.Errorf("secret name %s", aws.ToString(value.Name))
	}
	e.Clock.Advance(time.Minute)
	if _, err := c.ModifyDBCluster(ctx, &rds.ModifyDBClusterInput{DBClusterIdentifier: aws.String("vault"), ManageMasterUserPassword: aws.Bool(false),
		MasterUserPassword: aws.String("correct-horse-2")}); err != nil {
		t.Fatal(err)
	}
	if _, err := sm.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: arn}); errorCode(err) != "ResourceNotFoundException" {
		t.Fatalf("secret after the cluster stopped managing it: %v", err)
	}
	if d := describeDBCluster(t, c, "vault"); d.MasterUserSecret != nil {
		t.Errorf("MasterUserSecret %+v", d.MasterUserSecret)
	}
}
