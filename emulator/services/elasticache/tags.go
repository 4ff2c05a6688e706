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

// resourceARN matches the ARNs of the resources ElastiCache tags here; its groups are the kind
// and the name.
var resourceARN = regexp.MustCompile(`^arn:aws[a-z-]*:elasticache:[a-z0-9-]+:[0-9]{12}:(cluster|replicationgroup|subnetgroup|snapshot|parametergroup):(.+)$`)

// taggable returns the ARN of the resource a ResourceName names in region r, or
// InvalidARN, or the resource kind's not-found error. The caller holds the backend's mutex.
func taggable(r *region, name *string) (string, error) {
	arn := aws.ToString(name)
	m := resourceARN.FindStringSubmatch(arn)
	if m == nil {
		return "", core.Errorf("InvalidARN", "%s is not a valid ARN.", arn)
	}
	switch m[1] {
	case "cluster":
		return taggedARN(r.clusters, m[2], arn, func(c *cluster) string { return c.arn }, clusterNotFound)
	case "replicationgroup":
		return taggedARN(r.groups, m[2], arn, func(g *group) string { return g.arn }, groupNotFound)
	case "subnetgroup":
		return taggedARN(r.subnetGroups, m[2], arn, func(g *subnetGroup) string { return g.arn }, subnetGroupNotFound)
	case "parametergroup":
		return taggedARN(r.paramGroups, m[2], arn, func(g *paramGroup) string { return g.arn }, paramGroupNotFound)
	}
	return taggedARN(r.snapshots, m[2], arn, func(s *snapshot) string { return s.arn }, snapshotNotFound)
}

// taggedARN returns arn when m, a region's resources of one kind, holds under id the resource
// whose ARN (as arnOf gives it) it is, and missing's not-found error for id otherwise.
func taggedARN[T any](m map[string]*T, id, arn string, arnOf func(*T) string, missing func(id string) error) (string, error) {
	if v, ok := m[id]; ok && arnOf(v) == arn {
		return arn, nil
	}
	return "", missing(id)
}

// settledTagged checks the tags of a create request as ElastiCache does before it looks at the
// region (core.RequestTags), then runs f on them as settled does: the scaffold of the operations
// that create a tagged resource.
func settledTagged[O any](b *Backend, call *core.Call, list []types.Tag, f func(r *region, tags map[string]string) (*O, error)) (*O, error) {
	tags, err := core.RequestTags(tagRules, list, core.TagPair[types.Tag])
	if err != nil {
		return nil, err
	}
	return settled(b, call, func(r *region) (*O, error) { return f(r, tags) })
}

// tagging serves the tag operations on the clusters, replication groups, subnet groups, custom
// parameter groups and snapshots of the caller's region, by ARN.
func (b *Backend) tagging() core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: b.state, Rules: tagRules, Pair: core.TagPair[types.Tag], Tag: core.NewTag[types.Tag],
		Find: func(call *core.Call, name *string) (core.TagTarget, error) {
			r := b.state.Of(call)
			b.settle(r, call.Now)
			arn, err := taggable(r, name)
			return core.TagTarget{Tags: b.tags, ID: arn}, err
		}}
}

// addTagsToResource adds tags to a resource or replaces their values, and lists its tags.
func (b *Backend) addTagsToResource(call *core.Call, in *elasticache.AddTagsToResourceInput) (*elasticache.AddTagsToResourceOutput, error) {
	tags, err := core.RequestTags(tagRules, in.Tags, core.TagPair[types.Tag])
	if err != nil {
		return nil, err
	}
	out := &elasticache.AddTagsToResourceOutput{}
	return out, b.tagging().With(call, in.ResourceName, func(t core.TagTarget) error {
		if err := t.Tags.Merge(tags, t.ID); err != nil {
			return err
		}
		out.TagList = core.TagList(t.Tags, t.ID, core.NewTag[types.Tag])
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
		out.TagList = core.TagList(t.Tags, t.ID, core.NewTag[types.Tag])
		return nil
	})
}

// tagOperations are the tag operation ElastiCache declares by its SDK client, ListTagsForResource,
// on the resource a request names by ResourceName; AddTagsToResource and RemoveTagsFromResource,
// which answer the tags they leave, are among its operations.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.ListTagsOperation(b.tagging(), "ResourceName", (*elasticache.Client).ListTagsForResource)
}
