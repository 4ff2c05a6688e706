package acm

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tooManyTags is ACM's answer to more than 50 tags on a certificate (or in a request).
var tooManyTags = core.Errorf("TooManyTagsException", "The request contains too many tags. Try the request again with fewer tags.")

// tagRules are ACM's limits on a certificate's tags: 50, keys of 1 to 128 characters and values
// of at most 256, and no "aws:" prefix (Certificate Manager User Guide, Tag restrictions), broken
// with TooManyTagsException and InvalidTagException.
var tagRules = core.TagRules{
	MaxTags:  50,
	Reserved: []string{"aws:"},
	TooMany:  tooManyTags,
	Invalid: func(problem string) *core.APIError {
		return core.Errorf("InvalidTagException", "One or both of the values that make up the key-value pair is not valid: %s.", problem)
	},
}

// requestTags returns the tags of a request as a map, a key given twice keeping its last value,
// and the error for more than 50 of them.
func requestTags(tags []types.Tag) (map[string]string, error) {
	if len(tags) > tagRules.MaxTags {
		return nil, tooManyTags
	}
	out, _ := core.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
	return out, nil
}

// tagList returns the tags of a certificate as ACM lists them; a tag without a value has none.
func (b *Backend) tagList(arn string) []types.Tag {
	return core.TagList(b.tags, arn, func(k, v string) types.Tag {
		t := types.Tag{Key: aws.String(k)}
		if v != "" {
			t.Value = aws.String(v)
		}
		return t
	})
}

// addTagsToCertificate adds tags to a certificate or replaces their values.
func (b *Backend) addTagsToCertificate(call *core.Call, in *acm.AddTagsToCertificateInput) (*acm.AddTagsToCertificateOutput, error) {
	if len(in.Tags) == 0 {
		return nil, validation("1 validation error detected: Value '[]' at 'tags' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	c, err := b.lookup(call, in.CertificateArn)
	if err != nil {
		return nil, err
	}
	if err := b.tags.Merge(tags, c.arn); err != nil {
		return nil, err
	}
	return &acm.AddTagsToCertificateOutput{}, nil
}

// removeTagsFromCertificate removes tags from a certificate: a tag given with a value only when it
// has that value.
func (b *Backend) removeTagsFromCertificate(call *core.Call, in *acm.RemoveTagsFromCertificateInput) (*acm.RemoveTagsFromCertificateOutput, error) {
	if len(in.Tags) == 0 {
		return nil, validation("1 validation error detected: Value '[]' at 'tags' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
	for _, t := range in.Tags {
		if k := aws.ToString(t.Key); strings.HasPrefix(strings.ToLower(k), "aws:") {
			return nil, tagRules.Invalid(fmt.Sprintf("Tag keys starting with 'aws:' are reserved for internal use (%s)", k))
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	c, err := b.lookup(call, in.CertificateArn)
	if err != nil {
		return nil, err
	}
	have := b.tags.Map(c.arn)
	for _, t := range in.Tags {
		// A tag given with a value is removed only when it has that value.
		k := aws.ToString(t.Key)
		if v, ok := have[k]; ok && (t.Value == nil || *t.Value == v) {
			b.tags.Remove(c.arn, k)
		}
	}
	return &acm.RemoveTagsFromCertificateOutput{}, nil
}

// listTagsForCertificate lists the tags of a certificate.
func (b *Backend) listTagsForCertificate(call *core.Call, in *acm.ListTagsForCertificateInput) (*acm.ListTagsForCertificateOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c, err := b.lookup(call, in.CertificateArn)
	if err != nil {
		return nil, err
	}
	return &acm.ListTagsForCertificateOutput{Tags: b.tagList(c.arn)}, nil
}
