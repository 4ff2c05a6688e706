package s3bucket

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

func TestObservedLogging(t *testing.T) {
	cases := map[string]struct {
		reason   string
		enabled  *types.LoggingEnabled
		want     *logging
		complete bool
	}{
		"Off":          {reason: "No logging is none.", complete: true},
		"Simple":       {reason: "The simple key format is S3's default, the spec's.", enabled: &types.LoggingEnabled{TargetBucket: aws.String("logs"), TargetPrefix: aws.String("a/"), TargetObjectKeyFormat: &types.TargetObjectKeyFormat{SimplePrefix: &types.SimplePrefix{}}}, want: &logging{Target: "logs", Prefix: "a/"}, complete: true},
		"Partitioned":  {reason: "Date-partitioned keys are not the spec's.", enabled: &types.LoggingEnabled{TargetBucket: aws.String("logs"), TargetPrefix: aws.String("a/"), TargetObjectKeyFormat: &types.TargetObjectKeyFormat{PartitionedPrefix: &types.PartitionedPrefix{}}}, want: &logging{Target: "logs", Prefix: "a/"}},
		"TargetGrants": {reason: "Grants are not the spec's.", enabled: &types.LoggingEnabled{TargetBucket: aws.String("logs"), TargetPrefix: aws.String(""), TargetGrants: []types.TargetGrant{{Permission: types.BucketLogsPermissionRead}}}, want: &logging{Target: "logs"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, complete := observedLogging(&s3.GetBucketLoggingOutput{LoggingEnabled: tc.enabled})
			if complete != tc.complete || (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("%s\nobservedLogging = %+v, %v; want %+v, %v", tc.reason, got, complete, tc.want, tc.complete)
			}
		})
	}
}
