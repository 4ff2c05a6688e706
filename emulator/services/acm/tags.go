package acm

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are ACM's limits on a certificate's tags: 50, keys of 1 to 128 characters and values
// of at most 256, and no "aws:" prefix (Certificate Manager User Guide, Tag restrictions), broken
// with TooManyTagsException (also for a request of more than 50) and InvalidTagException.
var tagRules = core.AWSTagRules(
	core.Errorf("TooManyTagsException", "The request contains too many tags. Try the request again with fewer tags."),
	core.InvalidTag("InvalidTagException", "One or both of the values that make up the key-value pair is not valid: %s.")).CountingRequests()

// newTag returns a tag as ACM lists it: a tag without a value has none.
func newTag(k, v string) types.Tag {
	t := types.Tag{Key: aws.String(k)}
	if v != "" {
		t.Value = aws.String(v)
	}
	return t
}

// noTags is the ValidationException of a tag operation given no tags.
var noTags = validation("1 validation error detected: Value '[]' at 'tags' failed to satisfy constraint: Member must have length greater than or equal to 1")

// tagging serves the tag operations on the certificates of the caller's region, by ARN.
func (b *Backend) tagging() core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: b.state, Rules: tagRules, Pair: core.TagPair[types.Tag], Tag: newTag,
		Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
			c, err := lookup(b.state.Of(call), call, arn)
			if err != nil {
				return core.TagTarget{}, err
			}
			return core.TagTarget{Tags: b.tags, ID: c.arn}, nil
		}}
}

// addTagsToCertificate adds tags to a certificate or replaces their values.
func (b *Backend) addTagsToCertificate(call *core.Call, in *acm.AddTagsToCertificateInput) (*acm.AddTagsToCertificateOutput, error) {
	if len(in.Tags) == 0 {
		return nil, noTags
	}
	return &acm.AddTagsToCertificateOutput{}, b.tagging().AddList(call, in.CertificateArn, in.Tags)
}

// removeTagsFromCertificate removes tags from a certificate: a tag given with a value only when it
// has that value.
func (b *Backend) removeTagsFromCertificate(call *core.Call, in *acm.RemoveTagsFromCertificateInput) (*acm.RemoveTagsFromCertificateOutput, error) {
	if len(in.Tags) == 0 {
		return nil, noTags
	}
	for _, t := range in.Tags {
		if k := aws.ToString(t.Key); strings.HasPrefix(strings.ToLower(k), "aws:") {
			return nil, tagRules.Invalid(fmt.Sprintf("Tag keys starting with 'aws:' are reserved for internal use (%s)", k))
		}
	}
	return &acm.RemoveTagsFromCertificateOutput{}, b.tagging().With(call, in.CertificateArn, func(t core.TagTarget) error {
		for _, tag := range in.Tags {
			t.Tags.RemoveValued(t.ID, aws.ToString(tag.Key), tag.Value)
		}
		return nil
	})
}

// tagOperations are the tag operation ACM declares by its SDK client, ListTagsForCertificate, on
// the certificate a request names by CertificateArn; AddTagsToCertificate and
// RemoveTagsFromCertificate, which check more of a request, are among its operations.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.ListTagsOperation(b.tagging(), "CertificateArn", (*acm.Client).ListTagsForCertificate)
}
