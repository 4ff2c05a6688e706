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
var tagRules = core.AWSTagRules(validation("One or more parameter values were invalid: Too many tags"),
	core.InvalidTag("ValidationException", "One or more parameter values were invalid: %s"))

// tagOperations are DynamoDB's tag operations, TagResource, UntagResource and ListTagsOfResource,
// on the resource a request names by ResourceArn.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.TagOperations(b.tagging(), "ResourceArn", (*dynamodb.Client).TagResource, (*dynamodb.Client).UntagResource, (*dynamodb.Client).ListTagsOfResource)
}

// tagging serves the tag operations on the tables of the caller's region, by ARN.
func (b *Backend) tagging() core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: &b.mu, Rules: tagRules, Pair: core.TagPair[types.Tag],
		Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
			t, err := b.lookup(call, aws.ToString(arn))
			if err != nil {
				return core.TagTarget{}, err
			}
			return core.TagTarget{Tags: b.tags, ID: t.arn}, nil
		},
		Tag: core.NewTag[types.Tag],
	}
}
