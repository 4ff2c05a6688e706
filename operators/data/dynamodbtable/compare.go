package dynamodbtable

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// compare names every field of the spec that the table in st does not match.
func compare(t *v1alpha1.DynamoDBTable, st *State, desiredTags map[string]string) managed.Diff {
	s, table := &t.Spec, st.Table
	var d managed.Diff
	d.Check("billingMode", billingMode(table) != types.BillingMode(s.BillingMode))
	d.Check("provisionedThroughput", s.BillingMode == string(types.BillingModeProvisioned) && !sameThroughput(s.ReadCapacityUnits, s.WriteCapacityUnits, table.ProvisionedThroughput))
	p := planIndexes(s, table)
	d.Check("globalSecondaryIndexes", len(p.remove)+len(p.create)+len(p.capacity) > 0)
	d.Check("stream", s.Stream != nil && !sameStream(s.Stream, table.StreamSpecification))
	d.Check("serverSideEncryption", s.ServerSideEncryption != nil && !sameSSE(s.ServerSideEncryption, table.SSEDescription))
	d.Check("tableClass", s.TableClass != "" && tableClass(table) != types.TableClass(s.TableClass))
	d.Check("deletionProtection", s.DeletionProtection != nil && aws.ToBool(table.DeletionProtectionEnabled) != *s.DeletionProtection)
	set, remove := managed.TagChanges(desiredTags, st.Tags)
	d.Check("tags", len(set)+len(remove) > 0)
	d.Check("timeToLive", s.TimeToLive != nil && !sameTTL(s.TimeToLive, st.TimeToLive))
	d.Check("pointInTimeRecovery", s.PointInTimeRecovery != nil && !samePITR(s.PointInTimeRecovery, st.PointInTimeRecovery))
	return d
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

func sameThroughput(read, write *int64, got *types.ProvisionedThroughputDescription) bool {
	if got == nil {
		return false
	}
	return aws.ToInt64(read) == aws.ToInt64(got.ReadCapacityUnits) && aws.ToInt64(write) == aws.ToInt64(got.WriteCapacityUnits)
}

func sameStream(want *v1alpha1.DynamoDBStream, got *types.StreamSpecification) bool {
	enabled := got != nil && aws.ToBool(got.StreamEnabled)
	if !want.Enabled {
		return !enabled
	}
	return enabled && string(got.StreamViewType) == want.ViewType
}

func sameSSE(want *v1alpha1.DynamoDBServerSideEncryption, got *types.SSEDescription) bool {
	enabled := got != nil && (got.Status == types.SSEStatusEnabled || got.Status == types.SSEStatusEnabling)
	if !want.Enabled || !enabled {
		return want.Enabled == enabled
	}
	if want.KMSKeyID == "" {
		return true
	}
	arn := aws.ToString(got.KMSMasterKeyArn)
	return arn == want.KMSKeyID || strings.HasSuffix(arn, "/"+want.KMSKeyID)
}

func sameTTL(want *v1alpha1.DynamoDBTimeToLive, got *types.TimeToLiveDescription) bool {
	enabled := got != nil && (got.TimeToLiveStatus == types.TimeToLiveStatusEnabled || got.TimeToLiveStatus == types.TimeToLiveStatusEnabling)
	if !want.Enabled {
		return !enabled
	}
	return enabled && aws.ToString(got.AttributeName) == want.AttributeName
}

func samePITR(want *v1alpha1.DynamoDBToggle, got *types.PointInTimeRecoveryDescription) bool {
	enabled := got != nil && got.PointInTimeRecoveryStatus == types.PointInTimeRecoveryStatusEnabled
	return enabled == want.Enabled
}
