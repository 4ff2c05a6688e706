package emulator_test

import (
	"context"
	"errors"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

func keys(hash, rng string) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash}}
	if rng != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(rng), KeyType: types.KeyTypeRange})
	}
	return ks
}

func defs(nameType ...string) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	for i := 0; i < len(nameType); i += 2 {
		out = append(out, types.AttributeDefinition{AttributeName: aws.String(nameType[i]), AttributeType: types.ScalarAttributeType(nameType[i+1])})
	}
	return out
}

func TestDynamoDBCreateTableValidation(t *testing.T) {
	_, url := start(t, emulator.Options{})
	c := dynamodb.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	cases := map[string]struct {
		reason string
		args   dynamodb.CreateTableInput
		want   string
	}{
		"PayPerRequest": {
			reason: "The seed's users table: hash and range keys, on-demand.",
			args: dynamodb.CreateTableInput{TableName: aws.String("production-users"), KeySchema: keys("userID", "timestamp"),
				AttributeDefinitions: defs("userID", "S", "timestamp", "N"), BillingMode: types.BillingModePayPerRequest},
		},
		"ProvisionedWithGSI": {
			reason: "The seed's products table: provisioned, with a global secondary index.",
			args: dynamodb.CreateTableInput{TableName: aws.String("production-products"), KeySchema: keys("productID", ""),
				AttributeDefinitions: defs("productID", "S", "category", "S", "price", "N"), BillingMode: types.BillingModeProvisioned,
				ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)},
				GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("CategoryIndex"), KeySchema: keys("category", "price"),
					Projection:            &types.Projection{ProjectionType: types.ProjectionTypeAll},
					ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}}}},
		},
		"Exists": {
			reason: "A second table with the same name is refused.",
			args: dynamodb.CreateTableInput{TableName: aws.String("production-users"), KeySchema: keys("userID", ""),
				AttributeDefinitions: defs("userID", "S"), BillingMode: types.BillingModePayPerRequest},
			want: "ResourceInUseException",
		},
		"ProvisionedNeedsCapacity": {
			reason: "PROVISIONED needs read and write capacity.",
			args: dynamodb.CreateTableInput{TableName: aws.String("t1"), KeySchema: keys("id", ""),
				AttributeDefinitions: defs("id", "S"), BillingMode: types.BillingModeProvisioned},
			want: "ValidationException",
		},
		"OnDemandRefusesCapacity": {
			reason: "PAY_PER_REQUEST refuses provisioned throughput.",
			args: dynamodb.CreateTableInput{TableName: aws.String("t2"), KeySchema: keys("id", ""), AttributeDefinitions: defs("id", "S"),
				BillingMode: types.BillingModePayPerRequest, ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}},
			want: "ValidationException",
		},
		"UnusedDefinition": {
			reason: "Attribute definitions must be exactly the key attributes.",
			args: dynamodb.CreateTableInput{TableName: aws.String("t3"), KeySchema: keys("id", ""),
				AttributeDefinitions: defs("id", "S", "extra", "S"), BillingMode: types.BillingModePayPerRequest},
			want: "ValidationException",
		},
		"LSIOtherHash": {
			reason: "A local index shares the table's hash key.",
			args: dynamodb.CreateTableInput{TableName: aws.String("t4"), KeySchema: keys("id", "ts"), AttributeDefinitions: defs("id", "S", "ts", "N", "other", "S"),
				BillingMode: types.BillingModePayPerRequest, LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("byOther"),
					KeySchema: keys("other", "ts"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}}},
			want: "ValidationException",
		},
		"BadName": {
			reason: "Table names are 3 to 255 of [a-zA-Z0-9_.-].",
			args: dynamodb.CreateTableInput{TableName: aws.String("x"), KeySchema: keys("id", ""),
				AttributeDefinitions: defs("id", "S"), BillingMode: types.BillingModePayPerRequest},
			want: "ValidationException",
		},
	}
	for _, name := range []string{"PayPerRequest", "ProvisionedWithGSI", "Exists", "ProvisionedNeedsCapacity", "OnDemandRefusesCapacity", "UnusedDefinition", "LSIOtherHash", "BadName"} {
		tc := cases[name]
		t.Run(name, func(t *testing.T) {
			_, err := c.CreateTable(ctx, &tc.args)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestDynamoDBTableLifecycle follows a table through CREATING, ACTIVE, UPDATING and DELETING on
// the emulator's clock, with TTL, point-in-time recovery, tags and deletion protection.
func TestDynamoDBTableLifecycle(t *testing.T) {
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	c := dynamodb.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	status := func() types.TableStatus {
		t.Helper()
		out, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
		if err != nil {
			t.Fatal(err)
		}
		return out.Table.TableStatus
	}
	created, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("orders"), KeySchema: keys("id", ""),
		AttributeDefinitions: defs("id", "S"), BillingMode: types.BillingModePayPerRequest, DeletionProtectionEnabled: aws.Bool(true),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewAndOldImages},
		SSESpecification:    &types.SSESpecification{Enabled: aws.Bool(true), SSEType: types.SSETypeKms, KMSMasterKeyId: aws.String("alias/aws/dynamodb")},
		Tags:                []types.Tag{{Key: aws.String("team"), Value: aws.String("data")}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := created.TableDescription; got.TableStatus != types.TableStatusCreating || aws.ToString(got.LatestStreamArn) == "" || got.SSEDescription == nil {
		t.Errorf("a new table is %s with stream %q and SSE %v; want CREATING with both", got.TableStatus, aws.ToString(got.LatestStreamArn), got.SSEDescription)
	}
	_, err = c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"), DeletionProtectionEnabled: aws.Bool(false)})
	var inUse *types.ResourceInUseException
	if !errors.As(err, &inUse) {
		t.Errorf("updating a CREATING table gave %v, want ResourceInUseException", err)
	}
	e.Clock.Advance(3 * time.Second)
	if s := status(); s != types.TableStatusActive {
		t.Fatalf("after the creation time the table is %s, want ACTIVE", s)
	}
	if _, err := c.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String("orders"),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("expiresAt")}}); err != nil {
		t.Fatal(err)
	}
	ttl, err := c.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("orders")})
	if err != nil || ttl.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusEnabled || aws.ToString(ttl.TimeToLiveDescription.AttributeName) != "expiresAt" {
		t.Errorf("TTL %+v, %v", ttl, err)
	}
	if _, err := c.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("orders"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}}); err != nil {
		t.Fatal(err)
	}
	pitr, err := c.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String("orders")})
	if err != nil || pitr.ContinuousBackupsDescription.PointInTimeRecoveryDescription.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusEnabled {
		t.Errorf("PITR %+v, %v", pitr, err)
	}
	arn := created.TableDescription.TableArn
	tags, err := c.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: arn})
	if err != nil || len(tags.Tags) != 1 {
		t.Errorf("tags %v, %v", tags, err)
	}
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("orders")}); errorCode(err) != "ValidationException" {
		t.Errorf("deleting a protected table gave %v, want ValidationException", err)
	}
	if _, err := c.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String("orders"), DeletionProtectionEnabled: aws.Bool(false)}); err != nil {
		t.Fatal(err)
	}
	if s := status(); s != types.TableStatusUpdating {
		t.Errorf("after UpdateTable the table is %s, want UPDATING", s)
	}
	e.Clock.Advance(3 * time.Second)
	if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("orders")}); err != nil {
		t.Fatal(err)
	}
	if s := status(); s != types.TableStatusDeleting {
		t.Errorf("after DeleteTable the table is %s, want DELETING", s)
	}
	e.Clock.Advance(3 * time.Second)
	_, err = c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("orders")})
	var missing *types.ResourceNotFoundException
	if !errors.As(err, &missing) {
		t.Errorf("a deleted table gave %v, want ResourceNotFoundException", err)
	}
}

// TestDynamoDBResponsesCarryCRC32 checks that every DynamoDB answer, success or error, carries
// the x-amz-crc32 of its body, which the SDK's client verifies.
func TestDynamoDBResponsesCarryCRC32(t *testing.T) {
	_, url := start(t, emulator.Options{})
	for op, body := range map[string]string{"ListTables": `{}`, "DescribeTable": `{"TableName":"missing"}`} {
		r, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20261122/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=abc")
		r.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if want := strconv.FormatUint(uint64(crc32.ChecksumIEEE(got)), 10); resp.Header.Get("X-Amz-Crc32") != want {
			t.Errorf("%s: x-amz-crc32 %q, want %s for %s", op, resp.Header.Get("X-Amz-Crc32"), want, got)
		}
	}
}
