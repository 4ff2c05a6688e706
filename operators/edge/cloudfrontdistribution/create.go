package cloudfrontdistribution

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/operators/edge/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the distribution with the tags (the ownership tags included) and the object's
// UID as CallerReference, and records its id. CloudFront answers a create made again with the
// same reference and configuration with the distribution already made, so a create whose
// answer was lost is safe to repeat. With S3 origins, the origin access control the origins
// name is found or made first; the buckets' policies get the distribution's statement on the
// next pass, once its ARN is known.
func (d *driver) Create(ctx context.Context, o *v1alpha1.CloudFrontDistribution, req managed.Request) error {
	ids, err := d.policies.ids(ctx, d.api)
	if err != nil {
		return err
	}
	buckets := bucketOrigins{region: d.region}
	if hasS3Origin(o) {
		if buckets.controlID, err = d.ensureControl(ctx, o); err != nil {
			return err
		}
	}
	cfg, _, err := desired(o, newConfig(o), ids, buckets)
	if err != nil {
		return err
	}
	out, err := d.api.CreateDistributionWithTags(ctx, &cloudfront.CreateDistributionWithTagsInput{
		DistributionConfigWithTags: &types.DistributionConfigWithTags{DistributionConfig: cfg, Tags: tagList(req.Tags)},
	})
	if err != nil {
		return managed.Wrap(err, "create a distribution")
	}
	managed.SetExternalName(o, aws.ToString(out.Distribution.Id))
	fillStatus(o, out.Distribution, aws.ToString(out.ETag))
	return nil
}
