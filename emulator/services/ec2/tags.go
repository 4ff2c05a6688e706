package ec2

import (
	"maps"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are EC2's limits on tags, with its errors: "TagLimitExceeded" for more than 50 tags
// on a resource, "InvalidParameterValue" for a bad key or value (Amazon EC2 API reference, Error
// codes; Tag your Amazon EC2 resources, Tag restrictions).
var tagRules = core.TagRules{
	MaxTags:  50,
	Reserved: []string{"aws:"},
	TooMany:  core.Errorf("TagLimitExceeded", "The maximum number of tags for a resource is 50"),
	Invalid:  func(problem string) *core.APIError { return core.Errorf("InvalidParameterValue", "%s", problem) },
}

// tagPair returns an SDK tag's key and value.
func tagPair(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }

// specTags returns the tags TagSpecifications give a resource of type rt; the region's tag
// store checks them when the resource gets them.
func specTags(specs []types.TagSpecification, rt types.ResourceType) (map[string]string, error) {
	out := map[string]string{}
	for _, s := range specs {
		if s.ResourceType != rt {
			return nil, core.Errorf("InvalidParameterValue", "'%s' is not a valid taggable resource type for this operation.", s.ResourceType)
		}
		tags, _ := core.TagMap(s.Tags, tagPair)
		maps.Copy(out, tags)
	}
	return out, nil
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
		natKind: r.nats[id] != nil, sgKind: r.groups[id] != nil, ruleKind: r.rules[id] != nil, rtbKind: r.tables[id] != nil,
		instanceKind: r.instances[id] != nil}[k]
}

// createTags adds or replaces tags on every resource, or on none when one would break EC2's
// rules.
func (b *Backend) createTags(call *core.Call, in *ec2.CreateTagsInput) (*ec2.CreateTagsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	for _, id := range in.Resources {
		if err := r.exists(id); err != nil {
			return nil, err
		}
	}
	tags, _ := core.TagMap(in.Tags, tagPair)
	if err := r.tags.Merge(tags, in.Resources...); err != nil {
		return nil, err
	}
	return &ec2.CreateTagsOutput{}, nil
}

// deleteTags removes tags: a tag given without a value is removed whatever its value; with a
// value, only when the value matches.
func (b *Backend) deleteTags(call *core.Call, in *ec2.DeleteTagsInput) (*ec2.DeleteTagsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.regions.Of(call)
	for _, id := range in.Resources {
		if err := r.exists(id); err != nil {
			return nil, err
		}
		have := r.tags.Map(id)
		for _, t := range in.Tags {
			if k := aws.ToString(t.Key); t.Value == nil || have[k] == aws.ToString(t.Value) {
				r.tags.Remove(id, k)
			}
		}
	}
	return &ec2.DeleteTagsOutput{}, nil
}
