package route53hostedzone

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/shared/managed"
)

// tagsPerCall is how many tags ChangeTagsForResource adds, and keys it removes, at most.
const tagsPerCall = 10

// tags returns the zone's tags.
func (d *driver) tags(ctx context.Context, id string) (map[string]string, error) {
	out, err := d.api.ListTagsForResource(ctx, &route53.ListTagsForResourceInput{ResourceId: aws.String(id), ResourceType: types.TagResourceTypeHostedzone})
	if err != nil {
		return nil, managed.Wrap(err, "list the tags of hosted zone %s", id)
	}
	if out.ResourceTagSet == nil {
		return map[string]string{}, nil
	}
	return managed.TagMap(out.ResourceTagSet.Tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }), nil
}

// changeTags adds set and removes remove, ten of each a call as Route 53 allows.
func (d *driver) changeTags(ctx context.Context, id string, set map[string]string, remove []string) error {
	add := managed.TagList(set, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
	remove = slices.Clone(remove)
	for len(add) > 0 || len(remove) > 0 {
		in := &route53.ChangeTagsForResourceInput{ResourceId: aws.String(id), ResourceType: types.TagResourceTypeHostedzone}
		n := min(len(add), tagsPerCall)
		in.AddTags, add = add[:n], add[n:]
		n = min(len(remove), tagsPerCall)
		in.RemoveTagKeys, remove = remove[:n], remove[n:]
		if _, err := d.api.ChangeTagsForResource(ctx, in); err != nil {
			return managed.Wrap(err, "change the tags of hosted zone %s", id)
		}
	}
	return nil
}
