package iam

import (
	"fmt"
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
// answers constraints of its API model).
var tagRules = core.TagRules{
	MaxTags: maxTags,
	TooMany: limitExceeded("The number of tags has reached the maximum limit of %d.", maxTags),
	Invalid: func(problem string) *core.APIError {
		return core.Errorf("ValidationError", "1 validation error detected: %s", problem)
	},
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

// mergeTags adds tags to those of the resource arn, a new key replacing an existing one that
// differs from it only in case. Within IAM's limits it changes nothing and returns the error.
func (a *account) mergeTags(arn string, tags map[string]string) error {
	merged := a.tags.Map(arn)
	for k, v := range tags {
		for have := range merged {
			if strings.EqualFold(have, k) {
				delete(merged, have)
			}
		}
		merged[k] = v
	}
	return a.tags.Replace(arn, merged)
}

// removeTags removes from the tags of the resource arn those whose keys match keys without regard
// to case.
func (a *account) removeTags(arn string, keys []string) {
	for have := range a.tags.Map(arn) {
		for _, k := range keys {
			if strings.EqualFold(have, k) {
				a.tags.Remove(arn, have)
			}
		}
	}
}

// tagList returns the tags of the resource arn sorted by key, or nil when it has none: IAM leaves
// Tags out of an entity that has none.
func (a *account) tagList(arn string) []types.Tag {
	list := core.TagList(a.tags, arn, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
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

// pageTags returns one page of the tags of the resource arn for a List...Tags request.
func (a *account) pageTags(arn string, marker *string, maxItems *int32) ([]types.Tag, listing, error) {
	all := core.TagList(a.tags, arn, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
	return page(all, marker, maxItems)
}

// finder returns the entity of an account that a request names, or AWS's error: (*account).role
// or (*account).profile.
type finder[E named] func(a *account, call *core.Call, name *string) (E, error)

// tagEntity adds or replaces tags of the entity that find returns for name.
func tagEntity[E named](b *Backend, call *core.Call, find finder[E], name *string, list []types.Tag) error {
	tags, err := requestTags(list)
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.account(call)
	e, err := find(a, call, name)
	if err != nil {
		return err
	}
	return a.mergeTags(e.base().arn, tags)
}

// untagEntity removes tags from the entity that find returns for name; keys it does not have are
// ignored.
func untagEntity[E named](b *Backend, call *core.Call, find finder[E], name *string, keys []string) error {
	if err := checkTagKeys(keys); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.account(call)
	e, err := find(a, call, name)
	if err != nil {
		return err
	}
	a.removeTags(e.base().arn, keys)
	return nil
}

// listEntityTags returns one page of the tags of the entity that find returns for name, sorted
// by key.
func listEntityTags[E named](b *Backend, call *core.Call, find finder[E], name, marker *string, maxItems *int32) ([]types.Tag, listing, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.account(call)
	e, err := find(a, call, name)
	if err != nil {
		return nil, listing{}, err
	}
	return a.pageTags(e.base().arn, marker, maxItems)
}

// tagRole adds or replaces tags of a role.
func (b *Backend) tagRole(call *core.Call, in *iam.TagRoleInput) (*iam.TagRoleOutput, error) {
	if err := tagEntity(b, call, (*account).role, in.RoleName, in.Tags); err != nil {
		return nil, err
	}
	return &iam.TagRoleOutput{}, nil
}

// untagRole removes tags from a role; keys it does not have are ignored.
func (b *Backend) untagRole(call *core.Call, in *iam.UntagRoleInput) (*iam.UntagRoleOutput, error) {
	if err := untagEntity(b, call, (*account).role, in.RoleName, in.TagKeys); err != nil {
		return nil, err
	}
	return &iam.UntagRoleOutput{}, nil
}

// listRoleTags returns one page of a role's tags, sorted by key.
func (b *Backend) listRoleTags(call *core.Call, in *iam.ListRoleTagsInput) (*iam.ListRoleTagsOutput, error) {
	tags, l, err := listEntityTags(b, call, (*account).role, in.RoleName, in.Marker, in.MaxItems)
	if err != nil {
		return nil, err
	}
	return &iam.ListRoleTagsOutput{Tags: tags, IsTruncated: l.truncated, Marker: l.marker}, nil
}

// tagInstanceProfile adds or replaces tags of an instance profile.
func (b *Backend) tagInstanceProfile(call *core.Call, in *iam.TagInstanceProfileInput) (*iam.TagInstanceProfileOutput, error) {
	if err := tagEntity(b, call, (*account).profile, in.InstanceProfileName, in.Tags); err != nil {
		return nil, err
	}
	return &iam.TagInstanceProfileOutput{}, nil
}

// untagInstanceProfile removes tags from an instance profile; keys it does not have are ignored.
func (b *Backend) untagInstanceProfile(call *core.Call, in *iam.UntagInstanceProfileInput) (*iam.UntagInstanceProfileOutput, error) {
	if err := untagEntity(b, call, (*account).profile, in.InstanceProfileName, in.TagKeys); err != nil {
		return nil, err
	}
	return &iam.UntagInstanceProfileOutput{}, nil
}

// listInstanceProfileTags returns one page of an instance profile's tags, sorted by key.
func (b *Backend) listInstanceProfileTags(call *core.Call, in *iam.ListInstanceProfileTagsInput) (*iam.ListInstanceProfileTagsOutput, error) {
	tags, l, err := listEntityTags(b, call, (*account).profile, in.InstanceProfileName, in.Marker, in.MaxItems)
	if err != nil {
		return nil, err
	}
	return &iam.ListInstanceProfileTagsOutput{Tags: tags, IsTruncated: l.truncated, Marker: l.marker}, nil
}
