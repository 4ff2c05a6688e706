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

// Update applies what differs, with the fewest calls DynamoDB allows: tags, time to live and
// point-in-time recovery with their own calls, then at most one UpdateTable. A table being
// updated accepts no other UpdateTable, so table settings go first and index changes follow
// one per reconcile (the reconciler looks again once the table is ACTIVE).
func (d *driver) Update(ctx context.Context, t *v1alpha1.DynamoDBTable, obs managed.Observation[State]) error {
	st, s := obs.State, &t.Spec
	name := aws.ToString(st.Table.TableName)
	if err := d.updateTags(ctx, aws.ToString(st.Table.TableArn), managed.DesiredTags(t, d.defaultTags), st.Tags); err != nil {
		return err
	}
	if s.TimeToLive != nil && !sameTTL(s.TimeToLive, st.TimeToLive) {
		if _, err := d.api.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(name),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(s.TimeToLive.Enabled), AttributeName: ttlAttribute(s.TimeToLive, st.TimeToLive)}}); err != nil {
			return fmt.Errorf("update time to live of table %s: %w", name, err)
		}
	}
	if s.PointInTimeRecovery != nil && !samePITR(s.PointInTimeRecovery, st.PointInTimeRecovery) {
		if _, err := d.api.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String(name),
			PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(s.PointInTimeRecovery.Enabled)}}); err != nil {
			return fmt.Errorf("update point-in-time recovery of table %s: %w", name, err)
		}
	}
	in := tableUpdate(s, st.Table)
	if in == nil {
		return nil
	}
	in.TableName = aws.String(name)
	if _, err := d.api.UpdateTable(ctx, in); err != nil {
		return fmt.Errorf("update table %s: %w", name, err)
	}
	return nil
}

// ttlAttribute is the attribute named when turning expiry on or off: AWS wants the current
// attribute when turning it off.
func ttlAttribute(want *v1alpha1.DynamoDBTimeToLive, got *types.TimeToLiveDescription) *string {
	if !want.Enabled && got != nil && got.AttributeName != nil {
		return got.AttributeName
	}
	return aws.String(want.AttributeName)
}

// tableUpdate returns the one UpdateTable request to make next, or nil: the table's own
// settings first, else one index removal, else one index creation, else index capacities.
func tableUpdate(s *v1alpha1.DynamoDBTableSpec, table *types.TableDescription) *dynamodb.UpdateTableInput {
	in := &dynamodb.UpdateTableInput{}
	changed := false
	if billingMode(table) != types.BillingMode(s.BillingMode) ||
		(s.BillingMode == string(types.BillingModeProvisioned) && !sameThroughput(s.ReadCapacityUnits, s.WriteCapacityUnits, table.ProvisionedThroughput)) {
		in.BillingMode = types.BillingMode(s.BillingMode)
		in.ProvisionedThroughput = throughput(s.ReadCapacityUnits, s.WriteCapacityUnits)
		if in.BillingMode == types.BillingModeProvisioned && billingMode(table) != in.BillingMode {
			// Switching to PROVISIONED needs every index's capacity in the same call.
			in.GlobalSecondaryIndexUpdates = capacityOfExisting(s, table)
		}
		changed = true
	}
	if s.Stream != nil && !sameStream(s.Stream, table.StreamSpecification) {
		in.StreamSpecification = streamSpecification(s.Stream)
		changed = true
	}
	if s.ServerSideEncryption != nil && !sameSSE(s.ServerSideEncryption, table.SSEDescription) {
		in.SSESpecification = sseSpecification(s.ServerSideEncryption)
		changed = true
	}
	if s.TableClass != "" && tableClass(table) != types.TableClass(s.TableClass) {
		in.TableClass = types.TableClass(s.TableClass)
		changed = true
	}
	if s.DeletionProtection != nil && aws.ToBool(table.DeletionProtectionEnabled) != *s.DeletionProtection {
		in.DeletionProtectionEnabled = s.DeletionProtection
		changed = true
	}
	if changed {
		return in
	}
	p := planIndexes(s, table)
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
	default:
		return nil
	}
	return in
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

// updateTags adds, changes and removes tags so the table carries exactly desired.
func (d *driver) updateTags(ctx context.Context, arn string, desired, observed map[string]string) error {
	set, remove := managed.TagChanges(desired, observed)
	if len(set) > 0 {
		if _, err := d.api.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: awsTags(set)}); err != nil {
			return fmt.Errorf("tag table %s: %w", arn, err)
		}
	}
	if len(remove) > 0 {
		if _, err := d.api.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: remove}); err != nil {
			return fmt.Errorf("untag table %s: %w", arn, err)
		}
	}
	return nil
}
