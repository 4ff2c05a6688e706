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

// exists reports whether the caller has a resource with id, of any type tags may be put on.
func (r *region) exists(id string) error {
	for _, k := range kinds {
		if !strings.HasPrefix(id, k.prefix+"-") {
			continue
		}
		if err := k.check(id); err != nil {
			return err
		}
		if !r.has(k, id) {
			return k.missing(id)
		}
		return nil
	}
	return core.Errorf("InvalidID", "The ID '%s' is not valid", id)
}

// has reports whether a resource of kind k exists.
func (r *region) has(k kind, id string) bool {
	return map[kind]bool{vpcKind: r.vpcs[id] != nil, subnetKind: r.subnets[id] != nil, igwKind: r.igws[id] != nil, eipKind: r.eips[id] != nil,
		natKind: r.nats[id] != nil, sgKind: r.groups[id] != nil, ruleKind: r.rules[id] != nil, rtbKind: r.tables[id] != nil}[k]
}

func (b *Backend) createTags(call *core.Call, in *ec2.CreateTagsInput) (*ec2.CreateTagsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.region(call)
	for _, id := range in.Resources {
		if err := r.exists(id); err != nil {
			return nil, err
		}
	}
	for _, t := range in.Tags {
		if err := checkTag(aws.ToString(t.Key), aws.ToString(t.Value)); err != nil {
			return nil, err
		}
	}
	for _, id := range in.Resources {
		tags := r.tagsOf(id)
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
	r := b.region(call)
	for _, id := range in.Resources {
		if err := r.exists(id); err != nil {
			return nil, err
		}
		tags := r.tagsOf(id)
		for _, t := range in.Tags {
			k := aws.ToString(t.Key)
			if t.Value == nil || tags[k] == aws.ToString(t.Value) {
				delete(tags, k)
			}
		}
	}
	return &ec2.DeleteTagsOutput{}, nil
}
