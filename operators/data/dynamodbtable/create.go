package dynamodbtable

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the table with its indexes, stream, encryption, class, deletion protection
// and req.Tags in one call. Time to live and point-in-time recovery can only be set on an
// active table; the next reconcile applies them.
func (d *driver) Create(ctx context.Context, t *v1alpha1.DynamoDBTable, req managed.Request) error {
	s := &t.Spec
	in := &dynamodb.CreateTableInput{
		TableName:                 aws.String(s.TableName),
		AttributeDefinitions:      attributeDefinitions(keyAttributes(s)),
		KeySchema:                 keySchema(s.HashKey, s.RangeKey),
		BillingMode:               types.BillingMode(s.BillingMode),
		ProvisionedThroughput:     throughput(s.ReadCapacityUnits, s.WriteCapacityUnits),
		StreamSpecification:       streamSpecification(s.Stream),
		SSESpecification:          sseSpecification(s.ServerSideEncryption),
		DeletionProtectionEnabled: aws.Bool(aws.ToBool(s.DeletionProtection)),
		Tags:                      awsTags(req.Tags),
	}
	if s.Stream != nil && !s.Stream.Enabled {
		in.StreamSpecification = nil // A new table has no stream; saying so is an error.
	}
	if s.TableClass != "" {
		in.TableClass = types.TableClass(s.TableClass)
	}
	for _, g := range s.GlobalSecondaryIndexes {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, globalIndex(g))
	}
	for _, l := range s.LocalSecondaryIndexes {
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, localIndex(s.HashKey, l))
	}
	if _, err := d.api.CreateTable(ctx, in); err != nil {
		return fmt.Errorf("create table %s: %w", s.TableName, err)
	}
	managed.SetExternalName(t, s.TableName)
	return nil
}
