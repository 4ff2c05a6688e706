package data_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
