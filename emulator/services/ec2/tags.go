package ec2

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxTags is EC2's limit of tags per resource.
const maxTags = 50

// checkTag validates a tag as EC2 does.
func checkTag(k, v string) error {
	switch {
	case k == "" || len(k) > 128:
		return core.Errorf("InvalidParameterValue", "Tag keys must be between 1 and 128 characters")
	case strings.HasPrefix(strings.ToLower(k), "aws:"):
		return core.Errorf("InvalidParameterValue", "Tag keys starting with 'aws:' are reserved for internal use")
	case len(v) > 256:
		return core.Errorf("InvalidParameterValue", "Tag values must be at most 256 characters")
	}
	return nil
}

// specTags returns the tags TagSpecifications give a resource of type rt.
func specTags(specs []types.TagSpecification, rt types.ResourceType) (map[string]string, error) {
	out := map[string]string{}
	for _, s := range specs {
		if s.ResourceType != rt {
			return nil, core.Errorf("InvalidParameterValue", "'%s' is not a valid taggable resource type for this operation.", s.ResourceType)
		}
		for _, t := range s.Tags {
			if err := checkTag(aws.ToString(t.Key), aws.ToString(t.Value)); err != nil {
				return nil, err
			}
			out[aws.ToString(t.Key)] = aws.ToString(t.Value)
		}
	}
	if len(out) > maxTags {
		return nil, core.Errorf("TagLimitExceeded", "The maximum number of tags for a resource is %d", maxTags)
	}
	return out, nil
}

func tagList(tags map[string]string) []types.Tag {
	return core.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

// exists reports whether the caller has a resource with id. The caller holds b.mu.
func (b *Backend) exists(call *core.Call, id string) error {
	if strings.HasPrefix(id, "vpc-") {
		if _, ok := b.vpcsOf(call)[id]; ok {
			return nil
		}
		return vpcNotFound(id)
	}
	return core.Errorf("InvalidID", "The ID '%s' is not valid", id)
}

func (b *Backend) createTags(call *core.Call, in *ec2.CreateTagsInput) (*ec2.CreateTagsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range in.Resources {
		if err := b.exists(call, id); err != nil {
			return nil, err
		}
	}
	for _, t := range in.Tags {
		if err := checkTag(aws.ToString(t.Key), aws.ToString(t.Value)); err != nil {
			return nil, err
		}
	}
	for _, id := range in.Resources {
		tags := b.tagsOf(call.Scope(), id)
		for _, t := range in.Tags {
			tags[aws.ToString(t.Key)] = aws.ToString(t.Value)
		}
		if len(tags) > maxTags {
			return nil, core.Errorf("TagLimitExceeded", "The maximum number of tags for a resource is %d", maxTags)
		}
	}
	return &ec2.CreateTagsOutput{}, nil
}

// deleteTags removes tags: a tag given without a value is removed whatever its value; with a
// value, only when the value matches.
func (b *Backend) deleteTags(call *core.Call, in *ec2.DeleteTagsInput) (*ec2.DeleteTagsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range in.Resources {
		if err := b.exists(call, id); err != nil {
			return nil, err
		}
		tags := b.tagsOf(call.Scope(), id)
		for _, t := range in.Tags {
			k := aws.ToString(t.Key)
			if t.Value == nil || tags[k] == aws.ToString(t.Value) {
				delete(tags, k)
			}
		}
	}
	return &ec2.DeleteTagsOutput{}, nil
}

// matchFilters applies EC2 filters to a resource: fields by filter name, and the tag:<key>,
// tag-key and tag-value filters. An unknown filter name is an error, as on AWS.
func matchFilters(filters []types.Filter, tags []types.Tag, fields map[string]string) (bool, error) {
	for _, f := range filters {
		name := aws.ToString(f.Name)
		var values []string
		switch {
		case strings.HasPrefix(name, "tag:"):
			for _, t := range tags {
				if aws.ToString(t.Key) == name[4:] {
					values = append(values, aws.ToString(t.Value))
				}
			}
		case name == "tag-key":
			for _, t := range tags {
				values = append(values, aws.ToString(t.Key))
			}
		case name == "tag-value":
			for _, t := range tags {
				values = append(values, aws.ToString(t.Value))
			}
		default:
			v, ok := fields[name]
			if !ok {
				return false, core.Errorf("InvalidParameterValue", "The filter '%s' is invalid", name)
			}
			values = []string{v}
		}
		if !anyMatch(f.Values, values) {
			return false, nil
		}
	}
	return true, nil
}

// anyMatch reports whether a filter value (with * and ? wildcards) matches a resource value.
func anyMatch(patterns, values []string) bool {
	for _, p := range patterns {
		for _, v := range values {
			if ok, _ := pathMatch(p, v); ok {
				return true
			}
		}
	}
	return false
}
