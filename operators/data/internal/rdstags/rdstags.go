// Package rdstags reads, writes and plans the tags of RDS resources (DB instances, subnet
// groups, parameter groups) for the data family's RDS kinds.
package rdstags

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/shared/managed"
)

// API is the part of the RDS API that reads and writes tags.
type API interface {
	ListTagsForResource(ctx context.Context, in *rds.ListTagsForResourceInput, opts ...func(*rds.Options)) (*rds.ListTagsForResourceOutput, error)
	AddTagsToResource(ctx context.Context, in *rds.AddTagsToResourceInput, opts ...func(*rds.Options)) (*rds.AddTagsToResourceOutput, error)
	RemoveTagsFromResource(ctx context.Context, in *rds.RemoveTagsFromResourceInput, opts ...func(*rds.Options)) (*rds.RemoveTagsFromResourceOutput, error)
}

var _ API = (*rds.Client)(nil)

// Map returns an RDS tag list as a map.
func Map(list []types.Tag) map[string]string {
	return managed.TagMap(list, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
}

// List returns tags in RDS's form, sorted by key for stable requests.
func List(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

// Read returns the tags of the RDS resource arn (what names its kind in messages).
func Read(ctx context.Context, api API, what, arn string) (map[string]string, error) {
	out, err := api.ListTagsForResource(ctx, &rds.ListTagsForResourceInput{ResourceName: aws.String(arn)})
	if err != nil {
		return nil, fmt.Errorf("list the tags of %s %s: %w", what, arn, err)
	}
	return Map(out.TagList), nil
}

// Plan plans the tag change that makes the RDS resource arn (what names its kind in messages,
// "DB instance") carry exactly desired: the tags to add or change with AddTagsToResource, then
// the keys to remove with RemoveTagsFromResource.
func Plan(changes *managed.Plan, api API, what, arn string, desired, observed map[string]string) {
	changes.AddTags(desired, observed, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := api.AddTagsToResource(ctx, &rds.AddTagsToResourceInput{ResourceName: aws.String(arn), Tags: List(set)})
		return managed.Wrap(err, "tag %s %s", what, arn)
	}, func(ctx context.Context, remove []string) error {
		_, err := api.RemoveTagsFromResource(ctx, &rds.RemoveTagsFromResourceInput{ResourceName: aws.String(arn), TagKeys: remove})
		return managed.Wrap(err, "untag %s %s", what, arn)
	}))
}

// Release removes the ownership tags of the RDS resource arn (what names its kind in
// messages), for deletionPolicy Orphan.
func Release(ctx context.Context, api API, what, arn string) error {
	_, err := api.RemoveTagsFromResource(ctx, &rds.RemoveTagsFromResourceInput{ResourceName: aws.String(arn), TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove ownership tags of %s %s", what, arn)
}
