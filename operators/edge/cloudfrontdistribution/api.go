package cloudfrontdistribution

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
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
}

var _ cloudfrontAPI = (*cloudfront.Client)(nil)
