package s3

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// getBucketPolicyStatus tells whether the bucket's policy makes it public, or answers
// NoSuchBucketPolicy (404) for a bucket without a policy, as AWS does. The policy is public
// as core.PublicPolicy decides it (a simplification of AWS's analysis).
func (b *Backend) getBucketPolicyStatus(call *core.Call, in *s3.GetBucketPolicyStatusInput) (*s3.GetBucketPolicyStatusOutput, error) {
	return readBucket(b, call, in.Bucket, func(bk *bucket) (*s3.GetBucketPolicyStatusOutput, error) {
		return &s3.GetBucketPolicyStatusOutput{PolicyStatus: &types.PolicyStatus{IsPublic: aws.Bool(core.PublicPolicy(bk.policy))}}, absent(bk.policy == "", "NoSuchBucketPolicy", "The bucket policy does not exist")
	})
}

// listAnalyticsConfigurations lists the bucket's storage class analysis configurations. The
// emulator keeps no analytics, Intelligent-Tiering, inventory or metrics configurations (their
// Put operations are not emulated), so this list and the three below are empty and never
// truncated, as AWS answers for a bucket without any.
func (b *Backend) listAnalyticsConfigurations(call *core.Call, in *s3.ListBucketAnalyticsConfigurationsInput) (*s3.ListBucketAnalyticsConfigurationsOutput, error) {
	return &s3.ListBucketAnalyticsConfigurationsOutput{IsTruncated: aws.Bool(false)}, b.withBucket(call, in.Bucket, onlyExists)
}

// listIntelligentTieringConfigurations lists the bucket's S3 Intelligent-Tiering configurations.
func (b *Backend) listIntelligentTieringConfigurations(call *core.Call, in *s3.ListBucketIntelligentTieringConfigurationsInput) (*s3.ListBucketIntelligentTieringConfigurationsOutput, error) {
	return &s3.ListBucketIntelligentTieringConfigurationsOutput{IsTruncated: aws.Bool(false)}, b.withBucket(call, in.Bucket, onlyExists)
}

// listInventoryConfigurations lists the bucket's inventory configurations.
func (b *Backend) listInventoryConfigurations(call *core.Call, in *s3.ListBucketInventoryConfigurationsInput) (*s3.ListBucketInventoryConfigurationsOutput, error) {
	return &s3.ListBucketInventoryConfigurationsOutput{IsTruncated: aws.Bool(false)}, b.withBucket(call, in.Bucket, onlyExists)
}

// listMetricsConfigurations lists the bucket's CloudWatch request metrics configurations.
func (b *Backend) listMetricsConfigurations(call *core.Call, in *s3.ListBucketMetricsConfigurationsInput) (*s3.ListBucketMetricsConfigurationsOutput, error) {
	return &s3.ListBucketMetricsConfigurationsOutput{IsTruncated: aws.Bool(false)}, b.withBucket(call, in.Bucket, onlyExists)
}

// onlyExists is what reads of things the emulator does not keep (configuration lists,
// multipart uploads) ask of the bucket: withBucket has checked that it exists and is the
// caller's, and nothing more is needed.
func onlyExists(*bucket) error { return nil }
