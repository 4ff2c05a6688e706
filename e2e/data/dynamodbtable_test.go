package data_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// TestDynamoDBSeedExamples applies the seed's two DynamoDB examples verbatim and checks that
// they become Ready and that the tables in AWS match them; it logs the calls each took.
func TestDynamoDBSeedExamples(t *testing.T) {
	h := start(t)
	h.provider("default", "production-aws")
	ddb := dynamodb.NewFromConfig(h.aws)
	ctx := context.Background()

	for _, tc := range []struct {
		file, name, table string
		check             func(t *testing.T, d *types.TableDescription)
	}{
		{"dynamodbtable-basic.yaml", "users-table", "production-users", func(t *testing.T, d *types.TableDescription) {
			want := []types.KeySchemaElement{{AttributeName: aws.String("userID"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("timestamp"), KeyType: types.KeyTypeRange}}
			if diff := cmp.Diff(want, d.KeySchema, cmpSDK); diff != "" {
				t.Errorf("key schema (-want +got):\n%s", diff)
			}
			if d.BillingModeSummary == nil || d.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
				t.Errorf("billing mode: %+v", d.BillingModeSummary)
			}
		}},
		{"dynamodbtable-serverless.yaml", "data-table", "application-data", func(t *testing.T, d *types.TableDescription) {
			want := []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}}
			if diff := cmp.Diff(want, d.KeySchema, cmpSDK); diff != "" {
				t.Errorf("key schema (-want +got):\n%s", diff)
			}
		}},
		{"dynamodbtable-provisioned.yaml", "products-table", "production-products", func(t *testing.T, d *types.TableDescription) {
			if got := d.ProvisionedThroughput; aws.ToInt64(got.ReadCapacityUnits) != 5 || aws.ToInt64(got.WriteCapacityUnits) != 5 {
				t.Errorf("throughput: %+v", got)
			}
			if len(d.GlobalSecondaryIndexes) != 1 || aws.ToString(d.GlobalSecondaryIndexes[0].IndexName) != "CategoryIndex" ||
				d.GlobalSecondaryIndexes[0].Projection.ProjectionType != types.ProjectionTypeAll {
				t.Errorf("indexes: %+v", d.GlobalSecondaryIndexes)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.emu.Calls.Reset()
			began := time.Now()
			h.applySeed(tc.file, "default")
			tbl := waitReady(h, &v1alpha1.DynamoDBTable{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: tc.name}})
			elapsed := time.Since(began)
			createCalls := h.calls("DynamoDB")
			if tbl.Status.TableName != tc.table || tbl.Status.TableStatus != "ACTIVE" || tbl.Status.TableARN == "" {
				t.Errorf("status: %+v", tbl.Status)
			}
			out, err := ddb.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(tc.table)})
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, out.Table)
			tags, err := ddb.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: out.Table.TableArn})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, tag := range tags.Tags {
				got[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
			}
			if got[shared.TagOwnerUID] != string(tbl.UID) || got[shared.TagOwnerKind] != "DynamoDBTable" {
				t.Errorf("ownership tags missing: %v", got)
			}
			for k, v := range tbl.Spec.Tags {
				if got[k] != v {
					t.Errorf("tag %s = %q, want %q", k, got[k], v)
				}
			}
			h.emu.Calls.Reset()
			h.resync(tbl)
			waitFor(h, tbl, 10*time.Second, "a resync", func(o *v1alpha1.DynamoDBTable) bool { return total(h.calls("DynamoDB")) > 0 && o.Status.Ready })
			time.Sleep(300 * time.Millisecond)
			steady := h.calls("DynamoDB")
			t.Logf("figures: %s: %d DynamoDB calls to create (%v), Ready after %s; %d calls per steady-state sync (%v)",
				tc.name, total(createCalls), createCalls, elapsed.Round(10*time.Millisecond), total(steady), steady)
			if total(steady) > 2 {
				t.Errorf("a steady-state sync made %d calls (%v); want DescribeTable and ListTagsOfResource only", total(steady), steady)
			}
		})
	}
}

// newTable returns a DynamoDBTable in ns with a string partition key.
func newTable(ns, name, table string, mutate ...func(*v1alpha1.DynamoDBTable)) *v1alpha1.DynamoDBTable {
	t := &v1alpha1.DynamoDBTable{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	t.Spec.ProviderRef.Name = "aws"
	t.Spec.TableName = table
	t.Spec.HashKey = v1alpha1.DynamoDBAttribute{Name: "id", Type: "S"}
	t.Spec.BillingMode = "PAY_PER_REQUEST"
	for _, m := range mutate {
		m(t)
	}
	return t
}

// describeTable reads a table and its tags through the SDK.
func describeTable(t *testing.T, ddb *dynamodb.Client, name string) (*types.TableDescription, map[string]string) {
	t.Helper()
	ctx := context.Background()
	out, err := ddb.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatalf("describe table %s: %v", name, err)
	}
	tags, err := ddb.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: out.Table.TableArn})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tag := range tags.Tags {
		got[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
	}
	return out.Table, got
}

// TestDynamoDBLifecycle updates a table in place, reverts drift, and deletes tables under
// each deletion policy, with deletion protection honoured.
func TestDynamoDBLifecycle(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(ns, "aws")
	ddb := dynamodb.NewFromConfig(h.aws)
	ctx := context.Background()

	tbl := newTable(ns, "orders", "orders")
	h.create(tbl)
	waitReady(h, tbl)

	t.Run("update", func(t *testing.T) {
		update(h, tbl, func(o *v1alpha1.DynamoDBTable) {
			o.Spec.Tags = map[string]string{"team": "payments"}
			o.Spec.TimeToLive = &v1alpha1.DynamoDBTimeToLive{Enabled: true, AttributeName: "expiresAt"}
			o.Spec.PointInTimeRecovery = &v1alpha1.DynamoDBToggle{Enabled: true}
			o.Spec.Stream = &v1alpha1.DynamoDBStream{Enabled: true, ViewType: "NEW_AND_OLD_IMAGES"}
			o.Spec.GlobalSecondaryIndexes = []v1alpha1.DynamoDBGlobalSecondaryIndex{
				{IndexName: "byCustomer", HashKey: v1alpha1.DynamoDBAttribute{Name: "customer", Type: "S"}},
				{IndexName: "byDate", HashKey: v1alpha1.DynamoDBAttribute{Name: "day", Type: "S"}, Projection: &v1alpha1.DynamoDBProjection{Type: "KEYS_ONLY"}},
			}
		})
		got := waitReady(h, tbl)
		d, tags := describeTable(t, ddb, "orders")
		if len(d.GlobalSecondaryIndexes) != 2 || tags["team"] != "payments" || d.StreamSpecification == nil || !aws.ToBool(d.StreamSpecification.StreamEnabled) {
			t.Errorf("not applied: indexes %d, tags %v, stream %+v", len(d.GlobalSecondaryIndexes), tags, d.StreamSpecification)
		}
		if got.Status.StreamARN == "" {
			t.Errorf("status.streamARN is empty")
		}
		ttl, err := ddb.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("orders")})
		if err != nil || aws.ToString(ttl.TimeToLiveDescription.AttributeName) != "expiresAt" {
			t.Errorf("time to live: %+v, %v", ttl, err)
		}
		pitr, err := ddb.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("orders")})
		if err != nil || pitr.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusEnabled {
			t.Errorf("point-in-time recovery: %+v, %v", pitr, err)
		}
		// Removing an index and switching to provisioned capacity.
		update(h, tbl, func(o *v1alpha1.DynamoDBTable) {
			o.Spec.GlobalSecondaryIndexes = o.Spec.GlobalSecondaryIndexes[:1]
			o.Spec.GlobalSecondaryIndexes[0].ReadCapacityUnits, o.Spec.GlobalSecondaryIndexes[0].WriteCapacityUnits = aws.Int64(3), aws.Int64(3)
			o.Spec.BillingMode = "PROVISIONED"
			o.Spec.ReadCapacityUnits, o.Spec.WriteCapacityUnits = aws.Int64(7), aws.Int64(4)
		})
		waitReady(h, tbl)
		d, _ = describeTable(t, ddb, "orders")
		if len(d.GlobalSecondaryIndexes) != 1 || billingModeOf(d) != types.BillingModeProvisioned || aws.ToInt64(d.ProvisionedThroughput.ReadCapacityUnits) != 7 {
			t.Errorf("not applied: indexes %d, billing %s, throughput %+v", len(d.GlobalSecondaryIndexes), billingModeOf(d), d.ProvisionedThroughput)
		}
	})

	t.Run("drift", func(t *testing.T) {
		d, _ := describeTable(t, ddb, "orders")
		if _, err := ddb.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: d.TableArn, Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("someone-else")}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := ddb.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"), DeletionProtectionEnabled: aws.Bool(true)}); err != nil {
			t.Fatal(err)
		}
		h.resync(tbl)
		h.waitEvent(tbl, "DriftDetected", "tags")
		waitFor(h, tbl, 20*time.Second, "drift reverted, and the deletion protection the spec leaves unset kept", func(*v1alpha1.DynamoDBTable) bool {
			d, tags := describeTable(t, ddb, "orders")
			return tags["team"] == "payments" && aws.ToBool(d.DeletionProtectionEnabled)
		})
	})

	t.Run("delete honours deletion protection", func(t *testing.T) {
		update(h, tbl, func(o *v1alpha1.DynamoDBTable) { o.Spec.DeletionProtection = aws.Bool(true) })
		waitReady(h, tbl)
		if err := h.env.Client.Delete(ctx, tbl); err != nil {
			t.Fatal(err)
		}
		waitCondition(h, tbl, "Synced", "False", "DeletionProtected")
		if _, err := ddb.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")}); err != nil {
			t.Fatalf("the protected table is gone: %v", err)
		}
		update(h, tbl, func(o *v1alpha1.DynamoDBTable) { o.Spec.DeletionProtection = aws.Bool(false) })
		h.waitGone(tbl)
		if _, err := ddb.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")}); err == nil {
			t.Errorf("the table still exists after delete")
		}
	})

	t.Run("retain and orphan", func(t *testing.T) {
		retained := newTable(ns, "kept", "kept", func(o *v1alpha1.DynamoDBTable) { o.Spec.DeletionPolicy = "Retain" })
		orphaned := newTable(ns, "orphan", "orphan", func(o *v1alpha1.DynamoDBTable) { o.Spec.DeletionPolicy = "Orphan" })
		h.create(retained)
		h.create(orphaned)
		waitReady(h, retained)
		waitReady(h, orphaned)
		h.delete(retained)
		h.delete(orphaned)
		_, tags := describeTable(t, ddb, "kept")
		if tags[shared.TagOwnerUID] != string(retained.UID) {
			t.Errorf("a retained table keeps its ownership tags; got %v", tags)
		}
		_, tags = describeTable(t, ddb, "orphan")
		if _, ok := tags[shared.TagOwnerUID]; ok {
			t.Errorf("an orphaned table loses its ownership tags; got %v", tags)
		}
	})

	t.Run("a table another object owns is refused", func(t *testing.T) {
		h.emu.Calls.Reset()
		thief := newTable(ns, "thief", "kept")
		h.create(thief)
		got := waitCondition(h, thief, "Synced", "False", "AlreadyExists")
		if c := h.calls("DynamoDB")["CreateTable"]; c != 0 {
			t.Errorf("%d CreateTable calls for a name that is taken", c)
		}
		t.Logf("condition: %s", meta.FindStatusCondition(got.Status.Conditions, "Synced").Message)
		h.delete(thief)
		if _, err := ddb.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("kept")}); err != nil {
			t.Errorf("deleting the refused object deleted the other's table: %v", err)
		}
	})
}

func billingModeOf(d *types.TableDescription) types.BillingMode {
	if d.BillingModeSummary == nil {
		return types.BillingModeProvisioned
	}
	return d.BillingModeSummary.BillingMode
}

// TestDynamoDBBadInput checks that invalid specs are refused at admission, and that what
// admission cannot see gets a terminal condition without any AWS call.
func TestDynamoDBBadInput(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(ns, "aws")
	for name, tc := range map[string]struct {
		table *v1alpha1.DynamoDBTable
		want  string
	}{
		"provisioned without capacity": {newTable(ns, "a", "aaa", func(o *v1alpha1.DynamoDBTable) { o.Spec.BillingMode = "PROVISIONED" }), "PROVISIONED needs readCapacityUnits"},
		"on demand with capacity":      {newTable(ns, "b", "bbb", func(o *v1alpha1.DynamoDBTable) { o.Spec.ReadCapacityUnits = aws.Int64(1) }), "PAY_PER_REQUEST takes no"},
		"short name":                   {newTable(ns, "c", "cc"), "spec.tableName"},
		"bad characters":               {newTable(ns, "d", "a table"), "spec.tableName"},
		"local index without sort key": {newTable(ns, "e", "eee", func(o *v1alpha1.DynamoDBTable) {
			o.Spec.LocalSecondaryIndexes = []v1alpha1.DynamoDBLocalSecondaryIndex{{IndexName: "lsi", RangeKey: v1alpha1.DynamoDBAttribute{Name: "x", Type: "S"}}}
		}), "need the table to have a rangeKey"},
		"stream without view type": {newTable(ns, "f", "fff", func(o *v1alpha1.DynamoDBTable) { o.Spec.Stream = &v1alpha1.DynamoDBStream{Enabled: true} }), "needs a viewType"},
	} {
		t.Run(name, func(t *testing.T) { h.mustRefuse(tc.table, tc.want) })
	}

	t.Run("immutable fields", func(t *testing.T) {
		tbl := newTable(ns, "imm", "immutable")
		h.create(tbl)
		waitReady(h, tbl)
		for field, mutate := range map[string]func(*v1alpha1.DynamoDBTable){
			"tableName cannot change": func(o *v1alpha1.DynamoDBTable) { o.Spec.TableName = "other" },
			"key schema":              func(o *v1alpha1.DynamoDBTable) { o.Spec.HashKey.Name = "other" },
			"localSecondaryIndexes can": func(o *v1alpha1.DynamoDBTable) {
				o.Spec.LocalSecondaryIndexes = []v1alpha1.DynamoDBLocalSecondaryIndex{{IndexName: "lsi", RangeKey: v1alpha1.DynamoDBAttribute{Name: "x", Type: "S"}}}
			},
		} {
			cur := &v1alpha1.DynamoDBTable{}
			if err := h.env.Client.Get(context.Background(), client.ObjectKeyFromObject(tbl), cur); err != nil {
				t.Fatal(err)
			}
			mutate(cur)
			err := h.env.Client.Update(context.Background(), cur)
			if err == nil || !strings.Contains(err.Error(), field) {
				t.Errorf("want the update refused with %q, got %v", field, err)
			}
		}
	})

	t.Run("conflicting key types are terminal without AWS calls", func(t *testing.T) {
		h.emu.Calls.Reset()
		tbl := newTable(ns, "conflict", "conflict", func(o *v1alpha1.DynamoDBTable) {
			o.Spec.GlobalSecondaryIndexes = []v1alpha1.DynamoDBGlobalSecondaryIndex{{IndexName: "gsi", HashKey: v1alpha1.DynamoDBAttribute{Name: "id", Type: "N"}}}
		})
		h.create(tbl)
		waitCondition(h, tbl, "Synced", "False", "InvalidSpec")
		if n := total(h.calls("DynamoDB")); n != 0 {
			t.Errorf("%d DynamoDB calls for an invalid spec", n)
		}
		if len(h.events(tbl, "InvalidSpec")) == 0 {
			t.Errorf("no InvalidSpec event")
		}
	})
}
