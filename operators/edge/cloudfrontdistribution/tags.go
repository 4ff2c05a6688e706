package cloudfrontdistribution

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/shared/managed"
)

// tags returns the tags of the distribution arn names.
func (d *driver) tags(ctx context.Context, arn string) (map[string]string, error) {
	out, err := d.api.ListTagsForResource(ctx, &cloudfront.ListTagsForResourceInput{Resource: aws.String(arn)})
	if err != nil {
		return nil, managed.Wrap(err, "list the tags of distribution %s", arn)
	}
	if out.Tags == nil {
		return map[string]string{}, nil
	}
	return managed.TagMap(out.Tags.Items, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }), nil
}

// tagList returns tags as CloudFront takes them.
func tagList(tags map[string]string) *types.Tags {
	return &types.Tags{Items: managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })}
}

// planTags plans adding and removing tags so that the distribution carries desired.
func (d *driver) planTags(plan *managed.Plan, arn string, desired, observed map[string]string) {
	plan.AddTags(desired, observed, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagResource(ctx, &cloudfront.TagResourceInput{Resource: aws.String(arn), Tags: tagList(set)})
		return managed.Wrap(err, "tag distribution %s", arn)
	}, d.untag(arn)))
}

// untag returns the call that removes tag keys from the distribution arn names.
func (d *driver) untag(arn string) func(context.Context, []string) error {
	return func(ctx context.Context, keys []string) error {
		_, err := d.api.UntagResource(ctx, &cloudfront.UntagResourceInput{Resource: aws.String(arn), TagKeys: &types.TagKeys{Items: keys}})
		return managed.Wrap(err, "untag distribution %s", arn)
	}
}
