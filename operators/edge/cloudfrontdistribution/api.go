package cloudfrontdistribution

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// cloudfrontAPI is the part of the CloudFront API the driver uses.
type cloudfrontAPI interface {
	CreateDistributionWithTags(ctx context.Context, in *cloudfront.CreateDistributionWithTagsInput, opts ...func(*cloudfront.Options)) (*cloudfront.CreateDistributionWithTagsOutput, error)
	GetDistribution(ctx context.Context, in *cloudfront.GetDistributionInput, opts ...func(*cloudfront.Options)) (*cloudfront.GetDistributionOutput, error)
	UpdateDistribution(ctx context.Context, in *cloudfront.UpdateDistributionInput, opts ...func(*cloudfront.Options)) (*cloudfront.UpdateDistributionOutput, error)
	DeleteDistribution(ctx context.Context, in *cloudfront.DeleteDistributionInput, opts ...func(*cloudfront.Options)) (*cloudfront.DeleteDistributionOutput, error)
	ListCachePolicies(ctx context.Context, in *cloudfront.ListCachePoliciesInput, opts ...func(*cloudfront.Options)) (*cloudfront.ListCachePoliciesOutput, error)
	ListOriginRequestPolicies(ctx context.Context, in *cloudfront.ListOriginRequestPoliciesInput, opts ...func(*cloudfront.Options)) (*cloudfront.ListOriginRequestPoliciesOutput, error)
	ListTagsForResource(ctx context.Context, in *cloudfront.ListTagsForResourceInput, opts ...func(*cloudfront.Options)) (*cloudfront.ListTagsForResourceOutput, error)
	TagResource(ctx context.Context, in *cloudfront.TagResourceInput, opts ...func(*cloudfront.Options)) (*cloudfront.TagResourceOutput, error)
	UntagResource(ctx context.Context, in *cloudfront.UntagResourceInput, opts ...func(*cloudfront.Options)) (*cloudfront.UntagResourceOutput, error)
	CreateOriginAccessControl(ctx context.Context, in *cloudfront.CreateOriginAccessControlInput, opts ...func(*cloudfront.Options)) (*cloudfront.CreateOriginAccessControlOutput, error)
	GetOriginAccessControl(ctx context.Context, in *cloudfront.GetOriginAccessControlInput, opts ...func(*cloudfront.Options)) (*cloudfront.GetOriginAccessControlOutput, error)
	ListOriginAccessControls(ctx context.Context, in *cloudfront.ListOriginAccessControlsInput, opts ...func(*cloudfront.Options)) (*cloudfront.ListOriginAccessControlsOutput, error)
	UpdateOriginAccessControl(ctx context.Context, in *cloudfront.UpdateOriginAccessControlInput, opts ...func(*cloudfront.Options)) (*cloudfront.UpdateOriginAccessControlOutput, error)
	DeleteOriginAccessControl(ctx context.Context, in *cloudfront.DeleteOriginAccessControlInput, opts ...func(*cloudfront.Options)) (*cloudfront.DeleteOriginAccessControlOutput, error)
}

var _ cloudfrontAPI = (*cloudfront.Client)(nil)

// bucketPolicyAPI is the part of the S3 API that reads and writes the policies of the buckets
// a distribution serves.
type bucketPolicyAPI interface {
	GetBucketPolicy(ctx context.Context, in *s3.GetBucketPolicyInput, opts ...func(*s3.Options)) (*s3.GetBucketPolicyOutput, error)
	PutBucketPolicy(ctx context.Context, in *s3.PutBucketPolicyInput, opts ...func(*s3.Options)) (*s3.PutBucketPolicyOutput, error)
	DeleteBucketPolicy(ctx context.Context, in *s3.DeleteBucketPolicyInput, opts ...func(*s3.Options)) (*s3.DeleteBucketPolicyOutput, error)
}

var _ bucketPolicyAPI = (*s3.Client)(nil)
