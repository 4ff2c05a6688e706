package ecr

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tooManyTags is ECR's answer to more than 50 tags on a repository.
var tooManyTags = core.Errorf("TooManyTagsException", "Exceeded maximum of 50 tags per resource")

// tagRules are ECR's limits on a repository's tags: 50, keys of 1 to 128 characters, values of
// at most 256, and no "aws:" prefix (Amazon ECR User Guide, Tagging a private repository).
var tagRules = core.TagRules{
	MaxTags:  50,
	Reserved: []string{"aws:"},
	TooMany:  tooManyTags,
	Invalid: func(problem string) *core.APIError {
		return core.Errorf("InvalidTagParameterException", "Invalid tag: %s", problem)
	},
}

// requestTags returns the tags of a request as a map, a key given twice keeping its last value.
func requestTags(tags []types.Tag) (map[string]string, error) {
	if len(tags) > tagRules.MaxTags {
		return nil, tooManyTags
	}
	out, _ := core.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
	return out, nil
}

// repositoryARN is the form of a repository ARN; its groups are the account and the name.
var repositoryARN = regexp.MustCompile(`^arn:aws[a-z-]*:ecr:[a-z0-9-]+:([0-9]{12}):repository/(.+)$`)

// byARN returns the repository a resource ARN names in the call's region. The caller holds b.mu.
func (b *Backend) byARN(call *core.Call, arn *string) (*repository, error) {
	m := repositoryARN.FindStringSubmatch(aws.ToString(arn))
	if m == nil {
		return nil, invalidParameter("resourceArn", "Invalid ARN")
	}
	r, err := b.lookup(call, &m[1], &m[2])
	if err != nil {
		return nil, err
	}
	if r.arn != *arn {
		return nil, repositoryNotFound(m[2], m[1])
	}
	return r, nil
}

// tagResource adds tags to a repository or replaces their values.
func (b *Backend) tagResource(call *core.Call, in *ecr.TagResourceInput) (*ecr.TagResourceOutput, error) {
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r, err := b.byARN(call, in.ResourceArn)
	if err != nil {
		return nil, err
	}
	if err := b.tags.Merge(tags, r.arn); err != nil {
		return nil, err
	}
	return &ecr.TagResourceOutput{}, nil
}

// untagResource removes tags from a repository; keys it does not have are ignored.
func (b *Backend) untagResource(call *core.Call, in *ecr.UntagResourceInput) (*ecr.UntagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r, err := b.byARN(call, in.ResourceArn)
	if err != nil {
		return nil, err
	}
	b.tags.Remove(r.arn, in.TagKeys...)
	return &ecr.UntagResourceOutput{}, nil
}

// listTagsForResource lists the tags of a repository.
func (b *Backend) listTagsForResource(call *core.Call, in *ecr.ListTagsForResourceInput) (*ecr.ListTagsForResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r, err := b.byARN(call, in.ResourceArn)
	if err != nil {
		return nil, err
	}
	return &ecr.ListTagsForResourceOutput{Tags: core.TagList(b.tags, r.arn, func(k, v string) types.Tag {
		return types.Tag{Key: aws.String(k), Value: aws.String(v)}
	})}, nil
}
