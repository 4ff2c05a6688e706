package lambda

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are Lambda's limits on function tags: 50 a function (AWS Lambda Developer Guide,
// Lambda quotas and Using tags on Lambda functions). Lambda answers a request that breaks them
// with InvalidParameterValueException, the error TagResource and CreateFunction list for a
// parameter that is not valid (AWS Lambda API Reference).
var tagRules = core.TagRules{
	MaxTags: 50,
	TooMany: invalidParameter("A function can have at most 50 tags"),
	Invalid: func(problem string) *core.APIError { return invalidParameter("%s", problem) },
}

// taggedARN returns the ARN under which the function a tag request names, by name or ARN, keeps
// its tags: tags belong to the function, not to its versions. The caller holds b.mu.
func (b *Backend) taggedARN(call *core.Call, resource *string) (string, error) {
	f, err := b.unqualified(call, resource)
	if err != nil {
		return "", err
	}
	return aws.ToString(f.cfg.FunctionArn), nil
}

// tagResource adds tags to a function, replacing the values of keys it has.
func (b *Backend) tagResource(call *core.Call, in *lambda.TagResourceInput) (*lambda.TagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	arn, err := b.taggedARN(call, in.Resource)
	if err != nil {
		return nil, err
	}
	return &lambda.TagResourceOutput{}, b.tags.Merge(in.Tags, arn)
}

// untagResource removes tags from a function by key.
func (b *Backend) untagResource(call *core.Call, in *lambda.UntagResourceInput) (*lambda.UntagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	arn, err := b.taggedARN(call, in.Resource)
	if err != nil {
		return nil, err
	}
	b.tags.Remove(arn, in.TagKeys...)
	return &lambda.UntagResourceOutput{}, nil
}

// listTags answers a function's tags.
func (b *Backend) listTags(call *core.Call, in *lambda.ListTagsInput) (*lambda.ListTagsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	arn, err := b.taggedARN(call, in.Resource)
	if err != nil {
		return nil, err
	}
	return &lambda.ListTagsOutput{Tags: b.tags.Map(arn)}, nil
}
