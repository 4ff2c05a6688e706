package sns

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are SNS's limits on topic tags, with its errors: "TagLimitExceeded" for more than 50
// tags on a topic (Amazon SNS API Reference, TagResource and CreateTopic), "InvalidParameter"
// for a bad key or value.
var tagRules = core.TagRules{
	MaxTags: 50,
	TooMany: core.Errorf("TagLimitExceeded", "Can't add more than 50 tags to a topic."),
	Invalid: func(problem string) *core.APIError { return errInvalid("Tags Reason: %s", problem) },
}

// requestTags returns the tags of a request as a map; a key given twice keeps its last value.
func requestTags(tags []types.Tag) map[string]string {
	out, _ := core.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
	return out
}

// taggedTopic returns the topic a tag request names, in the caller's account. The caller holds
// b.mu.
func (b *Backend) taggedTopic(call *core.Call, arn *string) (*topic, error) {
	t, err := b.topicFor(call, arn)
	if err != nil {
		return nil, core.NotFoundf("ResourceNotFound", "Resource does not exist")
	}
	return t, nil
}

func (b *Backend) tagResource(call *core.Call, in *sns.TagResourceInput) (*sns.TagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.taggedTopic(call, in.ResourceArn)
	if err != nil {
		return nil, err
	}
	return &sns.TagResourceOutput{}, b.tags.Merge(requestTags(in.Tags), t.arn)
}

func (b *Backend) untagResource(call *core.Call, in *sns.UntagResourceInput) (*sns.UntagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.taggedTopic(call, in.ResourceArn)
	if err != nil {
		return nil, err
	}
	b.tags.Remove(t.arn, in.TagKeys...)
	return &sns.UntagResourceOutput{}, nil
}

func (b *Backend) listTagsForResource(call *core.Call, in *sns.ListTagsForResourceInput) (*sns.ListTagsForResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.taggedTopic(call, in.ResourceArn)
	if err != nil {
		return nil, err
	}
	return &sns.ListTagsForResourceOutput{Tags: core.TagList(b.tags, t.arn, func(k, v string) types.Tag {
		return types.Tag{Key: aws.String(k), Value: aws.String(v)}
	})}, nil
}
