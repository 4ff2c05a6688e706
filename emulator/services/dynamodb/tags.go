package dynamodb

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are DynamoDB's limits on tags: 50 a resource, keys of 1 to 128 characters, values of
// at most 256, and no "aws:" prefix, which only AWS may assign (Amazon DynamoDB Developer Guide,
// Tagging restrictions in DynamoDB; API Reference, Tag). DynamoDB refuses a request that breaks
// them with its ValidationException.
var tagRules = core.TagRules{
	MaxTags:  50,
	Reserved: []string{"aws:"},
	TooMany:  validation("One or more parameter values were invalid: Too many tags"),
	Invalid: func(problem string) *core.APIError {
		return validation("One or more parameter values were invalid: %s", problem)
	},
}

// requestTags returns the tags of a request as a map; a key given twice keeps its last value.
func requestTags(tags []types.Tag) map[string]string {
	out, _ := core.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
	return out
}

func (b *Backend) tagResource(call *core.Call, in *dynamodb.TagResourceInput) (*dynamodb.TagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.lookup(call, aws.ToString(in.ResourceArn))
	if err != nil {
		return nil, err
	}
	return &dynamodb.TagResourceOutput{}, b.tags.Merge(requestTags(in.Tags), t.arn)
}

func (b *Backend) untagResource(call *core.Call, in *dynamodb.UntagResourceInput) (*dynamodb.UntagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.lookup(call, aws.ToString(in.ResourceArn))
	if err != nil {
		return nil, err
	}
	b.tags.Remove(t.arn, in.TagKeys...)
	return &dynamodb.UntagResourceOutput{}, nil
}

func (b *Backend) listTagsOfResource(call *core.Call, in *dynamodb.ListTagsOfResourceInput) (*dynamodb.ListTagsOfResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.lookup(call, aws.ToString(in.ResourceArn))
	if err != nil {
		return nil, err
	}
	return &dynamodb.ListTagsOfResourceOutput{Tags: core.TagList(b.tags, t.arn, func(k, v string) types.Tag {
		return types.Tag{Key: aws.String(k), Value: aws.String(v)}
	})}, nil
}
