package dynamodbtable

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
)

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
	if got == nil {
		return false
	}
	return aws.ToInt64(read) == aws.ToInt64(got.ReadCapacityUnits) && aws.ToInt64(write) == aws.ToInt64(got.WriteCapacityUnits)
}

// sameStream reports whether the stream is the spec's: off, or on with its view type.
func sameStream(want *v1alpha1.DynamoDBStream, got *types.StreamSpecification) bool {
	enabled := got != nil && aws.ToBool(got.StreamEnabled)
	if !want.Enabled {
		return !enabled
	}
	return enabled && string(got.StreamViewType) == want.ViewType
}

// sameSSE reports whether the encryption is the spec's: off, or on with its KMS key when the
// spec names one (by id or ARN).
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

// sameTTL reports whether expiry is the spec's: off, or on with its attribute.
func sameTTL(want *v1alpha1.DynamoDBTimeToLive, got *types.TimeToLiveDescription) bool {
	enabled := got != nil && (got.TimeToLiveStatus == types.TimeToLiveStatusEnabled || got.TimeToLiveStatus == types.TimeToLiveStatusEnabling)
	if !want.Enabled {
		return !enabled
	}
	return enabled && aws.ToString(got.AttributeName) == want.AttributeName
}

// samePITR reports whether point-in-time recovery is on or off as the spec says.
func samePITR(want *v1alpha1.DynamoDBToggle, got *types.PointInTimeRecoveryDescription) bool {
	enabled := got != nil && got.PointInTimeRecoveryStatus == types.PointInTimeRecoveryStatusEnabled
	return enabled == want.Enabled
}
