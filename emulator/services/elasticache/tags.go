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
// resources); a request of more than 50 is refused before the resource is looked up.
var tagRules = core.AWSTagRules(
	core.Errorf("TagQuotaPerResourceExceeded", "The request cannot be processed because it would cause the resource to have more than the allowed number of tags. The maximum number of tags permitted on a resource is 50."),
	core.InvalidTag("InvalidParameterValue", "Invalid tag: %s.")).CountingRequests()

// tagPair returns the key and value of a request's tag.
func tagPair(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }

// newTag returns a tag as ElastiCache lists it.
func newTag(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} }

// resourceARN matches the ARNs of the resources ElastiCache tags here; its groups are the kind
// and the name.
var resourceARN = regexp.MustCompile(`^arn:aws[a-z-]*:elasticache:[a-z0-9-]+:[0-9]{12}:(cluster|replicationgroup|subnetgroup|snapshot):(.+)$`)

// taggable returns the ARN of the resource a ResourceName names in region r, or
// InvalidARN, or the resource kind's not-found error. The caller holds the backend's mutex.
func taggable(r *region, name *string) (string, error) {
	arn := aws.ToString(name)
	m := resourceARN.FindStringSubmatch(arn)
	if m == nil {
		return "", core.Errorf("InvalidARN", "%s is not a valid ARN.", arn)
	}
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

// tagging serves the tag operations on the clusters, replication groups, subnet groups and
// snapshots of the caller's region, by ARN.
func (b *Backend) tagging() core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: b.state, Rules: tagRules, Pair: tagPair, Tag: newTag,
		Find: func(call *core.Call, name *string) (core.TagTarget, error) {
			r := b.state.Of(call)
			b.settle(r, call.Now)
			arn, err := taggable(r, name)
			return core.TagTarget{Tags: b.tags, ID: arn}, err
		}}
}

// addTagsToResource adds tags to a resource or replaces their values, and lists its tags.
func (b *Backend) addTagsToResource(call *core.Call, in *elasticache.AddTagsToResourceInput) (*elasticache.AddTagsToResourceOutput, error) {
	tags, err := core.RequestTags(tagRules, in.Tags, tagPair)
	if err != nil {
		return nil, err
	}
	out := &elasticache.AddTagsToResourceOutput{}
	return out, b.tagging().With(call, in.ResourceName, func(t core.TagTarget) error {
		if err := t.Tags.Merge(tags, t.ID); err != nil {
			return err
		}
		out.TagList = core.TagList(t.Tags, t.ID, newTag)
		return nil
	})
}

// removeTagsFromResource removes tags from a resource, and lists those it keeps; a key the
// resource does not have is TagNotFound.
func (b *Backend) removeTagsFromResource(call *core.Call, in *elasticache.RemoveTagsFromResourceInput) (*elasticache.RemoveTagsFromResourceOutput, error) {
	out := &elasticache.RemoveTagsFromResourceOutput{}
	return out, b.tagging().With(call, in.ResourceName, func(t core.TagTarget) error {
		have := t.Tags.Map(t.ID)
		for _, k := range in.TagKeys {
			if _, ok := have[k]; !ok {
				return core.NotFoundf("TagNotFound", "The tag key %s was not found on the resource.", k)
			}
		}
		t.Tags.Remove(t.ID, in.TagKeys...)
		out.TagList = core.TagList(t.Tags, t.ID, newTag)
		return nil
	})
}

// tagOperations are the tag operation ElastiCache declares by its SDK client, ListTagsForResource,
// on the resource a request names by ResourceName; AddTagsToResource and RemoveTagsFromResource,
// which answer the tags they leave, are among its operations.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.ListTagsOperation(b.tagging(), "ResourceName", (*elasticache.Client).ListTagsForResource)
}
