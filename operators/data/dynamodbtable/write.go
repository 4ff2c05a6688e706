package dynamodbtable

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
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
		SSESpecification:          sseSpecification(s.ServerSideEncryption),
		DeletionProtectionEnabled: aws.Bool(aws.ToBool(s.DeletionProtection)),
		TableClass:                types.TableClass(s.TableClass),
		Tags:                      awsTags(req.Tags),
	}
	if s.Stream != nil && s.Stream.Enabled { // A new table has no stream; saying it has none is an error.
		in.StreamSpecification = streamSpecification(s.Stream)
	}
	for _, g := range s.GlobalSecondaryIndexes {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, globalIndex(g))
	}
	for _, l := range s.LocalSecondaryIndexes {
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
			IndexName: aws.String(l.IndexName), KeySchema: keySchema(s.HashKey, &l.RangeKey), Projection: projection(l.Projection)})
	}
	if _, err := d.api.CreateTable(ctx, in); err != nil {
		return fmt.Errorf("create table %s: %w", s.TableName, err)
	}
	managed.SetExternalName(t, s.TableName)
	return nil
}

// Delete deletes the table. A table the spec protects is not deleted: the object waits with a
// terminal condition until deletionProtection is turned off (or the policy changes). Protection
// turned on outside the operator is turned off first only when the spec says
// deletionProtection: false; left unset, it protects the table.
func (d *driver) Delete(ctx context.Context, t *v1alpha1.DynamoDBTable, obs managed.Observation[State]) error {
	table := obs.State.Table
	name, protected := aws.ToString(table.TableName), aws.ToBool(table.DeletionProtectionEnabled)
	if table.TableStatus == types.TableStatusDeleting {
		return nil
	}
	if aws.ToBool(t.Spec.DeletionProtection) || protected && t.Spec.DeletionProtection == nil {
		return managed.Terminal(condition.ReasonDeletionProtected, "table %s has deletion protection: set spec.deletionProtection to false to delete the table, "+
			"or set deletionPolicy to Retain or Orphan to keep it", name)
	}
	if protected {
		if _, err := d.api.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(name), DeletionProtectionEnabled: aws.Bool(false)}); err != nil {
			return fmt.Errorf("turn off deletion protection of table %s: %w", name, err)
		}
	}
	if _, err := d.api.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)}); err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("delete table %s: %w", name, err)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.DynamoDBTable, obs managed.Observation[State]) error {
	arn := aws.ToString(obs.State.Table.TableArn)
	_, err := d.api.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove ownership tags of table %s", arn)
}
