package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// rdsClient starts an emulator with a frozen clock and returns it with an RDS client.
func rdsClient(t *testing.T, opts emulator.Options) (*emulator.Server, *rds.Client) {
	t.Helper()
	e, url := start(t, opts)
	e.Clock.Freeze()
	return e, rds.NewFromConfig(sdkConfig(t, url, "AKID", 1))
}

// postgres returns a valid CreateDBInstance request for a small PostgreSQL instance.
func postgres(id string) *rds.CreateDBInstanceInput {
	return &rds.CreateDBInstanceInput{DBInstanceIdentifier: aws.String(id), DBInstanceClass: aws.String("db.t3.micro"),
		Engine: aws.String("postgres"), AllocatedStorage: aws.Int32(20), MasterUsername: aws.String("app"),
		MasterUserPassword: aws.String("correct-horse-1")}
}

// describeInstance returns the instance id, failing the test when it cannot be described.
func describeInstance(t *testing.T, c *rds.Client, id string) types.DBInstance {
	t.Helper()
	out, err := c.DescribeDBInstances(context.Background(), &rds.DescribeDBInstancesInput{DBInstanceIdentifier: aws.String(id)})
	if err != nil {
		t.Fatalf("describe %s: %v", id, err)
	}
	if len(out.DBInstances) != 1 {
		t.Fatalf("describe %s returned %d instances", id, len(out.DBInstances))
	}
	return out.DBInstances[0]
}

func TestRDSCreateDBInstanceValidation(t *testing.T) {
	_, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	if _, err := c.CreateDBInstance(ctx, postgres("orders")); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		change func(*rds.CreateDBInstanceInput)
		want   string
	}{
		"Exists":               {"A second instance with the same identifier is refused.", func(in *rds.CreateDBInstanceInput) { in.DBInstanceIdentifier = aws.String("ORDERS") }, "DBInstanceAlreadyExists"},
		"StartsWithDigit":      {"Identifiers start with a letter.", func(in *rds.CreateDBInstanceInput) { in.DBInstanceIdentifier = aws.String("1db") }, "InvalidParameterValue"},
		"DoubleHyphen":         {"Identifiers have no two consecutive hyphens.", func(in *rds.CreateDBInstanceInput) { in.DBInstanceIdentifier = aws.String("a--b") }, "InvalidParameterValue"},
		"TrailingHyphen":       {"Identifiers do not end with a hyphen.", func(in *rds.CreateDBInstanceInput) { in.DBInstanceIdentifier = aws.String("ab-") }, "InvalidParameterValue"},
		"TooLong":              {"Identifiers are at most 63 characters.", func(in *rds.CreateDBInstanceInput) { in.DBInstanceIdentifier = aws.String(strings.Repeat("a", 64)) }, "InvalidParameterValue"},
		"UnknownEngine":        {"Oracle engines name their edition.", func(in *rds.CreateDBInstanceInput) { in.Engine = aws.String("oracle") }, "InvalidParameterValue"},
		"AuroraWithoutCluster": {"An Aurora instance belongs to a DB cluster.", func(in *rds.CreateDBInstanceInput) { in.Engine = aws.String("aurora-postgresql") }, "InvalidParameterCombination"},
		"AuroraUnknownCluster": {"The emulator has no DB clusters.", func(in *rds.CreateDBInstanceInput) {
			in.Engine, in.DBClusterIdentifier = aws.String("aurora-mysql"), aws.String("main")
		}, "DBClusterNotFoundFault"},
		"UnknownVersion": {"PostgreSQL 12 is no longer offered.", func(in *rds.CreateDBInstanceInput) { in.EngineVersion = aws.String("12.1") }, "InvalidParameterCombination"},
		"BadClass":       {"Instance classes look like db.t3.micro.", func(in *rds.CreateDBInstanceInput) { in.DBInstanceClass = aws.String("t3.micro") }, "InvalidParameterValue"},
		"NoStorage":      {"Non-Aurora instances need AllocatedStorage.", func(in *rds.CreateDBInstanceInput) { in.AllocatedStorage = nil }, "InvalidParameterValue"},
		"StorageTooSmall": {"gp2 volumes of PostgreSQL are 20 to 65536 GiB.", func(in *rds.CreateDBInstanceInput) {
			in.StorageType, in.AllocatedStorage = aws.String("gp2"), aws.Int32(10)
		}, "InvalidParameterCombination"},
		"StorageTooLarge": {"gp3 volumes of MySQL are at most 65536 GiB.", func(in *rds.CreateDBInstanceInput) {
			in.Engine, in.AllocatedStorage = aws.String("mysql"), aws.Int32(70000)
		}, "InvalidParameterCombination"},
		"SmallIO1": {"io1 volumes are at least 100 GiB.", func(in *rds.CreateDBInstanceInput) { in.Iops, in.AllocatedStorage = aws.Int32(1000), aws.Int32(50) }, "InvalidParameterCombination"},
		"SQLServerStorage": {"SQL Server volumes are at most 16384 GiB.", func(in *rds.CreateDBInstanceInput) {
			in.Engine, in.AllocatedStorage = aws.String("sqlserver-ex"), aws.Int32(20000)
		}, "InvalidParameterCombination"},
		"SmallGP3WithIOPS":  {"gp3 volumes under 400 GiB keep their baseline IOPS.", func(in *rds.CreateDBInstanceInput) { in.StorageType, in.Iops = aws.String("gp3"), aws.Int32(12000) }, "InvalidParameterCombination"},
		"NoMasterUsername":  {"Non-Aurora instances need a master user.", func(in *rds.CreateDBInstanceInput) { in.MasterUsername = nil }, "InvalidParameterValue"},
		"NoPassword":        {"The password is required unless Secrets Manager manages it.", func(in *rds.CreateDBInstanceInput) { in.MasterUserPassword = nil }, "InvalidParameterValue"},
		"ShortPassword":     {"Passwords are at least 8 characters.", func(in *rds.CreateDBInstanceInput) { in.MasterUserPassword = aws.String("short") }, "InvalidParameterValue"},
		"PasswordWithAt":    {"Passwords exclude /, \", @ and space.", func(in *rds.CreateDBInstanceInput) { in.MasterUserPassword = aws.String("user@example") }, "InvalidParameterValue"},
		"PasswordWithSpace": {"Passwords exclude /, \", @ and space.", func(in *rds.CreateDBInstanceInput) { in.MasterUserPassword = aws.String("two words") }, "InvalidParameterValue"},
		"LongMySQLPassword": {"MySQL passwords are at most 41 characters.", func(in *rds.CreateDBInstanceInput) {
			in.Engine, in.MasterUserPassword = aws.String("mysql"), aws.String(strings.Repeat("p", 42))
		}, "InvalidParameterValue"},
		"ManagedAndPassword":   {"A managed password is not also given.", func(in *rds.CreateDBInstanceInput) { in.ManageMasterUserPassword = aws.Bool(true) }, "InvalidParameterCombination"},
		"UnknownSubnetGroup":   {"The subnet group must exist.", func(in *rds.CreateDBInstanceInput) { in.DBSubnetGroupName = aws.String("nowhere") }, "DBSubnetGroupNotFoundFault"},
		"UnknownParamGroup":    {"The parameter group must exist.", func(in *rds.CreateDBInstanceInput) { in.DBParameterGroupName = aws.String("tuned") }, "DBParameterGroupNotFound"},
		"OtherFamily":          {"The parameter group must be of the engine's family.", func(in *rds.CreateDBInstanceInput) { in.DBParameterGroupName = aws.String("default.mysql8.0") }, "InvalidParameterCombination"},
		"UnknownOptionGroup":   {"The option group must exist.", func(in *rds.CreateDBInstanceInput) { in.OptionGroupName = aws.String("extras") }, "OptionGroupNotFoundFault"},
		"BadSecurityGroup":     {"Security group IDs are sg- and 8 or 17 hex digits.", func(in *rds.CreateDBInstanceInput) { in.VpcSecurityGroupIds = []string{"sg-123"} }, "InvalidParameterValue"},
		"KeyWithoutEncryption": {"A KMS key needs StorageEncrypted.", func(in *rds.CreateDBInstanceInput) { in.KmsKeyId = aws.String("alias/db") }, "InvalidParameterCombination"},
		"MultiAZWithZone": {"A Multi-AZ instance does not choose its zone.", func(in *rds.CreateDBInstanceInput) {
			in.MultiAZ, in.AvailabilityZone = aws.Bool(true), aws.String("us-east-1a")
		}, "InvalidParameterCombination"},
		"ShortWindow": {"Windows are at least 30 minutes.", func(in *rds.CreateDBInstanceInput) { in.PreferredBackupWindow = aws.String("03:00-03:10") }, "InvalidParameterValue"},
		"OverlappingWindows": {"The backup and maintenance windows do not overlap.", func(in *rds.CreateDBInstanceInput) {
			in.PreferredBackupWindow, in.PreferredMaintenanceWindow = aws.String("05:00-05:30"), aws.String("sun:05:15-sun:05:45")
		}, "InvalidParameterValue"},
		"BadRetention": {"Backups are kept 0 to 35 days.", func(in *rds.CreateDBInstanceInput) { in.BackupRetentionPeriod = aws.Int32(36) }, "InvalidParameterValue"},
		"BadInsightsRetention": {"Performance Insights keeps 7, 731 or a multiple of 31 days.", func(in *rds.CreateDBInstanceInput) {
			in.EnablePerformanceInsights, in.PerformanceInsightsRetentionPeriod = aws.Bool(true), aws.Int32(94)
		}, "InvalidParameterValue"},
		"SQLServerDBName": {"SQL Server takes no DBName.", func(in *rds.CreateDBInstanceInput) {
			in.Engine, in.DBName = aws.String("sqlserver-se"), aws.String("app")
		}, "InvalidParameterCombination"},
		"Valid": {"A complete request is accepted.", func(in *rds.CreateDBInstanceInput) {
			in.DBInstanceIdentifier, in.Engine, in.EngineVersion = aws.String("inventory"), aws.String("mysql"), aws.String("8.0")
			in.VpcSecurityGroupIds = []string{"sg-0123456789abcdef0", "sg-01234567"}
		}, ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := postgres("check-" + strings.ToLower(name))
			tc.change(in)
			_, err := c.CreateDBInstance(ctx, in)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	_, err := c.CreateDBInstance(ctx, postgres("orders"))
	var exists *types.DBInstanceAlreadyExistsFault
	if !errors.As(err, &exists) {
		t.Errorf("re-creating an instance gave %v, want DBInstanceAlreadyExistsFault", err)
	}
}

// instanceView is what the lifecycle test compares of a DB instance.
func instanceView(d types.DBInstance) map[string]any {
	view := map[string]any{
		"status": aws.ToString(d.DBInstanceStatus), "class": aws.ToString(d.DBInstanceClass), "engine": aws.ToString(d.Engine),
		"version": aws.ToString(d.EngineVersion), "storageType": aws.ToString(d.StorageType), "storage": aws.ToInt32(d.AllocatedStorage),
		"iops": aws.ToInt32(d.Iops), "throughput": aws.ToInt32(d.StorageThroughput), "encrypted": aws.ToBool(d.StorageEncrypted),
		"multiAZ": aws.ToBool(d.MultiAZ), "retention": aws.ToInt32(d.BackupRetentionPeriod),
		"backupWindow": aws.ToString(d.PreferredBackupWindow), "maintenanceWindow": aws.ToString(d.PreferredMaintenanceWindow),
		"public": aws.ToBool(d.PubliclyAccessible), "deletionProtection": aws.ToBool(d.DeletionProtection),
		"insights": aws.ToBool(d.PerformanceInsightsEnabled), "insightsRetention": aws.ToInt32(d.PerformanceInsightsRetentionPeriod),
		"dbName": aws.ToString(d.DBName), "masterUsername": aws.ToString(d.MasterUsername), "autoMinor": aws.ToBool(d.AutoMinorVersionUpgrade),
		"copyTags": aws.ToBool(d.CopyTagsToSnapshot), "ca": aws.ToString(d.CACertificateIdentifier), "endpoint": "",
		"arn": aws.ToString(d.DBInstanceArn),
	}
	if d.Endpoint != nil {
		view["endpoint"] = fmt.Sprintf("%s:%d", aws.ToString(d.Endpoint.Address), aws.ToInt32(d.Endpoint.Port))
	}
	var params, options, groups, tags []string
	for _, g := range d.DBParameterGroups {
		params = append(params, aws.ToString(g.DBParameterGroupName)+" "+aws.ToString(g.ParameterApplyStatus))
	}
	for _, g := range d.OptionGroupMemberships {
		options = append(options, aws.ToString(g.OptionGroupName)+" "+aws.ToString(g.Status))
	}
	for _, sg := range d.VpcSecurityGroups {
		groups = append(groups, aws.ToString(sg.VpcSecurityGroupId)+" "+aws.ToString(sg.Status))
	}
	for _, tag := range d.TagList {
		tags = append(tags, aws.ToString(tag.Key)+"="+aws.ToString(tag.Value))
	}
	view["paramGroups"], view["optionGroups"], view["securityGroups"], view["tags"] = params, options, groups, tags
	return view
}

// TestRDSInstanceLifecycle follows instances through creating, backing-up, available, deleting
// and gone on the emulator's clock, checking what they report at each step.
func TestRDSInstanceLifecycle(t *testing.T) {
	e, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	in := postgres("Orders")
	in.StorageEncrypted, in.DBName, in.EnablePerformanceInsights = aws.Bool(true), aws.String("orders"), aws.Bool(true)
	in.VpcSecurityGroupIds = []string{"sg-0123456789abcdef0"}
	in.Tags = []types.Tag{{Key: aws.String("team"), Value: aws.String("data")}}
	created, err := c.CreateDBInstance(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"status": "creating", "class": "db.t3.micro", "engine": "postgres", "version": "17.6", "storageType": "gp3", "storage": int32(20),
		"iops": int32(3000), "throughput": int32(125), "encrypted": true, "multiAZ": false, "retention": int32(1),
		"backupWindow": "03:00-03:30", "maintenanceWindow": "sun:05:00-sun:05:30", "public": true, "deletionProtection": false,
		"insights": true, "insightsRetention": int32(7), "dbName": "orders", "masterUsername": "app", "autoMinor": true, "copyTags": false,
		"ca": "rds-ca-rsa2048-g1", "endpoint": "", "arn": "arn:aws:rds:us-east-1:000000000000:db:orders",
		"paramGroups": []string{"default.postgres17 in-sync"}, "optionGroups": []string{"default:postgres-17 in-sync"},
		"securityGroups": []string{"sg-0123456789abcdef0 active"}, "tags": []string{"team=data"},
	}
	if diff := cmp.Diff(want, instanceView(*created.DBInstance)); diff != "" {
		t.Errorf("CreateDBInstance reported\n-want +got:\n%s", diff)
	}
	if key := aws.ToString(created.DBInstance.KmsKeyId); !regexp.MustCompile(`^arn:aws:kms:us-east-1:000000000000:key/[0-9a-f-]{36}$`).MatchString(key) {
		t.Errorf("KmsKeyId %q, want the ARN of the account's aws/rds key", key)
	}
	if id := aws.ToString(created.DBInstance.DbiResourceId); !strings.HasPrefix(id, "db-") || len(id) != 29 {
		t.Errorf("DbiResourceId %q, want db- and 26 characters", id)
	}
	if created.DBInstance.PendingModifiedValues == nil {
		t.Error("PendingModifiedValues is absent; AWS always returns the element")
	}
	if _, err := c.ModifyDBInstance(ctx, &rds.ModifyDBInstanceInput{DBInstanceIdentifier: aws.String("orders"), DeletionProtection: aws.Bool(true)}); errorCode(err) != "InvalidDBInstanceState" {
		t.Errorf("modifying a creating instance gave %v, want InvalidDBInstanceState", err)
	}

	e.Clock.Advance(2 * time.Second)
	got := describeInstance(t, c, "ORDERS")
	host := aws.ToString(got.Endpoint.Address)
	if aws.ToString(got.DBInstanceStatus) != "backing-up" || !strings.HasPrefix(host, "orders.") || !strings.HasSuffix(host, ".us-east-1.rds.amazonaws.com") ||
		aws.ToInt32(got.Endpoint.Port) != 5432 || got.InstanceCreateTime == nil {
		t.Errorf("after creating: status %s, endpoint %s:%d, created %v; want backing-up at orders.<suffix>.us-east-1.rds.amazonaws.com:5432",
			aws.ToString(got.DBInstanceStatus), host, aws.ToInt32(got.Endpoint.Port), got.InstanceCreateTime)
	}
	e.Clock.Advance(2 * time.Second)
	if s := aws.ToString(describeInstance(t, c, "orders").DBInstanceStatus); s != "available" {
		t.Fatalf("after the backup the instance is %s, want available", s)
	}

	// Without backups there is no backing-up step; MySQL listens on 3306, or the port asked for.
	ports := map[string]struct {
		engine string
		port   *int32
		want   int32
	}{"mysql": {"mysql", nil, 3306}, "mariadb": {"mariadb", aws.Int32(3310), 3310}, "oracle": {"oracle-se2", nil, 1521}, "sqlserver": {"sqlserver-ex", nil, 1433}}
	for id, p := range ports {
		in := postgres(id)
		in.Engine, in.Port, in.BackupRetentionPeriod, in.DBName = aws.String(p.engine), p.port, aws.Int32(0), nil
		if _, err := c.CreateDBInstance(ctx, in); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
	e.Clock.Advance(2 * time.Second)
	for id, p := range ports {
		got := describeInstance(t, c, id)
		if aws.ToString(got.DBInstanceStatus) != "available" || aws.ToInt32(got.Endpoint.Port) != p.want {
			t.Errorf("%s: status %s on port %d, want available on %d", id, aws.ToString(got.DBInstanceStatus), aws.ToInt32(got.Endpoint.Port), p.want)
		}
	}

	deleted, err := c.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("orders"), SkipFinalSnapshot: aws.Bool(true)})
	if err != nil || aws.ToString(deleted.DBInstance.DBInstanceStatus) != "deleting" {
		t.Fatalf("DeleteDBInstance gave %v, %v; want the instance deleting", deleted, err)
	}
	_, err = c.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("orders"), SkipFinalSnapshot: aws.Bool(true)})
	var state *types.InvalidDBInstanceStateFault
	if !errors.As(err, &state) {
		t.Errorf("deleting a deleting instance gave %v, want InvalidDBInstanceStateFault", err)
	}
	e.Clock.Advance(2 * time.Second)
	_, err = c.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{DBInstanceIdentifier: aws.String("orders")})
	var notFound *types.DBInstanceNotFoundFault
	var res *awshttp.ResponseError
	if !errors.As(err, &notFound) || !errors.As(err, &res) || res.HTTPStatusCode() != http.StatusNotFound {
		t.Errorf("describing a deleted instance gave %v, want DBInstanceNotFoundFault with HTTP 404", err)
	}
}

// TestRDSDescribeDBInstances pages through instances and filters them.
func TestRDSDescribeDBInstances(t *testing.T) {
	_, c := rdsClient(t, emulator.Options{Transitions: map[string]time.Duration{"RDS": 0}})
	ctx := context.Background()
	for n := range 25 {
		in := postgres(fmt.Sprintf("db-%02d", n))
		if n%5 == 0 {
			in.Engine = aws.String("mariadb")
		}
		if _, err := c.CreateDBInstance(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(out *rds.DescribeDBInstancesOutput) []string {
		var got []string
		for _, d := range out.DBInstances {
			got = append(got, aws.ToString(d.DBInstanceIdentifier))
		}
		return got
	}
	first, err := c.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{MaxRecords: aws.Int32(20)})
	if err != nil || len(first.DBInstances) != 20 || first.Marker == nil {
		t.Fatalf("first page: %v, %v; want 20 instances and a marker", first, err)
	}
	rest, err := c.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{MaxRecords: aws.Int32(20), Marker: first.Marker})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"db-20", "db-21", "db-22", "db-23", "db-24"}, ids(rest)); diff != "" || rest.Marker != nil {
		t.Errorf("second page (marker %v)\n-want +got:\n%s", rest.Marker, diff)
	}
	if aws.ToString(rest.DBInstances[0].DBInstanceStatus) != "available" {
		t.Errorf("with an immediate transition a new instance is %s, want available", aws.ToString(rest.DBInstances[0].DBInstanceStatus))
	}
	cases := map[string]struct {
		filters []types.Filter
		want    []string
		code    string
	}{
		"Engine":     {filters: []types.Filter{{Name: aws.String("engine"), Values: []string{"mariadb"}}}, want: []string{"db-00", "db-05", "db-10", "db-15", "db-20"}},
		"InstanceID": {filters: []types.Filter{{Name: aws.String("db-instance-id"), Values: []string{"db-03", "arn:aws:rds:us-east-1:000000000000:db:db-04"}}}, want: []string{"db-03", "db-04"}},
		"Both": {filters: []types.Filter{{Name: aws.String("engine"), Values: []string{"postgres"}},
			{Name: aws.String("db-instance-id"), Values: []string{"db-05", "db-06"}}}, want: []string{"db-06"}},
		"Unknown": {filters: []types.Filter{{Name: aws.String("color"), Values: []string{"blue"}}}, code: "InvalidParameterValue"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := c.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{Filters: tc.filters})
			if diff := cmp.Diff(tc.code, errorCode(err)); diff != "" {
				t.Fatalf("error code\n-want +got:\n%s", diff)
			}
			if err == nil {
				if diff := cmp.Diff(tc.want, ids(out)); diff != "" {
					t.Errorf("-want +got:\n%s", diff)
				}
			}
		})
	}
	if _, err := c.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{MaxRecords: aws.Int32(10)}); errorCode(err) != "InvalidParameterValue" {
		t.Errorf("MaxRecords 10 gave %v, want InvalidParameterValue (20 to 100)", err)
	}
}

// maintenanceWindow returns a 30-minute weekly window that opens about an hour after now (at
// open), and a daily backup window twelve hours away from it.
func maintenanceWindow(now time.Time) (backup, maintenance string, open time.Time) {
	open, backupAt := now.UTC().Add(time.Hour).Truncate(time.Minute), now.UTC().Add(12*time.Hour)
	at := func(t time.Time) string { return strings.ToLower(t.Format("Mon")) + ":" + t.Format("15:04") }
	return backupAt.Format("15:04") + "-" + backupAt.Add(30*time.Minute).Format("15:04"), at(open) + "-" + at(open.Add(30*time.Minute)), open
}

// TestRDSModifyDBInstance checks which changes wait for the maintenance window and which apply
// at once, with ApplyImmediately and without.
func TestRDSModifyDBInstance(t *testing.T) {
	e, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	in := postgres("billing")
	in.EngineVersion = aws.String("16")
	backup, maintenance, open := maintenanceWindow(e.Clock.Now())
	in.PreferredBackupWindow, in.PreferredMaintenanceWindow = aws.String(backup), aws.String(maintenance)
	if _, err := c.CreateDBInstance(ctx, in); err != nil {
		t.Fatal(err)
	}
	in.DBInstanceIdentifier = aws.String("payroll")
	if _, err := c.CreateDBInstance(ctx, in); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(4 * time.Second)

	// A change that restarts the instance at once leaves deferred changes for the window.
	if _, err := c.ModifyDBInstance(ctx, &rds.ModifyDBInstanceInput{DBInstanceIdentifier: aws.String("payroll"),
		PubliclyAccessible: aws.Bool(false), DBInstanceClass: aws.String("db.m5.2xlarge")}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	if got := describeInstance(t, c, "payroll"); aws.ToString(got.DBInstanceStatus) != "available" || aws.ToBool(got.PubliclyAccessible) ||
		aws.ToString(got.PendingModifiedValues.DBInstanceClass) != "db.m5.2xlarge" {
		t.Errorf("after the restart: status %s, public %v, pending class %s; want available, false, db.m5.2xlarge",
			aws.ToString(got.DBInstanceStatus), aws.ToBool(got.PubliclyAccessible), aws.ToString(got.PendingModifiedValues.DBInstanceClass))
	}

	modify := func(in *rds.ModifyDBInstanceInput) types.DBInstance {
		t.Helper()
		in.DBInstanceIdentifier = aws.String("billing")
		out, err := c.ModifyDBInstance(ctx, in)
		if err != nil {
			t.Fatalf("ModifyDBInstance: %v", err)
		}
		return *out.DBInstance
	}

	// Deferred: class and storage wait for the window; the rest applies at once.
	got := modify(&rds.ModifyDBInstanceInput{DBInstanceClass: aws.String("db.m5.large"), AllocatedStorage: aws.Int32(21),
		DeletionProtection: aws.Bool(true), CopyTagsToSnapshot: aws.Bool(true), BackupRetentionPeriod: aws.Int32(7)})
	pending := got.PendingModifiedValues
	if aws.ToString(got.DBInstanceStatus) != "available" || aws.ToString(got.DBInstanceClass) != "db.t3.micro" ||
		aws.ToString(pending.DBInstanceClass) != "db.m5.large" || aws.ToInt32(pending.AllocatedStorage) != 22 {
		t.Errorf("without ApplyImmediately: status %s, class %s, pending class %s and storage %d; want available, db.t3.micro, db.m5.large and 22 (10%% more)",
			aws.ToString(got.DBInstanceStatus), aws.ToString(got.DBInstanceClass), aws.ToString(pending.DBInstanceClass), aws.ToInt32(pending.AllocatedStorage))
	}
	if !aws.ToBool(got.DeletionProtection) || !aws.ToBool(got.CopyTagsToSnapshot) || aws.ToInt32(got.BackupRetentionPeriod) != 7 || pending.BackupRetentionPeriod != nil {
		t.Errorf("deletion protection, tag copying and a non-zero retention apply at once; got %v, %v, %d (pending %v)",
			aws.ToBool(got.DeletionProtection), aws.ToBool(got.CopyTagsToSnapshot), aws.ToInt32(got.BackupRetentionPeriod), pending.BackupRetentionPeriod)
	}
	e.Clock.Advance(open.Sub(e.Clock.Now()) - time.Second)
	if got := describeInstance(t, c, "billing"); aws.ToString(got.PendingModifiedValues.DBInstanceClass) != "db.m5.large" || aws.ToString(got.DBInstanceStatus) != "available" {
		t.Errorf("before the window the change is still pending: status %s, pending %v", aws.ToString(got.DBInstanceStatus), got.PendingModifiedValues.DBInstanceClass)
	}
	e.Clock.Advance(time.Second)
	if s := aws.ToString(describeInstance(t, c, "billing").DBInstanceStatus); s != "modifying" {
		t.Errorf("when the window opens the instance is %s, want modifying", s)
	}
	e.Clock.Advance(2 * time.Second)
	got = describeInstance(t, c, "billing")
	if aws.ToString(got.DBInstanceClass) != "db.m5.large" || aws.ToInt32(got.AllocatedStorage) != 22 || got.PendingModifiedValues.DBInstanceClass != nil {
		t.Errorf("after the window: class %s, storage %d, pending %v; want db.m5.large, 22, nothing", aws.ToString(got.DBInstanceClass),
			aws.ToInt32(got.AllocatedStorage), got.PendingModifiedValues.DBInstanceClass)
	}

	// Immediate: a deferred change is swept up by a later ApplyImmediately. (Outside the window,
	// which would apply it at once.)
	e.Clock.Advance(30 * time.Minute)
	modify(&rds.ModifyDBInstanceInput{MultiAZ: aws.Bool(true)})
	got = modify(&rds.ModifyDBInstanceInput{DBInstanceClass: aws.String("db.m5.xlarge"), ApplyImmediately: aws.Bool(true)})
	if aws.ToString(got.DBInstanceStatus) != "modifying" || aws.ToString(got.PendingModifiedValues.DBInstanceClass) != "db.m5.xlarge" || !aws.ToBool(got.PendingModifiedValues.MultiAZ) {
		t.Errorf("with ApplyImmediately: status %s, pending %+v; want modifying with the class and Multi-AZ pending", aws.ToString(got.DBInstanceStatus), got.PendingModifiedValues)
	}
	e.Clock.Advance(2 * time.Second)
	got = describeInstance(t, c, "billing")
	if aws.ToString(got.DBInstanceClass) != "db.m5.xlarge" || !aws.ToBool(got.MultiAZ) || aws.ToString(got.DBInstanceStatus) != "available" || got.SecondaryAvailabilityZone == nil {
		t.Errorf("after modifying: class %s, Multi-AZ %v, status %s", aws.ToString(got.DBInstanceClass), aws.ToBool(got.MultiAZ), aws.ToString(got.DBInstanceStatus))
	}

	// The master password is reset as soon as possible and never returned.
	got = modify(&rds.ModifyDBInstanceInput{MasterUserPassword: aws.String("new-secret-2")})
	if aws.ToString(got.DBInstanceStatus) != "resetting-master-credentials" || aws.ToString(got.PendingModifiedValues.MasterUserPassword) != "****" {
		t.Errorf("a new password: status %s, pending %q; want resetting-master-credentials and ****", aws.ToString(got.DBInstanceStatus), aws.ToString(got.PendingModifiedValues.MasterUserPassword))
	}
	e.Clock.Advance(2 * time.Second)
	if got := describeInstance(t, c, "billing"); got.PendingModifiedValues.MasterUserPassword != nil || aws.ToString(got.DBInstanceStatus) != "available" {
		t.Errorf("after the reset: status %s, pending password %v", aws.ToString(got.DBInstanceStatus), got.PendingModifiedValues.MasterUserPassword)
	}

	// The port and the parameter group change at once, with a modifying step.
	if _, err := c.CreateDBParameterGroup(ctx, &rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String("tuned16"),
		DBParameterGroupFamily: aws.String("postgres16"), Description: aws.String("tuned")}); err != nil {
		t.Fatal(err)
	}
	got = modify(&rds.ModifyDBInstanceInput{DBPortNumber: aws.Int32(6432), DBParameterGroupName: aws.String("tuned16")})
	if aws.ToString(got.DBInstanceStatus) != "modifying" || aws.ToInt32(got.Endpoint.Port) != 6432 || aws.ToString(got.DBParameterGroups[0].DBParameterGroupName) != "tuned16" {
		t.Errorf("port and parameter group: status %s, port %d, group %s", aws.ToString(got.DBInstanceStatus), aws.ToInt32(got.Endpoint.Port), aws.ToString(got.DBParameterGroups[0].DBParameterGroupName))
	}
	e.Clock.Advance(2 * time.Second)
	if s := aws.ToString(describeInstance(t, c, "billing").DBParameterGroups[0].ParameterApplyStatus); s != "pending-reboot" {
		t.Errorf("a new parameter group is %s, want pending-reboot", s)
	}

	cases := map[string]struct {
		reason string
		args   rds.ModifyDBInstanceInput
		want   string
	}{
		"Unknown":         {"The instance must exist.", rds.ModifyDBInstanceInput{DBInstanceIdentifier: aws.String("nothing"), DeletionProtection: aws.Bool(false)}, "DBInstanceNotFound"},
		"ShrinkStorage":   {"Allocated storage cannot shrink.", rds.ModifyDBInstanceInput{AllocatedStorage: aws.Int32(20)}, "InvalidParameterValue"},
		"MajorNotAllowed": {"A major upgrade needs AllowMajorVersionUpgrade.", rds.ModifyDBInstanceInput{EngineVersion: aws.String("17.6")}, "InvalidParameterCombination"},
		"CustomParams":    {"A major upgrade from a custom parameter group names the new one.", rds.ModifyDBInstanceInput{EngineVersion: aws.String("17"), AllowMajorVersionUpgrade: aws.Bool(true)}, "InvalidParameterCombination"},
		"Downgrade":       {"Engine versions only go up.", rds.ModifyDBInstanceInput{EngineVersion: aws.String("16.1")}, "InvalidParameterCombination"},
		"BadPassword":     {"Passwords exclude /.", rds.ModifyDBInstanceInput{MasterUserPassword: aws.String("slash/slash")}, "InvalidParameterValue"},
		"OtherFamily":     {"The parameter group matches the engine version.", rds.ModifyDBInstanceInput{DBParameterGroupName: aws.String("default.postgres17")}, "InvalidParameterCombination"},
		"UnknownGroup":    {"The parameter group must exist.", rds.ModifyDBInstanceInput{DBParameterGroupName: aws.String("nothing")}, "DBParameterGroupNotFound"},
		"Rename":          {"Renaming is not emulated, and says so.", rds.ModifyDBInstanceInput{NewDBInstanceIdentifier: aws.String("invoices")}, "InvalidParameterValue"},
		"UnknownCA":       {"The CA must be one RDS offers.", rds.ModifyDBInstanceInput{CACertificateIdentifier: aws.String("rds-ca-1999")}, "CertificateNotFound"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.args.DBInstanceIdentifier == nil {
				tc.args.DBInstanceIdentifier = aws.String("billing")
			}
			_, err := c.ModifyDBInstance(ctx, &tc.args)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}

	// A major upgrade with ApplyImmediately: upgrading, then on the new default groups.
	got = modify(&rds.ModifyDBInstanceInput{EngineVersion: aws.String("17"), AllowMajorVersionUpgrade: aws.Bool(true),
		DBParameterGroupName: aws.String("default.postgres17"), ApplyImmediately: aws.Bool(true)})
	if aws.ToString(got.DBInstanceStatus) != "upgrading" || aws.ToString(got.PendingModifiedValues.EngineVersion) != "17.6" {
		t.Errorf("a major upgrade: status %s, pending version %s; want upgrading to 17.6", aws.ToString(got.DBInstanceStatus), aws.ToString(got.PendingModifiedValues.EngineVersion))
	}
	e.Clock.Advance(2 * time.Second)
	view := instanceView(describeInstance(t, c, "billing"))
	upgraded := map[string]any{"version": view["version"], "paramGroups": view["paramGroups"], "optionGroups": view["optionGroups"]}
	if diff := cmp.Diff(map[string]any{"version": "17.6", "paramGroups": []string{"default.postgres17 in-sync"},
		"optionGroups": []string{"default:postgres-17 in-sync"}}, upgraded); diff != "" {
		t.Errorf("after the upgrade\n-want +got:\n%s", diff)
	}

	// Turning backups off waits for the window.
	got = modify(&rds.ModifyDBInstanceInput{BackupRetentionPeriod: aws.Int32(0)})
	if aws.ToInt32(got.BackupRetentionPeriod) != 7 || aws.ToInt32(got.PendingModifiedValues.BackupRetentionPeriod) != 0 || got.PendingModifiedValues.BackupRetentionPeriod == nil {
		t.Errorf("disabling backups: retention %d, pending %v; want 7 with 0 pending", aws.ToInt32(got.BackupRetentionPeriod), got.PendingModifiedValues.BackupRetentionPeriod)
	}
}

// TestRDSDeleteDBInstance covers deletion protection, final snapshots and their lifecycle.
func TestRDSDeleteDBInstance(t *testing.T) {
	e, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	for _, id := range []string{"ledger", "archive"} {
		in := postgres(id)
		in.DeletionProtection, in.CopyTagsToSnapshot = aws.Bool(id == "ledger"), aws.Bool(true)
		in.Tags = []types.Tag{{Key: aws.String("owner"), Value: aws.String(id)}}
		if _, err := c.CreateDBInstance(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	_, err := c.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("archive"), FinalDBSnapshotIdentifier: aws.String("archive-final")})
	if errorCode(err) != "InvalidDBInstanceState" {
		t.Errorf("a final snapshot of a creating instance gave %v, want InvalidDBInstanceState", err)
	}
	e.Clock.Advance(4 * time.Second)
	cases := map[string]struct {
		reason string
		args   rds.DeleteDBInstanceInput
		want   string
	}{
		"Protected": {"Deletion protection refuses deletion.", rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("ledger"), SkipFinalSnapshot: aws.Bool(true)},
			"InvalidParameterCombination: Cannot delete protected DB Instance, please disable deletion protection and try again."},
		"NoFinalSnapshot": {"Without SkipFinalSnapshot a final snapshot is named.", rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("archive")},
			"InvalidParameterCombination: FinalDBSnapshotIdentifier is required unless SkipFinalSnapshot is specified."},
		"SkipAndName": {"SkipFinalSnapshot and a snapshot name contradict each other.", rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("archive"),
			SkipFinalSnapshot: aws.Bool(true), FinalDBSnapshotIdentifier: aws.String("x")}, "InvalidParameterCombination: FinalDBSnapshotIdentifier can't be specified when SkipFinalSnapshot is enabled."},
		"Unknown": {"The instance must exist.", rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("nothing"), SkipFinalSnapshot: aws.Bool(true)},
			"DBInstanceNotFound: DBInstance nothing not found."},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.DeleteDBInstance(ctx, &tc.args)
			var apiErr interface{ ErrorMessage() string }
			got := errorCode(err)
			if errors.As(err, &apiErr) {
				got += ": " + apiErr.ErrorMessage()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}

	if _, err := c.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("archive"), FinalDBSnapshotIdentifier: aws.String("Archive-Final")}); err != nil {
		t.Fatal(err)
	}
	snap, err := c.DescribeDBSnapshots(ctx, &rds.DescribeDBSnapshotsInput{DBSnapshotIdentifier: aws.String("archive-final")})
	if err != nil || len(snap.DBSnapshots) != 1 {
		t.Fatalf("the final snapshot: %v, %v", snap, err)
	}
	s := snap.DBSnapshots[0]
	got := map[string]any{"status": aws.ToString(s.Status), "instance": aws.ToString(s.DBInstanceIdentifier), "type": aws.ToString(s.SnapshotType),
		"engine": aws.ToString(s.Engine), "storage": aws.ToInt32(s.AllocatedStorage), "arn": aws.ToString(s.DBSnapshotArn), "tags": len(s.TagList)}
	want := map[string]any{"status": "creating", "instance": "archive", "type": "manual", "engine": "postgres", "storage": int32(20),
		"arn": "arn:aws:rds:us-east-1:000000000000:snapshot:archive-final", "tags": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("final snapshot\n-want +got:\n%s", diff)
	}
	if _, err := c.DeleteDBSnapshot(ctx, &rds.DeleteDBSnapshotInput{DBSnapshotIdentifier: aws.String("archive-final")}); errorCode(err) != "InvalidDBSnapshotState" {
		t.Errorf("deleting a creating snapshot gave %v, want InvalidDBSnapshotState", err)
	}

	// Another instance cannot take a final snapshot under a name in use.
	if _, err := c.ModifyDBInstance(ctx, &rds.ModifyDBInstanceInput{DBInstanceIdentifier: aws.String("ledger"), DeletionProtection: aws.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	_, err = c.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("ledger"), FinalDBSnapshotIdentifier: aws.String("archive-final")})
	var taken *types.DBSnapshotAlreadyExistsFault
	if !errors.As(err, &taken) {
		t.Errorf("reusing a snapshot name gave %v, want DBSnapshotAlreadyExistsFault", err)
	}

	e.Clock.Advance(2 * time.Second)
	byInstance, err := c.DescribeDBSnapshots(ctx, &rds.DescribeDBSnapshotsInput{DBInstanceIdentifier: aws.String("ARCHIVE")})
	if err != nil || len(byInstance.DBSnapshots) != 1 || aws.ToString(byInstance.DBSnapshots[0].Status) != "available" {
		t.Errorf("snapshots of the deleted instance: %v, %v; want the final one, available", byInstance, err)
	}
	if _, err := c.DescribeDBInstances(ctx, &rds.DescribeDBInstancesInput{DBInstanceIdentifier: aws.String("archive")}); errorCode(err) != "DBInstanceNotFound" {
		t.Errorf("the deleted instance is still described: %v", err)
	}
	deleted, err := c.DeleteDBSnapshot(ctx, &rds.DeleteDBSnapshotInput{DBSnapshotIdentifier: aws.String("archive-final")})
	if err != nil || aws.ToString(deleted.DBSnapshot.Status) != "deleted" {
		t.Errorf("DeleteDBSnapshot gave %v, %v; want the snapshot deleted", deleted, err)
	}
	_, err = c.DescribeDBSnapshots(ctx, &rds.DescribeDBSnapshotsInput{DBSnapshotIdentifier: aws.String("archive-final")})
	var gone *types.DBSnapshotNotFoundFault
	if !errors.As(err, &gone) {
		t.Errorf("describing a deleted snapshot gave %v, want DBSnapshotNotFoundFault", err)
	}
}

// TestRDSTags tags instances and groups by ARN.
func TestRDSTags(t *testing.T) {
	_, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	created, err := c.CreateDBInstance(ctx, postgres("catalog"))
	if err != nil {
		t.Fatal(err)
	}
	group, err := c.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{DBSubnetGroupName: aws.String("private"), DBSubnetGroupDescription: aws.String("private"),
		SubnetIds: []string{"subnet-0123456789abcdef0", "subnet-89abcdef"}})
	if err != nil {
		t.Fatal(err)
	}
	list := func(arn *string) map[string]string {
		t.Helper()
		out, err := c.ListTagsForResource(ctx, &rds.ListTagsForResourceInput{ResourceName: arn})
		if err != nil {
			t.Fatal(err)
		}
		tags := map[string]string{}
		for _, tag := range out.TagList {
			tags[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
		}
		return tags
	}
	for _, arn := range []*string{created.DBInstance.DBInstanceArn, group.DBSubnetGroup.DBSubnetGroupArn} {
		if _, err := c.AddTagsToResource(ctx, &rds.AddTagsToResourceInput{ResourceName: arn, Tags: []types.Tag{
			{Key: aws.String("env"), Value: aws.String("prod")}, {Key: aws.String("team"), Value: aws.String("core")}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.RemoveTagsFromResource(ctx, &rds.RemoveTagsFromResourceInput{ResourceName: arn, TagKeys: []string{"team"}}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]string{"env": "prod"}, list(arn)); diff != "" {
			t.Errorf("tags of %s\n-want +got:\n%s", aws.ToString(arn), diff)
		}
	}
	if got := describeInstance(t, c, "catalog").TagList; len(got) != 1 || aws.ToString(got[0].Key) != "env" {
		t.Errorf("DescribeDBInstances TagList %v, want env", got)
	}
	cases := map[string]struct {
		arn  string
		want string
	}{
		"UnknownInstance": {"arn:aws:rds:us-east-1:000000000000:db:nothing", "DBInstanceNotFound"},
		"OtherRegion":     {"arn:aws:rds:eu-west-1:000000000000:db:catalog", "DBInstanceNotFound"},
		"UnknownSnapshot": {"arn:aws:rds:us-east-1:000000000000:snapshot:nothing", "DBSnapshotNotFound"},
		"NotAnARN":        {"catalog", "InvalidParameterValue"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.ListTagsForResource(ctx, &rds.ListTagsForResourceInput{ResourceName: aws.String(tc.arn)})
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// TestRDSGroups covers DB subnet groups, DB parameter groups and option groups, alone and in use.
func TestRDSGroups(t *testing.T) {
	e, c := rdsClient(t, emulator.Options{})
	ctx := context.Background()
	subnets := map[string]struct {
		name    string
		subnets []string
		want    string
	}{
		"Valid":      {"Private", []string{"subnet-0123456789abcdef0", "subnet-89abcdef", "subnet-89abcdef"}, ""},
		"OneZone":    {"single", []string{"subnet-89abcdef"}, "DBSubnetGroupDoesNotCoverEnoughAZs"},
		"BadSubnet":  {"bad", []string{"subnet-1", "subnet-89abcdef"}, "InvalidSubnet"},
		"Default":    {"default", []string{"subnet-0123456789abcdef0", "subnet-89abcdef"}, "InvalidParameterValue"},
		"BadName":    {"1st", []string{"subnet-0123456789abcdef0", "subnet-89abcdef"}, "InvalidParameterValue"},
		"Duplicate":  {"PRIVATE", []string{"subnet-0123456789abcdef0", "subnet-89abcdef"}, "DBSubnetGroupAlreadyExists"},
		"SecondName": {"internal", []string{"subnet-0123456789abcdef0", "subnet-89abcdef"}, ""},
	}
	for _, name := range []string{"Valid", "OneZone", "BadSubnet", "Default", "BadName", "Duplicate", "SecondName"} {
		tc := subnets[name]
		t.Run("SubnetGroup"+name, func(t *testing.T) {
			_, err := c.CreateDBSubnetGroup(ctx, &rds.CreateDBSubnetGroupInput{DBSubnetGroupName: aws.String(tc.name),
				DBSubnetGroupDescription: aws.String("test"), SubnetIds: tc.subnets})
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
	sg, err := c.DescribeDBSubnetGroups(ctx, &rds.DescribeDBSubnetGroupsInput{DBSubnetGroupName: aws.String("private")})
	if err != nil {
		t.Fatal(err)
	}
	var zones []string
	for _, s := range sg.DBSubnetGroups[0].Subnets {
		zones = append(zones, aws.ToString(s.SubnetIdentifier)+"@"+aws.ToString(s.SubnetAvailabilityZone.Name))
	}
	if diff := cmp.Diff([]string{"subnet-0123456789abcdef0@us-east-1a", "subnet-89abcdef@us-east-1b"}, zones); diff != "" {
		t.Errorf("subnets (duplicates dropped, one zone each)\n-want +got:\n%s", diff)
	}
	if _, err := c.DescribeDBSubnetGroups(ctx, &rds.DescribeDBSubnetGroupsInput{DBSubnetGroupName: aws.String("nothing")}); errorCode(err) != "DBSubnetGroupNotFoundFault" {
		t.Errorf("an unknown subnet group gave %v", err)
	}

	if _, err := c.CreateDBParameterGroup(ctx, &rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String("Tuned"),
		DBParameterGroupFamily: aws.String("postgres17"), Description: aws.String("tuned")}); err != nil {
		t.Fatal(err)
	}
	params := map[string]struct {
		args rds.CreateDBParameterGroupInput
		want string
	}{
		"Duplicate": {rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String("tuned"), DBParameterGroupFamily: aws.String("postgres17"), Description: aws.String("x")}, "DBParameterGroupAlreadyExists"},
		"Family":    {rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String("old"), DBParameterGroupFamily: aws.String("postgres8"), Description: aws.String("x")}, "InvalidParameterValue"},
		"Name":      {rds.CreateDBParameterGroupInput{DBParameterGroupName: aws.String("a--b"), DBParameterGroupFamily: aws.String("mysql8.0"), Description: aws.String("x")}, "InvalidParameterValue"},
	}
	for name, tc := range params {
		t.Run("ParameterGroup"+name, func(t *testing.T) {
			_, err := c.CreateDBParameterGroup(ctx, &tc.args)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
	defaults, err := c.DescribeDBParameterGroups(ctx, &rds.DescribeDBParameterGroupsInput{DBParameterGroupName: aws.String("default.mysql8.0")})
	if err != nil || aws.ToString(defaults.DBParameterGroups[0].DBParameterGroupFamily) != "mysql8.0" {
		t.Errorf("a default parameter group exists implicitly: %v, %v", defaults, err)
	}
	if _, err := c.DescribeDBParameterGroups(ctx, &rds.DescribeDBParameterGroupsInput{DBParameterGroupName: aws.String("nothing")}); errorCode(err) != "DBParameterGroupNotFound" {
		t.Errorf("an unknown parameter group gave %v", err)
	}

	if _, err := c.CreateOptionGroup(ctx, &rds.CreateOptionGroupInput{OptionGroupName: aws.String("audit"), EngineName: aws.String("postgres"),
		MajorEngineVersion: aws.String("17"), OptionGroupDescription: aws.String("audit")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateOptionGroup(ctx, &rds.CreateOptionGroupInput{OptionGroupName: aws.String("audit"), EngineName: aws.String("postgres"),
		MajorEngineVersion: aws.String("17"), OptionGroupDescription: aws.String("audit")}); errorCode(err) != "OptionGroupAlreadyExistsFault" {
		t.Errorf("a second option group named audit gave %v", err)
	}

	// An instance in the groups.
	in := postgres("warehouse")
	in.DBSubnetGroupName, in.DBParameterGroupName, in.OptionGroupName = aws.String("private"), aws.String("tuned"), aws.String("audit")
	created, err := c.CreateDBInstance(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	d := created.DBInstance
	if aws.ToString(d.DBSubnetGroup.DBSubnetGroupName) != "private" || aws.ToBool(d.PubliclyAccessible) ||
		aws.ToString(d.DBParameterGroups[0].DBParameterGroupName) != "tuned" || aws.ToString(d.OptionGroupMemberships[0].OptionGroupName) != "audit" {
		t.Errorf("instance groups: subnet %s (public %v), parameters %s, options %s", aws.ToString(d.DBSubnetGroup.DBSubnetGroupName),
			aws.ToBool(d.PubliclyAccessible), aws.ToString(d.DBParameterGroups[0].DBParameterGroupName), aws.ToString(d.OptionGroupMemberships[0].OptionGroupName))
	}
	options, err := c.DescribeOptionGroups(ctx, &rds.DescribeOptionGroupsInput{EngineName: aws.String("postgres"), MajorEngineVersion: aws.String("17")})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range options.OptionGroupsList {
		names = append(names, aws.ToString(g.OptionGroupName))
	}
	if diff := cmp.Diff([]string{"audit"}, names); diff != "" {
		t.Errorf("option groups of postgres 17\n-want +got:\n%s", diff)
	}

	inUse := map[string]struct {
		del  func() error
		want string
	}{
		"SubnetGroup": {func() error {
			_, err := c.DeleteDBSubnetGroup(ctx, &rds.DeleteDBSubnetGroupInput{DBSubnetGroupName: aws.String("private")})
			return err
		}, "InvalidDBSubnetGroupStateFault"},
		"ParameterGroup": {func() error {
			_, err := c.DeleteDBParameterGroup(ctx, &rds.DeleteDBParameterGroupInput{DBParameterGroupName: aws.String("tuned")})
			return err
		}, "InvalidDBParameterGroupState"},
		"DefaultParameterGroup": {func() error {
			_, err := c.DeleteDBParameterGroup(ctx, &rds.DeleteDBParameterGroupInput{DBParameterGroupName: aws.String("default.mysql8.0")})
			return err
		}, "InvalidDBParameterGroupState"},
		"OptionGroup": {func() error {
			_, err := c.DeleteOptionGroup(ctx, &rds.DeleteOptionGroupInput{OptionGroupName: aws.String("audit")})
			return err
		}, "InvalidOptionGroupStateFault"},
		"UnknownOptionGroup": {func() error {
			_, err := c.DeleteOptionGroup(ctx, &rds.DeleteOptionGroupInput{OptionGroupName: aws.String("nothing")})
			return err
		}, "OptionGroupNotFoundFault"},
	}
	for name, tc := range inUse {
		t.Run("Delete"+name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errorCode(tc.del())); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}

	// Once the instance is gone, the groups can go.
	if _, err := c.DeleteDBInstance(ctx, &rds.DeleteDBInstanceInput{DBInstanceIdentifier: aws.String("warehouse"), SkipFinalSnapshot: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Second)
	if _, err := c.DeleteDBSubnetGroup(ctx, &rds.DeleteDBSubnetGroupInput{DBSubnetGroupName: aws.String("private")}); err != nil {
		t.Error(err)
	}
	if _, err := c.DeleteDBParameterGroup(ctx, &rds.DeleteDBParameterGroupInput{DBParameterGroupName: aws.String("tuned")}); err != nil {
		t.Error(err)
	}
	if _, err := c.DeleteOptionGroup(ctx, &rds.DeleteOptionGroupInput{OptionGroupName: aws.String("audit")}); err != nil {
		t.Error(err)
	}
	left, err := c.DescribeDBSubnetGroups(ctx, &rds.DescribeDBSubnetGroupsInput{})
	if err != nil || len(left.DBSubnetGroups) != 1 || aws.ToString(left.DBSubnetGroups[0].DBSubnetGroupName) != "internal" {
		t.Errorf("subnet groups left: %v, %v; want internal", left, err)
	}
	groups, err := c.DescribeDBParameterGroups(ctx, &rds.DescribeDBParameterGroupsInput{})
	if err != nil {
		t.Fatal(err)
	}
	var left2 []string
	for _, g := range groups.DBParameterGroups {
		left2 = append(left2, aws.ToString(g.DBParameterGroupName))
	}
	if diff := cmp.Diff([]string{"default.mysql8.0"}, left2); diff != "" {
		t.Errorf("parameter groups left (the defaults named so far)\n-want +got:\n%s", diff)
	}
}
