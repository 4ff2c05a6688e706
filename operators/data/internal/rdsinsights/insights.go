// Package rdsinsights compares and requests the Performance Insights settings of RDS DB
// instances (an RDSInstance's, an RDSDBCluster's instances') from the spec's
// RDSPerformanceInsights.
package rdsinsights

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Same reports whether the instance's Performance Insights match want; the retention period
// and key are compared only when want sets them, the key by ARN, key ID or alias.
func Same(want *v1alpha1.RDSPerformanceInsights, inst *types.DBInstance) bool {
	if aws.ToBool(inst.PerformanceInsightsEnabled) != want.Enabled {
		return false
	}
	if !want.Enabled {
		return true
	}
	if want.RetentionPeriod != nil && aws.ToInt32(inst.PerformanceInsightsRetentionPeriod) != *want.RetentionPeriod {
		return false
	}
	got := aws.ToString(inst.PerformanceInsightsKMSKeyId)
	return want.KMSKeyID == "" || managed.SameKMSKey(want.KMSKeyID, got) || strings.HasSuffix(got, ":"+want.KMSKeyID)
}

// Settings returns the Performance Insights settings of a request for want, none when want is
// nil: the retention period and key go only with insights enabled.
func Settings(want *v1alpha1.RDSPerformanceInsights) (enabled *bool, retention *int32, key *string) {
	switch {
	case want == nil:
		return nil, nil, nil
	case !want.Enabled:
		return aws.Bool(false), nil, nil
	case want.KMSKeyID != "":
		key = aws.String(want.KMSKeyID)
	}
	return aws.Bool(true), want.RetentionPeriod, key
}
