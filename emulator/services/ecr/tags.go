package ecr

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are ECR's limits on a repository's tags: 50, keys of 1 to 128 characters, values of
// at most 256, and no "aws:" prefix (Amazon ECR User Guide, Tagging a private repository); a
// request of more than 50 is refused before the repository is looked up.
var tagRules = core.TagRules{
	MaxTags:      50,
	Reserved:     []string{"aws:"},
	TooMany:      core.Errorf("TooManyTagsException", "Exceeded maximum of 50 tags per resource"),
	CountRequest: true,
	Invalid: func(problem string) *core.APIError {
		return core.Errorf("InvalidTagParameterException", "Invalid tag: %s", problem)
	},
}

// tagPair returns the key and value of a request's tag.
func tagPair(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }

// newTag returns a tag as ECR lists it.
func newTag(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} }

// repositoryARN is the form of a repository ARN; its groups are the account and the name.
var repositoryARN = regexp.MustCompile(`^arn:aws[a-z-]*:ecr:[a-z0-9-]+:([0-9]{12}):repository/(.+)$`)

// byARN returns the repository a resource ARN names in reg, the call's registry. The caller
// holds the backend's mutex.
func byARN(reg *registry, call *core.Call, arn *string) (*repository, error) {
	m := repositoryARN.FindStringSubmatch(aws.ToString(arn))
	if m == nil {
		return nil, invalidParameter("resourceArn", "Invalid ARN")
	}
	r, err := lookup(reg, call, &m[1], &m[2])
	if err != nil {
		return nil, err
	}
	if r.arn != *arn {
		return nil, repositoryNotFound(m[2], m[1])
	}
	return r, nil
}

// tagging serves the tag operations on the repositories of the caller's registry, by ARN.
func (b *Backend) tagging() core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: b.state, Rules: tagRules, Pair: tagPair, Tag: newTag,
		Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
			r, err := byARN(b.state.Of(call), call, arn)
			if err != nil {
				return core.TagTarget{}, err
			}
			return core.TagTarget{Tags: b.tags, ID: r.arn}, nil
		}}
}
