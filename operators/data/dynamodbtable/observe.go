package dynamodbtable

import (
	"cmp"
	"context"
	"fmt"
	"maps"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a table.
type State struct {
	// Table is DescribeTable's answer.
	Table *types.TableDescription
	// TimeToLive is the expiry setting, read only when the spec manages it.
	TimeToLive *types.TimeToLiveDescription
	// PointInTimeRecovery is the continuous backup setting, read only when the spec manages it.
	PointInTimeRecovery *types.PointInTimeRecoveryDescription
	// KeyARN is the ARN of the KMS key the spec names by an alias (DynamoDB reports the key by
	// its ARN), read only when the spec names one; empty when the alias does not exist.
	KeyARN string
}

// Observe reads the table (DescribeTable and ListTagsOfResource; DescribeTimeToLive and
// DescribeContinuousBackups only when the spec manages them, and KMS's DescribeKey only when
// the spec names its key by an alias, and the table is not being deleted), fills the status
// and plans the changes that make it match the spec. While the table or an index is not
// ACTIVE it reports the table busy, and compares nothing (the spec does not count as
// applied): DynamoDB accepts no change until then.
func (d *driver) Observe(ctx context.Context, t *v1alpha1.DynamoDBTable, req managed.Request) (managed.Observation[State], error) {
	name := cmp.Or(managed.ExternalName(t), t.Spec.TableName)
	out, err := d.api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("describe table %s: %w", name, err)
	}
	tags, err := d.tags(ctx, aws.ToString(out.Table.TableArn))
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if err := managed.Claim(t, "DynamoDB table", name, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(t, out.Table)
	obs := managed.Observation[State]{Exists: true, State: &State{Table: out.Table}, Tags: tags, Conflict: sameKeys(&t.Spec, out.Table)}
	// An UPDATING table is usable; DynamoDB accepts no change to a table or its indexes until
	// the table and every index are ACTIVE.
	status := out.Table.TableStatus
	obs.Ready = status == types.TableStatusActive || status == types.TableStatusUpdating
	if status != types.TableStatusActive {
		obs.Busy, obs.Message = true, "table is "+string(status)
	}
	for _, g := range out.Table.GlobalSecondaryIndexes {
		if g.IndexStatus != types.IndexStatusActive {
			obs.Busy, obs.Message = true, fmt.Sprintf("global secondary index %s is %s", aws.ToString(g.IndexName), g.IndexStatus)
		}
	}
	switch {
	case req.Deleting:
	case obs.Busy:
		obs.Uncompared = []string{"billingMode", "provisionedThroughput", "globalSecondaryIndexes", "stream", "serverSideEncryption", "tableClass",
			"deletionProtection", "tags", "timeToLive", "pointInTimeRecovery"}
	default:
		if err := d.readSettings(ctx, t, obs.State); err != nil {
			return managed.Observation[State]{}, err
		}
		d.plan(&obs.Changes, t, obs.State, req.Tags, tags)
	}
	return obs, nil
}

// readSettings reads the time-to-live and point-in-time recovery settings the spec manages,
// and the key an alias of the spec's encryption points at.
func (d *driver) readSettings(ctx context.Context, t *v1alpha1.DynamoDBTable, st *State) error {
	name := aws.ToString(st.Table.TableName)
	if sse := t.Spec.ServerSideEncryption; sse != nil && sse.Enabled && isAlias(sse.KMSKeyID) {
		out, err := d.keys.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String(sse.KMSKeyID)})
		switch {
		case awserr.IsNotFound(err):
			// Compared with no key, the spec differs: UpdateTable then says the alias is missing.
		case err != nil:
			return fmt.Errorf("describe KMS key %s: %w", sse.KMSKeyID, err)
		default:
			st.KeyARN = aws.ToString(out.KeyMetadata.Arn)
		}
	}
	if t.Spec.TimeToLive != nil {
		out, err := d.api.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
		if err != nil {
			return fmt.Errorf("describe time to live of table %s: %w", name, err)
		}
		st.TimeToLive = out.TimeToLiveDescription
	}
	if t.Spec.PointInTimeRecovery != nil {
		out, err := d.api.DescribeContinuousBackups(ctx, &dynamodb.DescribeContinuousBackupsInput{TableName: aws.String(name)})
		if err != nil {
			return fmt.Errorf("describe continuous backups of table %s: %w", name, err)
		}
		if out.ContinuousBackupsDescription != nil {
			st.PointInTimeRecovery = out.ContinuousBackupsDescription.PointInTimeRecoveryDescription
		}
	}
	return nil
}

// tags returns every tag of the table with ARN arn.
func (d *driver) tags(ctx context.Context, arn string) (map[string]string, error) {
	tags := map[string]string{}
	var next *string
	for {
		out, err := d.api.ListTagsOfResource(ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn), NextToken: next})
		if err != nil {
			return nil, fmt.Errorf("list tags of table %s: %w", arn, err)
		}
		maps.Copy(tags, managed.TagMap(out.Tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }))
		if next = out.NextToken; next == nil {
			return tags, nil
		}
	}
}

// sameKeys refuses a table whose key schema is not the spec's (an adopted table, or a name
// taken over): the key schema cannot change.
func sameKeys(s *v1alpha1.DynamoDBTableSpec, table *types.TableDescription) error {
	if !sameKeySchema(keySchema(s.HashKey, s.RangeKey), table.KeySchema) {
		return managed.Terminal(condition.ReasonInvalidSpec, "table %s has another key schema than the spec's hashKey and rangeKey; the key schema cannot change",
			aws.ToString(table.TableName))
	}
	for _, def := range table.AttributeDefinitions {
		for _, a := range keyAttributes(s) {
			if a.Name == aws.ToString(def.AttributeName) && string(a.Type) != string(def.AttributeType) {
				return managed.Terminal(condition.ReasonInvalidSpec, "attribute %s of table %s has type %s in AWS, not %s; a key attribute's type cannot change",
					a.Name, aws.ToString(table.TableName), def.AttributeType, a.Type)
			}
		}
	}
	return nil
}

// fillStatus copies what the status shows from AWS's description.
func fillStatus(t *v1alpha1.DynamoDBTable, table *types.TableDescription) {
	t.Status.TableName = aws.ToString(table.TableName)
	t.Status.TableStatus = string(table.TableStatus)
	t.Status.TableARN = aws.ToString(table.TableArn)
	t.Status.ItemCount = aws.ToInt64(table.ItemCount)
	t.Status.StreamARN = ""
	if table.StreamSpecification != nil && aws.ToBool(table.StreamSpecification.StreamEnabled) {
		t.Status.StreamARN = aws.ToString(table.LatestStreamArn)
	}
}
