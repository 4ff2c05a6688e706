package ekscluster

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"

	"github.com/runner-codes/infra-operator/shared/managed"
)

// planTags plans the tag change, named field in events, that makes the cluster, node group or
// add-on arn carry exactly the desired tags: TagResource for the tags to add or change, then
// UntagResource for the keys to remove. The plan shows the tags that change, as for tags of
// any kind (see managed.TagValues).
func (p *planner) planTags(field, arn string, observed map[string]string) {
	set, remove := managed.TagChanges(p.tags, observed)
	if len(set)+len(remove) == 0 {
		return
	}
	apply := managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := p.d.api.TagResource(ctx, &eks.TagResourceInput{ResourceArn: aws.String(arn), Tags: set})
		return managed.Wrap(err, "tag %s", arn)
	}, func(ctx context.Context, remove []string) error {
		return p.d.untag(ctx, arn, remove)
	})
	p.obs.Changes.AddFieldValues([]string{field}, map[string]managed.Values{field: managed.TagValues(set, remove, observed)},
		func(ctx context.Context) error { return apply(ctx, set, remove) })
}

// untag removes the tag keys from the cluster, node group or add-on arn.
func (d *driver) untag(ctx context.Context, arn string, keys []string) error {
	_, err := d.api.UntagResource(ctx, &eks.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: keys})
	return managed.Wrap(err, "untag %s", arn)
}
