package dynamodbtable

import (
	"context"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// plan adds to p what makes the table in st and its observed tags match the spec, with the
// fewest calls DynamoDB allows: tags, time to live and point-in-time recovery with their own
// calls, then at most one UpdateTable. A table being updated accepts no other UpdateTable, so
// table settings go first and index changes follow one per reconcile (the engine looks again
// once the table is ACTIVE).
func (d *driver) plan(p *managed.Plan, t *v1alpha1.DynamoDBTable, st *State, desired, observed map[string]string) {
	s, name, arn := &t.Spec, aws.ToString(st.Table.TableName), aws.ToString(st.Table.TableArn)
	p.AddTags(desired, observed, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagResource(ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: awsTags(set)})
		return managed.Wrap(err, "tag table %s", arn)
	}, func(ctx context.Context, remove []string) error {
		_, err := d.api.UntagResource(ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: remove})
		return managed.Wrap(err, "untag table %s", arn)
	}))
	if s.TimeToLive != nil && !sameTTL(s.TimeToLive, st.TimeToLive) {
		p.AddValue("timeToLive", ttlOf(st.TimeToLive), *s.TimeToLive, func(ctx context.Context) error {
			_, err := d.api.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(name),
				TimeToLiveSpecification: &types.TimeToLiveSpecification{Enabled: aws.Bool(s.TimeToLive.Enabled), AttributeName: ttlAttribute(s.TimeToLive, st.TimeToLive)}})
			return managed.Wrap(err, "update time to live of table %s", name)
		})
	}
	if s.PointInTimeRecovery != nil && !samePITR(s.PointInTimeRecovery, st.PointInTimeRecovery) {
		on := st.PointInTimeRecovery != nil && st.PointInTimeRecovery.PointInTimeRecoveryStatus == types.PointInTimeRecoveryStatusEnabled
		p.AddValue("pointInTimeRecovery", v1alpha1.DynamoDBToggle{Enabled: on}, *s.PointInTimeRecovery, func(ctx context.Context) error {
			_, err := d.api.UpdateContinuousBackups(ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String(name),
				PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(s.PointInTimeRecovery.Enabled)}})
			return managed.Wrap(err, "update point-in-time recovery of table %s", name)
		})
	}
	in, fields, values := tableUpdate(s, st.Table, st.KeyARN)
	p.AddFieldValues(fields, values, func(ctx context.Context) error {
		in.TableName = aws.String(name)
		_, err := d.api.UpdateTable(ctx, in)
		return managed.Wrap(err, "update table %s", name)
	})
}

// ttlOf returns the table's time to live in the spec's form, as a plan shows it: the attribute
// only while expiry is on, as it is compared.
func ttlOf(got *types.TimeToLiveDescription) v1alpha1.DynamoDBTimeToLive {
	if got == nil || (got.TimeToLiveStatus != types.TimeToLiveStatusEnabled && got.TimeToLiveStatus != types.TimeToLiveStatusEnabling) {
		return v1alpha1.DynamoDBTimeToLive{}
	}
	return v1alpha1.DynamoDBTimeToLive{Enabled: true, AttributeName: aws.ToString(got.AttributeName)}
}

// ttlAttribute is the attribute named when turning expiry on or off: AWS wants the current
// attribute when turning it off.
func ttlAttribute(want *v1alpha1.DynamoDBTimeToLive, got *types.TimeToLiveDescription) *string {
	if !want.Enabled && got != nil && got.AttributeName != nil {
		return got.AttributeName
	}
	return aws.String(want.AttributeName)
}

// tableUpdate returns the one UpdateTable request to make next, the fields of the spec the
// table does not match (none when it matches) and the values the plan shows of the billing
// mode, capacity, table class and deletion protection (the indexes, stream and encryption are
// compared in parts, so theirs are not shown): the request changes the table's own
// settings first, else makes the next index change. The fields name indexes that differ even
// when the request leaves them for a later reconcile. aliasKey is the ARN of the key an alias
// of the spec's encryption points at.
func tableUpdate(s *v1alpha1.DynamoDBTableSpec, table *types.TableDescription, aliasKey string) (*dynamodb.UpdateTableInput, []string, map[string]managed.Values) {
	indexes, existing := indexUpdate(s, table)
	in := &dynamodb.UpdateTableInput{}
	var fields []string
	values := map[string]managed.Values{}
	// show records the values of a differing field.
	show := func(field string, differ bool, current, desired any) {
		if differ {
			values[field] = managed.ValuesOf(current, desired)
		}
	}
	settings := false // whether the table's own settings differ
	differs := func(field string, differ bool) bool {
		if differ {
			fields, settings = append(fields, field), true
		}
		return differ
	}
	billing := differs("billingMode", billingMode(table) != types.BillingMode(s.BillingMode))
	show("billingMode", billing, billingMode(table), types.BillingMode(s.BillingMode))
	capacity := differs("provisionedThroughput", s.BillingMode == string(types.BillingModeProvisioned) &&
		!sameThroughput(s.ReadCapacityUnits, s.WriteCapacityUnits, table.ProvisionedThroughput))
	if capacity {
		got := table.ProvisionedThroughput
		if got == nil {
			got = &types.ProvisionedThroughputDescription{}
		}
		show("provisionedThroughput", capacity, capacityShown(got.ReadCapacityUnits, got.WriteCapacityUnits), capacityShown(s.ReadCapacityUnits, s.WriteCapacityUnits))
	}
	if billing || capacity {
		in.BillingMode = types.BillingMode(s.BillingMode)
		in.ProvisionedThroughput = throughput(s.ReadCapacityUnits, s.WriteCapacityUnits)
		if in.BillingMode == types.BillingModeProvisioned && billingMode(table) != in.BillingMode {
			// Switching to PROVISIONED needs every index's capacity in the same call.
			in.GlobalSecondaryIndexUpdates = existing
		}
	}
	if indexes != nil {
		fields = append(fields, "globalSecondaryIndexes")
	}
	if differs("stream", s.Stream != nil && !sameStream(s.Stream, table.StreamSpecification)) {
		in.StreamSpecification = streamSpecification(s.Stream)
	}
	if differs("serverSideEncryption", s.ServerSideEncryption != nil && !sameSSE(s.ServerSideEncryption, aliasKey, table.SSEDescription)) {
		in.SSESpecification = sseSpecification(s.ServerSideEncryption)
	}
	if differs("tableClass", s.TableClass != "" && tableClass(table) != types.TableClass(s.TableClass)) {
		in.TableClass = types.TableClass(s.TableClass)
		show("tableClass", true, tableClass(table), types.TableClass(s.TableClass))
	}
	if differs("deletionProtection", s.DeletionProtection != nil && aws.ToBool(table.DeletionProtectionEnabled) != *s.DeletionProtection) {
		in.DeletionProtectionEnabled = s.DeletionProtection
		show("deletionProtection", true, aws.ToBool(table.DeletionProtectionEnabled), *s.DeletionProtection)
	}
	if settings || indexes == nil {
		return in, fields, values
	}
	return indexes, fields, values
}

// capacityShown returns a provisioned capacity as a plan shows it, in the spec's field names.
func capacityShown(read, write *int64) map[string]int64 {
	return map[string]int64{"readCapacityUnits": aws.ToInt64(read), "writeCapacityUnits": aws.ToInt64(write)}
}

// indexUpdate returns the UpdateTable request that makes the next change to the table's global
// secondary indexes (nil when they are the spec's; DynamoDB takes one index creation or
// deletion per call): removals first (indexes the spec lacks, or whose keys or projection
// changed; by name), then creations, then capacity changes. It also returns the capacity of
// every index of the spec the table has, which a switch to PROVISIONED needs in the same call.
func indexUpdate(s *v1alpha1.DynamoDBTableSpec, table *types.TableDescription) (*dynamodb.UpdateTableInput, []types.GlobalSecondaryIndexUpdate) {
	have := map[string]types.GlobalSecondaryIndexDescription{}
	for _, g := range table.GlobalSecondaryIndexes {
		have[aws.ToString(g.IndexName)] = g
	}
	want := map[string]bool{}
	var remove []string
	var create []v1alpha1.DynamoDBGlobalSecondaryIndex
	var capacity, existing []types.GlobalSecondaryIndexUpdate
	for _, g := range s.GlobalSecondaryIndexes {
		want[g.IndexName] = true
		got, ok := have[g.IndexName]
		update := types.GlobalSecondaryIndexUpdate{Update: &types.UpdateGlobalSecondaryIndexAction{
			IndexName: aws.String(g.IndexName), ProvisionedThroughput: throughput(g.ReadCapacityUnits, g.WriteCapacityUnits)}}
		if ok {
			existing = append(existing, update)
		}
		switch {
		case !ok:
			create = append(create, g)
		case !sameIndexShape(g, got):
			remove, create = append(remove, g.IndexName), append(create, g)
		case s.BillingMode == string(types.BillingModeProvisioned) && !sameThroughput(g.ReadCapacityUnits, g.WriteCapacityUnits, got.ProvisionedThroughput):
			capacity = append(capacity, update)
		}
	}
	for _, g := range table.GlobalSecondaryIndexes {
		if name := aws.ToString(g.IndexName); !want[name] {
			remove = append(remove, name)
		}
	}
	switch {
	case len(remove) > 0:
		return &dynamodb.UpdateTableInput{GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{
			{Delete: &types.DeleteGlobalSecondaryIndexAction{IndexName: aws.String(slices.Min(remove))}}}}, existing
	case len(create) > 0:
		g := globalIndex(create[0])
		return &dynamodb.UpdateTableInput{AttributeDefinitions: attributeDefinitions(keyAttributes(s)),
			GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
				IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection, ProvisionedThroughput: g.ProvisionedThroughput}}}}, existing
	case len(capacity) > 0:
		return &dynamodb.UpdateTableInput{GlobalSecondaryIndexUpdates: capacity}, existing
	}
	return nil, existing
}

// sameIndexShape reports whether an index has the spec's keys and projection, which cannot
// change in place.
func sameIndexShape(want v1alpha1.DynamoDBGlobalSecondaryIndex, got types.GlobalSecondaryIndexDescription) bool {
	if !sameKeySchema(keySchema(want.HashKey, want.RangeKey), got.KeySchema) {
		return false
	}
	wp, gp := projection(want.Projection), got.Projection
	if gp == nil {
		return wp.ProjectionType == types.ProjectionTypeAll
	}
	sorted := func(attrs []string) []string { return slices.Sorted(slices.Values(attrs)) }
	return wp.ProjectionType == gp.ProjectionType && slices.Equal(sorted(wp.NonKeyAttributes), sorted(gp.NonKeyAttributes))
}

// sameKeySchema reports whether two key schemas have the same attributes as the same keys.
func sameKeySchema(want, got []types.KeySchemaElement) bool {
	return slices.EqualFunc(want, got, func(a, b types.KeySchemaElement) bool {
		return aws.ToString(a.AttributeName) == aws.ToString(b.AttributeName) && a.KeyType == b.KeyType
	})
}

// billingMode returns the table's billing mode; tables that never chose one are PROVISIONED.
func billingMode(table *types.TableDescription) types.BillingMode {
	if table.BillingModeSummary == nil || table.BillingModeSummary.BillingMode == "" {
		return types.BillingModeProvisioned
	}
	return table.BillingModeSummary.BillingMode
}

// tableClass returns the table's class; tables that never chose one are STANDARD.
func tableClass(table *types.TableDescription) types.TableClass {
	if table.TableClassSummary == nil || table.TableClassSummary.TableClass == "" {
		return types.TableClassStandard
	}
	return table.TableClassSummary.TableClass
}

// sameThroughput reports whether the provisioned capacity is read and write.
func sameThroughput(read, write *int64, got *types.ProvisionedThroughputDescription) bool {
	return got != nil && aws.ToInt64(read) == aws.ToInt64(got.ReadCapacityUnits) && aws.ToInt64(write) == aws.ToInt64(got.WriteCapacityUnits)
}

// sameStream reports whether the stream is the spec's: off, or on with its view type.
func sameStream(want *v1alpha1.DynamoDBStream, got *types.StreamSpecification) bool {
	enabled := got != nil && aws.ToBool(got.StreamEnabled)
	return enabled == want.Enabled && (!enabled || string(got.StreamViewType) == want.ViewType)
}

// sameSSE reports whether the encryption is the spec's: off, or on with its KMS key when the
// spec names one (by id or ARN, or by an alias whose key has the ARN aliasKey).
func sameSSE(want *v1alpha1.DynamoDBServerSideEncryption, aliasKey string, got *types.SSEDescription) bool {
	enabled := got != nil && (got.Status == types.SSEStatusEnabled || got.Status == types.SSEStatusEnabling)
	key := want.KMSKeyID
	if isAlias(key) {
		key = aliasKey
	}
	return enabled == want.Enabled && (!enabled || want.KMSKeyID == "" || key != "" && managed.SameKMSKey(key, aws.ToString(got.KMSMasterKeyArn)))
}

// isAlias reports whether a KMS key is named by an alias name or an alias ARN.
func isAlias(key string) bool {
	return strings.HasPrefix(key, "alias/") || strings.Contains(key, ":alias/")
}

// sameTTL reports whether expiry is the spec's: off, or on with its attribute.
func sameTTL(want *v1alpha1.DynamoDBTimeToLive, got *types.TimeToLiveDescription) bool {
	enabled := got != nil && (got.TimeToLiveStatus == types.TimeToLiveStatusEnabled || got.TimeToLiveStatus == types.TimeToLiveStatusEnabling)
	return enabled == want.Enabled && (!enabled || aws.ToString(got.AttributeName) == want.AttributeName)
}

// samePITR reports whether point-in-time recovery is on or off as the spec says.
func samePITR(want *v1alpha1.DynamoDBToggle, got *types.PointInTimeRecoveryDescription) bool {
	return (got != nil && got.PointInTimeRecoveryStatus == types.PointInTimeRecoveryStatusEnabled) == want.Enabled
}
