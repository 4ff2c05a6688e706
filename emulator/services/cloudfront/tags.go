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

// tagged returns the account whose distribution a Resource ARN names. The caller holds b.mu.
func (b *Backend) tagged(call *core.Call, arn *string) (*account, error) {
	if !distributionARNForm.MatchString(aws.ToString(arn)) {
		return nil, invalidArgument("The parameter Resource is not a valid CloudFront ARN: %q.", aws.ToString(arn))
	}
	a := b.accountOf(call)
	for _, d := range a.distributions {
		if d.arn == aws.ToString(arn) {
			return a, nil
		}
	}
	return nil, notFound("NoSuchResource", "The specified resource does not exist: "+aws.ToString(arn))
}

// tagResource adds tags to a distribution.
func (b *Backend) tagResource(call *core.Call, in *cloudfront.TagResourceInput) (*cloudfront.TagResourceOutput, error) {
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	a, err := b.tagged(call, in.Resource)
	if err != nil {
		return nil, err
	}
	if err := a.tags.Merge(tags, aws.ToString(in.Resource)); err != nil {
		return nil, err
	}
	return &cloudfront.TagResourceOutput{}, nil
}

// untagResource removes tags from a distribution by key.
func (b *Backend) untagResource(call *core.Call, in *cloudfront.UntagResourceInput) (*cloudfront.UntagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, err := b.tagged(call, in.Resource)
	if err != nil {
		return nil, err
	}
	if in.TagKeys != nil {
		a.tags.Remove(aws.ToString(in.Resource), in.TagKeys.Items...)
	}
	return &cloudfront.UntagResourceOutput{}, nil
}

// listTagsForResource returns a distribution's tags.
func (b *Backend) listTagsForResource(call *core.Call, in *cloudfront.ListTagsForResourceInput) (*cloudfront.ListTagsForResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, err := b.tagged(call, in.Resource)
	if err != nil {
		return nil, err
	}
	items := core.TagList(a.tags, aws.ToString(in.Resource), func(k, v string) types.Tag {
		return types.Tag{Key: aws.String(k), Value: aws.String(v)}
	})
	return &cloudfront.ListTagsForResourceOutput{Tags: &types.Tags{Items: items}}, nil
}
