// Package ecsutil holds what the containers family's ECS kinds share: conversions between
// ECS's tag lists and the driver kit's tag maps, and how capacity provider strategies compare.
package ecsutil

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/shared/managed"
)

// TagMap returns ECS tags as a map.
func TagMap(tags []types.Tag) map[string]string {
	return managed.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
}

// TagList returns tags as ECS takes them.
func TagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

// PlanTags adds to p the TagResource and UntagResource calls that bring the tags of the ECS
// resource arn (what names it in errors, for example "service web") in line with desired;
// observed are its tags as ECS reports them.
func PlanTags(p *managed.Plan, api *ecs.Client, arn *string, what string, desired, observed map[string]string) {
	p.AddTags(desired, observed, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := api.TagResource(ctx, &ecs.TagResourceInput{ResourceArn: arn, Tags: TagList(set)})
		return managed.Wrap(err, "tag %s", what)
	}, func(ctx context.Context, remove []string) error {
		_, err := api.UntagResource(ctx, &ecs.UntagResourceInput{ResourceArn: arn, TagKeys: remove})
		return managed.Wrap(err, "untag %s", what)
	}))
}
