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

// plan adds to p what makes the table in st match the spec, with the fewest calls DynamoDB
// allows: tags, time to live and point-in-time recovery with their own calls, then at most
// one UpdateTable. A table being updated accepts no other UpdateTable, so table settings go
// first and index changes follow one per reconcile (the engine looks again once the table is
// ACTIVE).
func (d *driver) plan(p *managed.Plan, t *v1alpha1.DynamoDBTable, st *State, desiredTags map[string]string) {
	s, name, arn := &t.Spec, aws.ToString(st.Table.TableName), aws.ToString(st.Table.TableArn)
	p.AddTags(desiredTags, st.Tags, func(ctx context.Context, set map[string]string, remove []string) error {
		if len(set) > 0 {
			if _, err := d.api.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: awsTags(set)}); err != nil {
				return fmt.Errorf("tag table %s: %w", arn, err)
			}
		}
		if len(remove) == 0 {
			return nil
		}
		_, err := d.api.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: remove})
		return managed.Wrap(err, "untag table %s", arn)
	})
	if s.TimeToLive != nil && !sameTTL(s.TimeToLive, st.TimeToLive) {
		p.Add("timeToLive", func(ctx context.Context) error {
			_, err := d.api.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(name),
				TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(s.TimeToLive.Enabled), AttributeName: ttlAttribute(s.TimeToLive, st.TimeToLive)}})
			return managed.Wrap(err, "update time to live of table %s", name)
		})
	}
	if s.PointInTimeRecovery != nil && !samePITR(s.PointInTimeRecovery, st.PointInTimeRecovery) {
		p.Add("pointInTimeRecovery", func(ctx context.Context) error {
			_, err := d.api.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String(name),
				PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(s.PointInTimeRecovery.Enabled)}})
			return managed.Wrap(err, "update point-in-time recovery of table %s", name)
		})
	}
	in, fields := tableUpdate(s, st.Table)
	p.AddFields(fields, func(ctx context.Context) error {
		in.TableName = aws.String(name)
		_, err := d.api.UpdateTable(ctx, in)
		return managed.Wrap(err, "update table %s", name)
	})
}

// ttlAttribute is the attribute named when turning expiry on or off: AWS wants the current
// attribute when turning it off.
func ttlAttribute(want *v1alpha1.DynamoDBTimeToLive, got *types.TimeToLiveDescription) *string {
	if !want.Enabled && got != nil && got.AttributeName != nil {
		return got.AttributeName
	}
	return aws.String(want.AttributeName)
}

// tableUpdate returns the one UpdateTable request to make next and the fields of the spec
// the table does not match (none when it matches): the request changes the table's own
// settings first, else removes one index, else creates one index, else changes index
// capacities. The fields name indexes that differ even when the request leaves them for a
// later reconcile.
func tableUpdate(s *v1alpha1.DynamoDBTableSpec, table *types.TableDescription) (*dynamodb.UpdateTableInput, []string) {
	in := &dynamodb.UpdateTableInput{}
	var fields []string
	settings := false // whether the table's own settings differ
	differs := func(field string, differ bool) bool {
		if differ {
			fields, settings = append(fields, field), true
		}
		return differ
	}
	billing := differs("billingMode", billingMode(table) != types.BillingMode(s.BillingMode))
	capacity := differs("provisionedThroughput", s.BillingMode == string(types.BillingModeProvisioned) &&
		!sameThroughput(s.ReadCapacityUnits, s.WriteCapacityUnits, table.ProvisionedThroughput))
	if billing || capacity {
		in.BillingMode = types.BillingMode(s.BillingMode)
		in.ProvisionedThroughput = throughput(s.ReadCapacityUnits, s.WriteCapacityUnits)
		if in.BillingMode == types.BillingModeProvisioned && billingMode(table) != in.BillingMode {
			// Switching to PROVISIONED needs every index's capacity in the same call.
			in.GlobalSecondaryIndexUpdates = capacityOfExisting(s, table)
		}
	}
	p := planIndexes(s, table)
	if len(p.remove)+len(p.create)+len(p.capacity) > 0 {
		fields = append(fields, "globalSecondaryIndexes")
	}
	if differs("stream", s.Stream != nil && !sameStream(s.Stream, table.StreamSpecification)) {
		in.StreamSpecification = streamSpecification(s.Stream)
	}
	if differs("serverSideEncryption", s.ServerSideEncryption != nil && !sameSSE(s.ServerSideEncryption, table.SSEDescription)) {
		in.SSESpecification = sseSpecification(s.ServerSideEncryption)
	}
	if differs("tableClass", s.TableClass != "" && tableClass(table) != types.TableClass(s.TableClass)) {
		in.TableClass = types.TableClass(s.TableClass)
	}
	if differs("deletionProtection", s.DeletionProtection != nil && aws.ToBool(table.DeletionProtectionEnabled) != *s.DeletionProtection) {
		in.DeletionProtectionEnabled = s.DeletionProtection
	}
	if settings {
		return in, fields
	}
	switch {
	case len(p.remove) > 0:
		in.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String(p.remove[0])}}}
	case len(p.create) > 0:
		g := globalIndex(p.create[0])
		in.AttributeDefinitions = attributeDefinitions(keyAttributes(s))
		in.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection, ProvisionedThroughput: g.ProvisionedThroughput}}}
	case len(p.capacity) > 0:
		in.GlobalSecondaryIndexUpdates = p.capacity
	}
	return in, fields
}

// capacityOfExisting returns capacity updates for the spec's indexes the table already has.
func capacityOfExisting(s *v1alpha1.DynamoDBTableSpec, table *types.TableDescription) []types.GlobalSecondaryIndexUpdate {
	have := map[string]bool{}
	for _, g := range table.GlobalSecondaryIndexes {
		have[aws.ToString(g.IndexName)] = true
	}
	var out []types.GlobalSecondaryIndexUpdate
	for _, g := range s.GlobalSecondaryIndexes {
		if have[g.IndexName] {
			out = append(out, types.GlobalSecondaryIndexUpdate{Update: &types.UpdateGlobalSecondaryIndexAction{
				IndexName: aws.String(g.IndexName), ProvisionedThroughput: throughput(g.ReadCapacityUnits, g.WriteCapacityUnits)}})
		}
	}
	return out
}
