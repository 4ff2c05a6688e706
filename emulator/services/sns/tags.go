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
	Invalid: core.InvalidTag("InvalidParameter", "Invalid parameter: Tags Reason: %s"),
}

// tagOperations are SNS's tag operations, TagResource, UntagResource and ListTagsForResource, on
// the resource a request names by ResourceArn.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.TagOperations(b.tagging(), "ResourceArn", (*sns.Client).TagResource, (*sns.Client).UntagResource, (*sns.Client).ListTagsForResource)
}

// tagging serves the tag operations on the caller's topics, by ARN; an ARN that names none of
// them is ResourceNotFound.
func (b *Backend) tagging() core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: &b.mu, Rules: tagRules, Pair: core.TagPair[types.Tag],
		Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
			if _, err := b.topicFor(call, arn); err != nil {
				return core.TagTarget{}, core.NotFoundf("ResourceNotFound", "Resource does not exist")
			}
			return core.TagTarget{Tags: b.tags, ID: aws.ToString(arn)}, nil
		},
		Tag: core.NewTag[types.Tag],
	}
}
