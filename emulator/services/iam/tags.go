package iam

import (
	"fmt"
	"maps"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxTags is how many tags an IAM role, policy or instance profile may have, and how many one
// request may name (IAM API reference, Tag and TagRole).
const maxTags = 50

// tagRules are IAM's limits on tags: 50 a resource (LimitExceeded once merged, the error TagRole
// documents), keys of 1 to 128 characters and values of at most 256 (ValidationError, as AWS
// answers constraints of its API model). IAM's tag keys are case-insensitive.
var tagRules = core.TagRules{
	MaxTags:  maxTags,
	TooMany:  limitExceeded("The number of tags has reached the maximum limit of %d.", maxTags),
	Invalid:  core.InvalidTag("ValidationError", "1 validation error detected: %s"),
	FoldCase: true,
}

// The patterns of tag keys and values in the IAM API reference (Tag).
var (
	tagKeyPattern   = regexp.MustCompile(`^[\p{L}\p{Z}\p{N}_.:/=+\-@]+$`)
	tagValuePattern = regexp.MustCompile(`^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$`)
)

// requestTags returns a request's tags as a map, or AWS's error for more than 50 tags, a key given
// twice (without regard to case: IAM's tag keys are case-insensitive) or a key or value with
// characters IAM does not allow.
func requestTags(list []types.Tag) (map[string]string, error) {
	if len(list) > maxTags {
		return nil, validationError(fmt.Sprint(len(list))+" tags", "tags", fmt.Sprintf("Member must have length less than or equal to %d", maxTags))
	}
	seen := map[string]bool{}
	for i, t := range list {
		k, v := aws.ToString(t.Key), aws.ToString(t.Value)
		if seen[strings.ToLower(k)] {
			return nil, invalidInput("Duplicate tag keys found. Please note that Tag keys are case insensitive.")
		}
		seen[strings.ToLower(k)] = true
		if k != "" && !tagKeyPattern.MatchString(k) {
			return nil, validationError(k, fmt.Sprintf("tags.%d.member.key", i+1), `Member must satisfy regular expression pattern: [\p{L}\p{Z}\p{N}_.:/=+\-@]+`)
		}
		if !tagValuePattern.MatchString(v) {
			return nil, validationError(v, fmt.Sprintf("tags.%d.member.value", i+1), `Member must satisfy regular expression pattern: [\p{L}\p{Z}\p{N}_.:/=+\-@]*`)
		}
	}
	tags, _ := core.TagMap(list, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
	return tags, nil
}

// tagList returns the tags of the resource arn sorted by key, or nil when it has none: IAM leaves
// Tags out of an entity that has none.
func (a *account) tagList(arn string) []types.Tag {
	list := core.TagList(a.tags, arn, tag)
	if len(list) == 0 {
		return nil
	}
	return list
}

// checkTagKeys returns the ValidationError AWS gives an Untag request with more than 50 keys.
func checkTagKeys(keys []string) error {
	if len(keys) > maxTags {
		return validationError(fmt.Sprint(len(keys))+" keys", "tagKeys", fmt.Sprintf("Member must have length less than or equal to %d", maxTags))
	}
	return nil
}

// tag returns the SDK tag of a key and value.
func tag(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} }

// finder returns the entity of an account that a request names, or AWS's error: (*account).role
// or (*account).profile.
type finder[E named] func(a *account, call *core.Call, name *string) (E, error)

// tagging serves the tag operations on the entities of the caller's account that find returns
// by name, with IAM's checks of a request's tags and keys.
func tagging[E named](b *Backend, find finder[E]) core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: b.state, Request: requestTags, CheckKeys: checkTagKeys, Tag: tag,
		Find: func(call *core.Call, name *string) (core.TagTarget, error) {
			a := b.state.Of(call)
			e, err := find(a, call, name)
			if err != nil {
				return core.TagTarget{}, err
			}
			return core.TagTarget{Tags: a.tags, ID: e.base().arn}, nil
		},
	}
}

// listTagsOp returns the operation that lists one page of the tags of the entity find returns,
// sorted by key: in gives the request's name, Marker and MaxItems, and out makes the response.
func listTagsOp[O, I any, E named](b *Backend, find finder[E], in func(*I) (name, marker *string, maxItems *int32), out func([]types.Tag, listing) *O) core.Operation {
	return core.Op(func(call *core.Call, req *I) (*O, error) {
		name, marker, maxItems := in(req)
		all, err := tagging(b, find).List(call, name)
		if err != nil {
			return nil, err
		}
		tags, l, err := page(all, marker, maxItems)
		if err != nil {
			return nil, err
		}
		return out(tags, l), nil
	})
}

// tagOperations are IAM's tag operations on roles (TagRole, UntagRole and ListRoleTags), on
// instance profiles (TagInstanceProfile, UntagInstanceProfile and ListInstanceProfileTags) and on
// customer managed policies (TagPolicy, UntagPolicy and ListPolicyTags) and on OpenID Connect
// providers (TagOpenIDConnectProvider, UntagOpenIDConnectProvider and
// ListOpenIDConnectProviderTags), which requests name by RoleName, InstanceProfileName, PolicyArn
// and OpenIDConnectProviderArn; an AWS managed policy cannot be tagged
// (AccessDenied).
func (b *Backend) tagOperations() map[string]core.Operation {
	ops := core.TagChangeOperations(tagging(b, (*account).role), "RoleName", (*iam.Client).TagRole, (*iam.Client).UntagRole)
	maps.Copy(ops, core.TagChangeOperations(tagging(b, (*account).profile), "InstanceProfileName", (*iam.Client).TagInstanceProfile, (*iam.Client).UntagInstanceProfile))
	maps.Copy(ops, core.TagChangeOperations(tagging(b, owning("TagPolicy")), "PolicyArn", (*iam.Client).TagPolicy, (*iam.Client).UntagPolicy))
	maps.Copy(ops, core.TagChangeOperations(tagging(b, (*account).oidcProviderByARN), "OpenIDConnectProviderArn",
		(*iam.Client).TagOpenIDConnectProvider, (*iam.Client).UntagOpenIDConnectProvider))
	ops["ListOpenIDConnectProviderTags"] = listTagsOp(b, (*account).oidcProviderByARN,
		func(in *iam.ListOpenIDConnectProviderTagsInput) (*string, *string, *int32) {
			return in.OpenIDConnectProviderArn, in.Marker, in.MaxItems
		},
		func(tags []types.Tag, l listing) *iam.ListOpenIDConnectProviderTagsOutput {
			return &iam.ListOpenIDConnectProviderTagsOutput{Tags: tags, IsTruncated: l.truncated, Marker: l.marker}
		})
	ops["ListPolicyTags"] = listTagsOp(b, (*account).findPolicy, func(in *iam.ListPolicyTagsInput) (*string, *string, *int32) {
		return in.PolicyArn, in.Marker, in.MaxItems
	},
		func(tags []types.Tag, l listing) *iam.ListPolicyTagsOutput {
			return &iam.ListPolicyTagsOutput{Tags: tags, IsTruncated: l.truncated, Marker: l.marker}
		})
	ops["ListRoleTags"] = listTagsOp(b, (*account).role, func(in *iam.ListRoleTagsInput) (*string, *string, *int32) { return in.RoleName, in.Marker, in.MaxItems },
		func(tags []types.Tag, l listing) *iam.ListRoleTagsOutput {
			return &iam.ListRoleTagsOutput{Tags: tags, IsTruncated: l.truncated, Marker: l.marker}
		})
	ops["ListInstanceProfileTags"] = listTagsOp(b, (*account).profile,
		func(in *iam.ListInstanceProfileTagsInput) (*string, *string, *int32) {
			return in.InstanceProfileName, in.Marker, in.MaxItems
		},
		func(tags []types.Tag, l listing) *iam.ListInstanceProfileTagsOutput {
			return &iam.ListInstanceProfileTagsOutput{Tags: tags, IsTruncated: l.truncated, Marker: l.marker}
		})
	return ops
}
