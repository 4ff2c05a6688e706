package differential

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// tables is one side's DynamoDB client and how it lets tables finish a transition.
type tables struct {
	db     *dynamodb.Client
	settle func()
}

// tableSteps is the DynamoDB table sequence both sides run.
func tableSteps() []step[*tables] {
	ctx := context.Background()
	name := aws.String("diff-users")
	describe := func(c *tables) outcome {
		out, err := c.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: name})
		if err != nil {
			return observe(err, nil)
		}
		d := out.Table
		fields := map[string]string{"status": string(d.TableStatus), "keys": fmt.Sprint(len(d.KeySchema)), "billing": "absent"}
		if d.BillingModeSummary != nil {
			fields["billing"] = string(d.BillingModeSummary.BillingMode)
		}
		if d.ProvisionedThroughput != nil {
			fields["read"] = fmt.Sprint(aws.ToInt64(d.ProvisionedThroughput.ReadCapacityUnits))
		}
		return observe(nil, fields)
	}
	return []step[*tables]{
		{"CreateTable", func(c *tables) outcome {
			out, err := c.db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: name, BillingMode: types.BillingModeProvisioned,
				KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("userID"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("ts"), KeyType: types.KeyTypeRange}},
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("userID"), AttributeType: types.ScalarAttributeTypeS},
					{AttributeName: aws.String("ts"), AttributeType: types.ScalarAttributeTypeN}},
				ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": string(out.TableDescription.TableStatus)})
		}},
		{"CreateTableAgain", func(c *tables) outcome {
			_, err := c.db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: name, BillingMode: types.BillingModePayPerRequest,
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("userID"), KeyType: types.KeyTypeHash}},
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("userID"), AttributeType: types.ScalarAttributeTypeS}}})
			return observe(err, nil)
		}},
		{"CreateWithoutThroughput", func(c *tables) outcome {
			_, err := c.db.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("diff-bad"), BillingMode: types.BillingModeProvisioned,
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}}})
			return observe(err, nil)
		}},
		{"DescribeActive", func(c *tables) outcome {
			c.settle()
			return describe(c)
		}},
		{"DescribeMissing", func(c *tables) outcome {
			_, err := c.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("diff-missing")})
			return observe(err, nil)
		}},
		{"UpdateThroughput", func(c *tables) outcome {
			out, err := c.db.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: name,
				ProvisionedThroughput: &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(10), WriteCapacityUnits: aws.Int64(5)}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": string(out.TableDescription.TableStatus)})
		}},
		{"DescribeUpdated", func(c *tables) outcome {
			c.settle()
			return describe(c)
		}},
		{"EnableTTL", func(c *tables) outcome {
			_, err := c.db.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: name,
				TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(true), AttributeName: aws.String("expiresAt")}})
			return observe(err, nil)
		}},
		{"DeleteTable", func(c *tables) outcome {
			out, err := c.db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: name})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"status": string(out.TableDescription.TableStatus)})
		}},
		{"DescribeDeleted", func(c *tables) outcome {
			c.settle()
			_, err := c.db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: name})
			return observe(err, nil)
		}},
	}
}

// TestTablesAgainstDynalite compares DynamoDB table management with dynalite.
func TestTablesAgainstDynalite(t *testing.T) {
	bin := peerBinary(t, "node_modules/.bin/dynalite")
	port := freePort(t)
	const transition = 200 * time.Millisecond
	peerURL := startPeer(t, port, nil, bin, "--host", "127.0.0.1", "--port", fmt.Sprint(port),
		"--createTableMs", "200", "--updateTableMs", "200", "--deleteTableMs", "200")
	e := emulator.New(emulator.Options{})
	emu := httptest.NewServer(e)
	t.Cleanup(emu.Close)
	compare(t,
		&tables{db: dynamodb.NewFromConfig(sdkConfig(t, emu.URL)), settle: func() { e.Clock.Advance(3 * time.Second) }},
		&tables{db: dynamodb.NewFromConfig(sdkConfig(t, peerURL)), settle: func() { time.Sleep(3 * transition) }},
		"dynalite "+dynaliteVersion, tableSteps(), map[string]string{
			"EnableTTL": "dynalite lacks UpdateTimeToLive; AWS supports it",
		})
}
