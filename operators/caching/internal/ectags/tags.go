// Package ectags reads, writes and plans the tags of ElastiCache resources (clusters,
// replication groups, subnet groups, parameter groups) for the caching family's kinds.
package ectags

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/shared/managed"
)

// API is the part of the ElastiCache API that reads and writes tags.
type API interface {
	ListTagsForResource(ctx context.Context, in *elasticache.ListTagsForResourceInput, opts ...func(*elasticache.Options)) (*elasticache.ListTagsForResourceOutput, error)
	AddTagsToResource(ctx context.Context, in *elasticache.AddTagsToResourceInput, opts ...func(*elasticache.Options)) (*elasticache.AddTagsToResourceOutput, error)
	RemoveTagsFromResource(ctx context.Context, in *elasticache.RemoveTagsFromResourceInput, opts ...func(*elasticache.Options)) (*elasticache.RemoveTagsFromResourceOutput, error)
}

var _ API = (*elasticache.Client)(nil)

// List returns tags in ElastiCache's form, sorted by key for stable requests.
func List(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

// Read returns the tags of the ElastiCache resource arn.
func Read(ctx context.Context, api API, arn string) (map[string]string, error) {
	out, err := api.ListTagsForResource(ctx, &elasticache.ListTagsForResourceInput{ResourceName: aws.String(arn)})
	if err != nil {
		return nil, fmt.Errorf("list tags of %s: %w", arn, err)
	}
	return managed.TagMap(out.TagList, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }), nil
}

// Plan plans the tag change that makes the ElastiCache resource arn carry exactly desired: the
// tags to add or change with AddTagsToResource, then the keys to remove with
// RemoveTagsFromResource.
func Plan(changes *managed.Plan, api API, arn string, desired, observed map[string]string) {
	changes.AddTags(desired, observed, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := api.AddTagsToResource(ctx, &elasticache.AddTagsToResourceInput{ResourceName: aws.String(arn), Tags: List(set)})
		return managed.Wrap(err, "tag %s", arn)
	}, func(ctx context.Context, remove []string) error {
		_, err := api.RemoveTagsFromResource(ctx, &elasticache.RemoveTagsFromResourceInput{ResourceName: aws.String(arn), TagKeys: remove})
		return managed.Wrap(err, "untag %s", arn)
	}))
}

// Release removes the ownership tags among tags (the resource's) from the ElastiCache resource
// arn, for deletionPolicy Orphan. ElastiCache refuses to remove a tag a resource does not carry
// (TagNotFound), so only the ownership tags still there are removed, and a release interrupted
// half-way completes when tried again.
func Release(ctx context.Context, api API, arn string, tags map[string]string) error {
	var keys []string
	for _, k := range managed.OwnershipTagKeys() {
		if _, ok := tags[k]; ok {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	_, err := api.RemoveTagsFromResource(ctx, &elasticache.RemoveTagsFromResourceInput{ResourceName: aws.String(arn), TagKeys: keys})
	return managed.Wrap(err, "remove ownership tags of %s", arn)
}
