package ecr

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are ECR's limits on a repository's tags: 50, keys of 1 to 128 characters, values of
// at most 256, and no "aws:" prefix (Amazon ECR User Guide, Tagging a private repository); a
// request of more than 50 is refused before the repository is looked up.
var tagRules = core.AWSTagRules(core.Errorf("TooManyTagsException", "Exceeded maximum of 50 tags per resource"),
	core.InvalidTag("InvalidTagParameterException", "Invalid tag: %s")).CountingRequests()

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

// tagOperations are ECR's tag operations, TagResource, UntagResource and ListTagsForResource, on
// the resource a request names by ResourceArn.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.TagOperations(b.tagging(), "ResourceArn", (*ecr.Client).TagResource, (*ecr.Client).UntagResource, (*ecr.Client).ListTagsForResource)
}

// tagging serves the tag operations on the repositories of the caller's registry, by ARN.
func (b *Backend) tagging() core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: b.state, Rules: tagRules, Pair: core.TagPair[types.Tag], Tag: core.NewTag[types.Tag],
		Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
			r, err := byARN(b.state.Of(call), call, arn)
			if err != nil {
				return core.TagTarget{}, err
			}
			return core.TagTarget{Tags: b.tags, ID: r.arn}, nil
		}}
}
