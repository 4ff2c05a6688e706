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
	Invalid:  func(problem string) *core.APIError { return tagError("%s", problem) },
}

// requestTags returns the tags of a request as a map, or TagException when it gives a tag key
// twice (a key has one value per tag key).
func requestTags(tags []types.Tag) (map[string]string, error) {
	out, repeated := core.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.TagKey), aws.ToString(t.TagValue) })
	if repeated != "" {
		return nil, tagError("Duplicate tag keys: %s appears more than once.", repeated)
	}
	return out, nil
}

// tagList returns the tags of key id in r as the SDK lists them, sorted by tag key.
func tagList(r *region, id string) []types.Tag {
	return core.TagList(r.tags, id, func(k, v string) types.Tag { return types.Tag{TagKey: aws.String(k), TagValue: aws.String(v)} })
}

// tagResource adds tags to a customer managed key or replaces their values (TagResource).
func (b *Backend) tagResource(call *core.Call, in *kms.TagResourceInput) (*kms.TagResourceOutput, error) {
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r, k, err := b.manage(call, aws.ToString(in.KeyId), "TagResource")
	if err != nil {
		return nil, err
	}
	return &kms.TagResourceOutput{}, r.tags.Merge(tags, k.id)
}

// untagResource removes tags from a customer managed key; keys it lacks are ignored (UntagResource).
func (b *Backend) untagResource(call *core.Call, in *kms.UntagResourceInput) (*kms.UntagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r, k, err := b.manage(call, aws.ToString(in.KeyId), "UntagResource")
	if err != nil {
		return nil, err
	}
	r.tags.Remove(k.id, in.TagKeys...)
	return &kms.UntagResourceOutput{}, nil
}

// listResourceTags lists a key's tags by tag key (ListResourceTags).
func (b *Backend) listResourceTags(call *core.Call, in *kms.ListResourceTagsInput) (*kms.ListResourceTagsOutput, error) {
	limit, err := pageLimit(in.Limit, 50, 50)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r, k, err := b.lookup(call, aws.ToString(in.KeyId), false)
	if err != nil {
		return nil, err
	}
	tags, next, err := page(tagList(r, k.id), func(t types.Tag) string { return aws.ToString(t.TagKey) }, aws.ToString(in.Marker), limit)
	if err != nil {
		return nil, err
	}
	return &kms.ListResourceTagsOutput{Tags: tags, NextMarker: next, Truncated: next != nil}, nil
}
