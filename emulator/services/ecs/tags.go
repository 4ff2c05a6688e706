package ecs

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/aws-sdk-go-v2/service/ecs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are ECS's limits on a resource's tags: 50, keys of 1 to 128 characters, values of at
// most 256, and no "aws:" prefix (Amazon ECS Developer Guide, Tagging your resources), all
// broken with InvalidParameterException.
var tagRules = core.TagRules{
	MaxTags:  50,
	Reserved: []string{"aws:"},
	TooMany:  core.Errorf("InvalidParameterException", "The resource can have at most 50 tags."),
	Invalid: func(problem string) *core.APIError {
		return core.Errorf("InvalidParameterException", "Invalid tag: %s.", problem)
	},
}

// requestTags returns the tags of a request as a map, a key given twice keeping its last value.
func requestTags(tags []types.Tag) (map[string]string, error) {
	if len(tags) > tagRules.MaxTags {
		return nil, tagRules.TooMany
	}
	out, _ := core.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
	return out, nil
}

// tag builds ECS's Tag.
func tag(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} }

// resourceARN matches the ARNs of the resources ECS tags here; its groups are the kind (cluster,
// service, task-definition) and the rest.
var resourceARN = regexp.MustCompile(`^arn:aws[a-z-]*:ecs:[a-z0-9-]+:[0-9]{12}:(cluster|service|task-definition)/(.+)$`)

// taggable returns the ARN of the cluster, service or task definition revision a resource ARN
// names in the call's region, or the error for one that is not there. The caller holds b.mu.
func (b *Backend) taggable(call *core.Call, ref *string) (string, error) {
	arn := aws.ToString(ref)
	m := resourceARN.FindStringSubmatch(arn)
	if m == nil {
		return "", invalidParameter("The ARN provided is invalid.")
	}
	r := b.regions.Of(call)
	switch m[1] {
	case "cluster":
		if c, ok := r.clusters[clusterName(ref)]; ok && c.arn == arn {
			return arn, nil
		}
		return "", clusterNotFound
	case "service":
		for _, c := range r.clusters {
			if s, ok := c.services[serviceName(ref)]; ok && s.arn == arn {
				return arn, nil
			}
		}
		return "", serviceNotFound
	}
	if t, ok := b.taskDefinitionOf(call, arn); ok && t.arn() == arn {
		return arn, nil
	}
	return "", clientError("Unable to describe task definition.")
}

// tagResource adds tags to a resource or replaces their values.
func (b *Backend) tagResource(call *core.Call, in *ecs.TagResourceInput) (*ecs.TagResourceOutput, error) {
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	arn, err := b.taggable(call, in.ResourceArn)
	if err != nil {
		return nil, err
	}
	if err := b.tags.Merge(tags, arn); err != nil {
		return nil, err
	}
	return &ecs.TagResourceOutput{}, nil
}

// untagResource removes tags from a resource; keys it does not have are ignored.
func (b *Backend) untagResource(call *core.Call, in *ecs.UntagResourceInput) (*ecs.UntagResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	arn, err := b.taggable(call, in.ResourceArn)
	if err != nil {
		return nil, err
	}
	b.tags.Remove(arn, in.TagKeys...)
	return &ecs.UntagResourceOutput{}, nil
}

// listTagsForResource lists the tags of a resource.
func (b *Backend) listTagsForResource(call *core.Call, in *ecs.ListTagsForResourceInput) (*ecs.ListTagsForResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	arn, err := b.taggable(call, in.ResourceArn)
	if err != nil {
		return nil, err
	}
	return &ecs.ListTagsForResourceOutput{Tags: core.TagList(b.tags, arn, tag)}, nil
}
