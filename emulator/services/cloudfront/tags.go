package cloudfront

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront"
	"github.com/aws/aws-sdk-go-v2/service/cloudfront/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// invalidTagging returns CloudFront's answer to tags it refuses.
func invalidTagging(problem string) *core.APIError {
	return core.Errorf("InvalidTagging", "The tagging specified is not valid: %s.", problem)
}

// tagRules are CloudFront's limits on a distribution's tags: 50, keys of 1 to 128 characters and
// values of at most 256 (CloudFront Developer Guide, Tag restrictions), refused with
// InvalidTagging.
var tagRules = core.TagRules{
	MaxTags: 50,
	TooMany: invalidTagging("a resource can have at most 50 tags"),
	Invalid: invalidTagging,
}

// tagCharacters is the pattern of CloudFront tag keys and values: letters, digits, spaces and
// _ . : / = + - @.
var tagCharacters = regexp.MustCompile(`^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$`)

// distributionARNForm is the form of a distribution ARN.
var distributionARNForm = regexp.MustCompile(`^arn:aws[a-z-]*:cloudfront::\d{12}:distribution/[A-Z0-9]+$`)

// requestTags returns the tags of a request as a map, refusing characters CloudFront does not
// allow; a key given twice keeps its last value.
func requestTags(tags *types.Tags) (map[string]string, error) {
	if tags == nil {
		return nil, nil
	}
	out, _ := core.TagMap(tags.Items, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
	for k, v := range out {
		if !tagCharacters.MatchString(k) || !tagCharacters.MatchString(v) {
			return nil, invalidTagging("keys and values may contain only letters, digits, spaces and _ . : / = + - @")
		}
	}
	return out, nil
}

// tagged returns where the distribution a Resource ARN names keeps its tags. The caller holds
// the backend's mutex.
func (a *account) tagged(arn *string) (core.TagTarget, error) {
	if !distributionARNForm.MatchString(aws.ToString(arn)) {
		return core.TagTarget{}, invalidArgument("The parameter Resource is not a valid CloudFront ARN: %q.", aws.ToString(arn))
	}
	for _, d := range a.distributions {
		if d.arn == aws.ToString(arn) {
			return core.TagTarget{Tags: a.tags, ID: d.arn}, nil
		}
	}
	return core.TagTarget{}, notFound("NoSuchResource", "The specified resource does not exist: "+aws.ToString(arn))
}

// tagging serves the tag operations on the distributions of the caller's account, by ARN.
func (b *Backend) tagging() core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: b.state, Tag: func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} },
		Find: func(call *core.Call, arn *string) (core.TagTarget, error) { return b.state.Of(call).tagged(arn) }}
}

// tagResource adds tags to a distribution.
func (b *Backend) tagResource(call *core.Call, in *cloudfront.TagResourceInput) (*cloudfront.TagResourceOutput, error) {
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	return &cloudfront.TagResourceOutput{}, b.tagging().Add(call, in.Resource, tags)
}

// untagKeys returns the keys an UntagResource request names, none when it has no TagKeys.
func untagKeys(in *cloudfront.UntagResourceInput) (*string, []string) {
	if in.TagKeys == nil {
		return in.Resource, nil
	}
	return in.Resource, in.TagKeys.Items
}

// tagOperations are the tag operations CloudFront declares with core's, UntagResource and
// ListTagsForResource, on the distribution a request names by ARN; TagResource, which checks the
// tags' characters, is among its operations.
func (b *Backend) tagOperations() map[string]core.Operation {
	return map[string]core.Operation{
		"UntagResource": core.RemoveOp[cloudfront.UntagResourceOutput](b.tagging(), untagKeys),
		"ListTagsForResource": core.ListOp(b.tagging(), func(in *cloudfront.ListTagsForResourceInput) *string { return in.Resource },
			func(tags []types.Tag) *cloudfront.ListTagsForResourceOutput {
				return &cloudfront.ListTagsForResourceOutput{Tags: &types.Tags{Items: tags}}
			}),
	}
}
