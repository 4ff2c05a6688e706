// Package ec2util holds what the EC2 drivers of every family share: a describer for each
// EC2 type, tag conversions, tag updates, the ownership filter, Elastic IP addresses and the
// per-provider listings that batch observations.
package ec2util

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// TagAPI is the part of the EC2 API that manages tags.
type TagAPI interface {
	CreateTags(ctx context.Context, in *ec2.CreateTagsInput, opts ...func(*ec2.Options)) (*ec2.CreateTagsOutput, error)
	DeleteTags(ctx context.Context, in *ec2.DeleteTagsInput, opts ...func(*ec2.Options)) (*ec2.DeleteTagsOutput, error)
}

var _ TagAPI = (*ec2.Client)(nil)

// Tags returns an EC2 tag list as a map.
func Tags(list []types.Tag) map[string]string {
	return managed.TagMap(list, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
}

// resourceTags returns the tags of an EC2 resource as Describe answers it, for the types the
// drivers read; nil for another type.
func resourceTags(resource any) []types.Tag {
	switch r := resource.(type) {
	case types.Vpc:
		return r.Tags
	case types.Subnet:
		return r.Tags
	case types.InternetGateway:
		return r.Tags
	case types.Address:
		return r.Tags
	case types.SecurityGroup:
		return r.Tags
	case types.RouteTable:
		return r.Tags
	case types.NatGateway:
		return r.Tags
	case types.VpcPeeringConnection:
		return r.Tags
	case Instance:
		return r.Tags
	}
	return nil
}

// TagList returns tags as an EC2 tag list, sorted by key.
func TagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

// TagSpecifications tags a resource of type rt at its creation, so that the ownership tags
// are there from the first moment and a crash before the id is recorded cannot leak it.
func TagSpecifications(rt types.ResourceType, tags map[string]string) []types.TagSpecification {
	return []types.TagSpecification{{ResourceType: rt, Tags: TagList(tags)}}
}

// OwnerFilter selects the resources whose ownership tag names o.
func OwnerFilter(o shared.Managed) []types.Filter {
	return []types.Filter{{Name: aws.String("tag:" + shared.TagOwnerUID), Values: []string{string(o.GetUID())}}}
}

// OwnedFilter selects every resource the operator owns, for listings.
func OwnedFilter() []types.Filter {
	return []types.Filter{{Name: aws.String("tag-key"), Values: []string{shared.TagOwnerUID}}}
}

// PlanTags plans, when observed is not desired, the tag change that makes resource id carry
// exactly desired.
func PlanTags(plan *managed.Plan, api TagAPI, id string, desired, observed map[string]string) {
	plan.AddTags(desired, observed, tagCalls(api, id))
}

// tagCalls changes the tags of resource id: CreateTags, then DeleteTags.
func tagCalls(api TagAPI, id string) func(ctx context.Context, set map[string]string, remove []string) error {
	return managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := api.CreateTags(ctx, &ec2.CreateTagsInput{Resources: []string{id}, Tags: TagList(set)})
		return managed.Wrap(err, "tag %s", id)
	}, func(ctx context.Context, remove []string) error {
		keys := make([]types.Tag, 0, len(remove))
		for _, k := range remove {
			keys = append(keys, types.Tag{Key: aws.String(k)})
		}
		_, err := api.DeleteTags(ctx, &ec2.DeleteTagsInput{Resources: []string{id}, Tags: keys})
		return managed.Wrap(err, "untag %s", id)
	})
}

// ReleaseOwnership removes the ownership tags of resource id, for deletionPolicy Orphan.
func ReleaseOwnership(ctx context.Context, api TagAPI, id string) error {
	keys := make([]types.Tag, 0, 4)
	for _, k := range managed.OwnershipTagKeys() {
		keys = append(keys, types.Tag{Key: aws.String(k)})
	}
	if _, err := api.DeleteTags(ctx, &ec2.DeleteTagsInput{Resources: []string{id}, Tags: keys}); err != nil {
		return fmt.Errorf("remove the ownership tags of %s: %w", id, err)
	}
	return nil
}
