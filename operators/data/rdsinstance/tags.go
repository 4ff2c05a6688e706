package rdsinstance

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/shared/managed"
)

// planTags plans the tag change that makes the instance carry exactly desired: the tags to add
// or change with AddTagsToResource, then the keys to remove with RemoveTagsFromResource.
func (d *driver) planTags(changes *managed.Plan, arn string, desired, observed map[string]string) {
	changes.AddTags(desired, observed, func(ctx context.Context, set map[string]string, remove []string) error {
		if len(set) > 0 {
			if _, err := d.api.AddTagsToResource(ctx, &rds.AddTagsToResourceInput{ResourceName: aws.String(arn), Tags: rdsTags(set)}); err != nil {
				return fmt.Errorf("tag DB instance %s: %w", arn, err)
			}
		}
		if len(remove) > 0 {
			if _, err := d.api.RemoveTagsFromResource(ctx, &rds.RemoveTagsFromResourceInput{ResourceName: aws.String(arn), TagKeys: remove}); err != nil {
				return fmt.Errorf("untag DB instance %s: %w", arn, err)
			}
		}
		return nil
	})
}

// tagMap returns an RDS tag list as a map.
func tagMap(list []types.Tag) map[string]string {
	return managed.TagMap(list, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
}

// rdsTags returns tags in RDS's form, sorted by key for stable requests.
func rdsTags(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}
