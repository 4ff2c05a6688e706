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

// Delete deletes the table. A table the spec protects is not deleted: the object waits with a
// terminal condition until deletionProtection is turned off (or the policy changes). Protection
// turned on outside the operator is turned off first only when the spec says
// deletionProtection: false; left unset, it protects the table.
func (d *driver) Delete(ctx context.Context, t *v1alpha1.DynamoDBTable, obs managed.Observation[State]) error {
	table := obs.State.Table
	name := aws.ToString(table.TableName)
	if table.TableStatus == types.TableStatusDeleting {
		return nil
	}
	if protected := aws.ToBool(table.DeletionProtectionEnabled); aws.ToBool(t.Spec.DeletionProtection) || protected && t.Spec.DeletionProtection == nil {
		return managed.Terminal(condition.ReasonDeletionProtected, "table %s has deletion protection: set spec.deletionProtection to false to delete the table, "+
			"or set deletionPolicy to Retain or Orphan to keep it", name)
	}
	if aws.ToBool(table.DeletionProtectionEnabled) {
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
