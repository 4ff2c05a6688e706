package secretsmanager

import (
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are Secrets Manager's limits on a secret's tags: 50, keys of 1 to 128 characters and
// values of at most 256, and no "aws:" prefix, which AWS keeps for itself (AWS General Reference,
// Tagging quotas). Secrets Manager declares no error of its own for them and answers with its
// InvalidParameterException ("The parameter name or value is invalid").
var tagRules = core.AWSTagRules(core.Errorf("InvalidParameterException", "The number of tags on the secret exceeds the limit of 50."),
	core.InvalidTag("InvalidParameterException", "Invalid tag: %s."))

// tagging serves the tag operations on the primary secrets of the caller's region, by name or
// ARN; a change of a secret's tags dates its last change.
func (b *Backend) tagging() core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: &b.mu, Rules: tagRules, Pair: core.TagPair[types.Tag],
		Find: func(call *core.Call, id *string) (core.TagTarget, error) {
			s, err := b.primary(call, id)
			if err != nil {
				return core.TagTarget{}, err
			}
			return core.TagTarget{Tags: b.tags, ID: s.primaryARN, Touch: func() { s.changed = call.Now }}, nil
		},
	}
}

// tagOperations are Secrets Manager's tag operations, TagResource and UntagResource, on the secret
// a request names by SecretId; it lists a secret's tags in DescribeSecret.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.TagChangeOperations(b.tagging(), "SecretId", (*secretsmanager.Client).TagResource, (*secretsmanager.Client).UntagResource)
}
