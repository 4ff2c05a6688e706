package elasticache

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are ElastiCache's limits on a resource's tags: 50, keys of 1 to 128 characters,
// values of at most 256, and no "aws:" prefix (ElastiCache User Guide, Tagging your ElastiCache
// resources).
var tagRules = core.TagRules{
	MaxTags:  50,
	Reserved: []string{"aws:"},
	TooMany:  core.Errorf("TagQuotaPerResourceExceeded", "The request cannot be processed because it would cause the resource to have more than the allowed number of tags. The maximum number of tags permitted on a resource is 50."),
	Invalid: func(problem string) *core.APIError {
		return core.Errorf("InvalidParameterValue", "Invalid tag: %s.", problem)
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

// resourceARN matches the ARNs of the resources ElastiCache tags here; its groups are the kind
// and the name.
var resourceARN = regexp.MustCompile(`^arn:aws[a-z-]*:elasticache:[a-z0-9-]+:[0-9]{12}:(cluster|replicationgroup|subnetgroup|snapshot):(.+)$`)

// taggable returns the ARN of the resource a ResourceName names in the call's region, or
// InvalidARN, or the resource kind's not-found error. The caller holds b.mu.
func (b *Backend) taggable(call *core.Call, name *string) (string, error) {
	arn := aws.ToString(name)
	m := resourceARN.FindStringSubmatch(arn)
	if m == nil {
		return "", core.Errorf("InvalidARN", "%s is not a valid ARN.", arn)
	}
	r := b.regionOf(call)
	var found string
	switch m[1] {
	case "cluster":
		if c, ok := r.clusters[m[2]]; ok {
			found = c.arn
		}
	case "replicationgroup":
		if g, ok := r.groups[m[2]]; ok {
			found = g.arn
		}
	case "subnetgroup":
		if g, ok := r.subnetGroups[m[2]]; ok {
			found = g.arn
		}
	case "snapshot":
		if s, ok := r.snapshots[m[2]]; ok {
			found = s.arn
		}
	}
	if found == arn {
		return arn, nil
	}
	switch m[1] {
	case "cluster":
		return "", clusterNotFound(m[2])
	case "replicationgroup":
		return "", groupNotFound(m[2])
	case "subnetgroup":
		return "", subnetGroupNotFound(m[2])
	}
	return "", snapshotNotFound(m[2])
}

// tagList returns a resource's tags as ElastiCache lists them.
func (b *Backend) tagList(arn string) []types.Tag {
	return core.TagList(b.tags, arn, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}

// addTagsToResource adds tags to a resource or replaces their values, and lists its tags.
func (b *Backend) addTagsToResource(call *core.Call, in *elasticache.AddTagsToResourceInput) (*elasticache.AddTagsToResourceOutput, error) {
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	arn, err := b.taggable(call, in.ResourceName)
	if err != nil {
		return nil, err
	}
	if err := b.tags.Merge(tags, arn); err != nil {
		return nil, err
	}
	return &elasticache.AddTagsToResourceOutput{TagList: b.tagList(arn)}, nil
}

// removeTagsFromResource removes tags from a resource, and lists those it keeps; a key the
// resource does not have is TagNotFound.
func (b *Backend) removeTagsFromResource(call *core.Call, in *elasticache.RemoveTagsFromResourceInput) (*elasticache.RemoveTagsFromResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	arn, err := b.taggable(call, in.ResourceName)
	if err != nil {
		return nil, err
	}
	have := b.tags.Map(arn)
	for _, k := range in.TagKeys {
		if _, ok := have[k]; !ok {
			return nil, core.NotFoundf("TagNotFound", "The tag key %s was not found on the resource.", k)
		}
	}
	b.tags.Remove(arn, in.TagKeys...)
	return &elasticache.RemoveTagsFromResourceOutput{TagList: b.tagList(arn)}, nil
}

// listTagsForResource lists a resource's tags.
func (b *Backend) listTagsForResource(call *core.Call, in *elasticache.ListTagsForResourceInput) (*elasticache.ListTagsForResourceOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	arn, err := b.taggable(call, in.ResourceName)
	if err != nil {
		return nil, err
	}
	return &elasticache.ListTagsForResourceOutput{TagList: b.tagList(arn)}, nil
}
