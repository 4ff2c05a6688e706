package kms

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are KMS's limits on the tags of a key: 50 a key, keys of 1 to 128 characters, values
// of at most 256, and no key beginning with "aws:", which AWS reserves (Tagging keys, in the AWS
// KMS Developer Guide; API reference, Tag). KMS answers a tag it refuses with its TagException.
var tagRules = core.TagRules{
	MaxTags:  50,
	Reserved: []string{"aws:"},
	TooMany:  tagError("Too many tags: a KMS key can have at most 50 tags."),
	Invalid:  core.InvalidTag("TagException", "%s"),
	Repeated: func(key string) *core.APIError {
		return tagError("Duplicate tag keys: %s appears more than once.", key)
	},
}

// tagPair returns an SDK tag's key and value.
func tagPair(t types.Tag) (string, string) { return aws.ToString(t.TagKey), aws.ToString(t.TagValue) }

// tagList returns the tags of key id in r as the SDK lists them, sorted by tag key.
func tagList(r *region, id string) []types.Tag { return core.TagList(r.tags, id, tag) }

// tag returns the SDK tag of a key and value.
func tag(k, v string) types.Tag { return types.Tag{TagKey: aws.String(k), TagValue: aws.String(v)} }

// tagging serves the tag operations on the keys of the caller's region, by key id or ARN,
// looking a key up with find.
func (b *Backend) tagging(find func(call *core.Call, ref string) (*region, *key, error)) core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: &b.mu, Rules: tagRules, Pair: tagPair, Tag: tag,
		Find: func(call *core.Call, id *string) (core.TagTarget, error) {
			r, k, err := find(call, aws.ToString(id))
			if err != nil {
				return core.TagTarget{}, err
			}
			return core.TagTarget{Tags: r.tags, ID: k.id}, nil
		},
	}
}

// managing returns the lookup of a customer managed key that operation may change.
func (b *Backend) managing(operation string) func(call *core.Call, ref string) (*region, *key, error) {
	return func(call *core.Call, ref string) (*region, *key, error) { return b.manage(call, ref, operation) }
}

// listResourceTags lists a key's tags by tag key (ListResourceTags).
func (b *Backend) listResourceTags(call *core.Call, in *kms.ListResourceTagsInput) (*kms.ListResourceTagsOutput, error) {
	limit, err := pageLimit(in.Limit, 50, 50)
	if err != nil {
		return nil, err
	}
	all, err := b.tagging(func(call *core.Call, ref string) (*region, *key, error) { return b.lookup(call, ref, false) }).List(call, in.KeyId)
	if err != nil {
		return nil, err
	}
	tags, next, err := page(all, func(t types.Tag) string { return aws.ToString(t.TagKey) }, aws.ToString(in.Marker), limit)
	if err != nil {
		return nil, err
	}
	return &kms.ListResourceTagsOutput{Tags: tags, NextMarker: next, Truncated: next != nil}, nil
}

// tagOperations are KMS's operations that change a key's tags, TagResource and UntagResource, on
// the customer managed key a request names by KeyId; ListResourceTags, which pages, is among its
// operations.
func (b *Backend) tagOperations() map[string]core.Operation {
	return map[string]core.Operation{
		"TagResource":   core.AddListOp[kms.TagResourceOutput](b.tagging(b.managing("TagResource")), func(in *kms.TagResourceInput) (*string, []types.Tag) { return in.KeyId, in.Tags }),
		"UntagResource": core.RemoveOp[kms.UntagResourceOutput](b.tagging(b.managing("UntagResource")), func(in *kms.UntagResourceInput) (*string, []string) { return in.KeyId, in.TagKeys }),
	}
}
