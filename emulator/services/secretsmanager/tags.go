package secretsmanager

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are Secrets Manager's limits on a secret's tags: 50, keys of 1 to 128 characters and
// values of at most 256, and no "aws:" prefix, which AWS keeps for itself (AWS General Reference,
// Tagging quotas). Secrets Manager declares no error of its own for them and answers with its
// InvalidParameterException ("The parameter name or value is invalid").
var tagRules = core.TagRules{
	MaxTags:  50,
	Reserved: []string{"aws:"},
	TooMany:  core.Errorf("InvalidParameterException", "The number of tags on the secret exceeds the limit of 50."),
	Invalid: func(problem string) *core.APIError {
		return core.Errorf("InvalidParameterException", "Invalid tag: %s.", problem)
	},
}

// requestTags returns the tags of a request as a map; a key given twice keeps its last value.
func requestTags(tags []types.Tag) map[string]string {
	out, _ := core.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
	return out
}

// tagResource adds tags to a secret or replaces their values.
func (b *Backend) tagResource(call *core.Call, in *secretsmanager.TagResourceInput) (*secretsmanager.TagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, err := b.primary(call, in.SecretId)
	if err != nil {
		return nil, err
	}
	if err := b.tags.Merge(requestTags(in.Tags), s.primaryARN); err != nil {
		return nil, err
	}
	s.changed = call.Now
	return &secretsmanager.TagResourceOutput{}, nil
}

// untagResource removes tags from a secret; keys it does not have are ignored.
func (b *Backend) untagResource(call *core.Call, in *secretsmanager.UntagResourceInput) (*secretsmanager.UntagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, err := b.primary(call, in.SecretId)
	if err != nil {
		return nil, err
	}
	b.tags.Remove(s.primaryARN, in.TagKeys...)
	s.changed = call.Now
	return &secretsmanager.UntagResourceOutput{}, nil
}
