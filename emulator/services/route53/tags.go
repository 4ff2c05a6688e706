package route53

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxTagsPerCall is how many tags ChangeTagsForResource adds, and keys it removes, at most.
const maxTagsPerCall = 10

// tagRules are Route 53's limits on a hosted zone's tags: AWS's common ones (50 tags, keys of 1
// to 128 characters, values of at most 256, no aws: prefix), refused with InvalidInput.
var tagRules = core.AWSTagRules(core.Errorf("InvalidInput", "Invalid request: a resource can have at most 50 tags."),
	core.InvalidTag("InvalidInput", "Invalid request: %s."))

// tagging serves the tag operations on the hosted zones of the caller's account, named by
// resource type and id.
func (b *Backend) tagging() core.Tagging[tagged, types.Tag] {
	return core.Tagging[tagged, types.Tag]{Lock: b.state, Rules: tagRules,
		Pair: func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) },
		Tag:  func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} },
		Find: func(call *core.Call, ref tagged) (core.TagTarget, error) { return b.state.Of(call).tagTarget(ref) }}
}

// tagged is how the tag operations name a resource: its type and id.
type tagged struct {
	kind types.TagResourceType
	id   string
}

// tagTarget returns where the resource ref names keeps its tags. The caller holds the backend's
// mutex.
func (a *account) tagTarget(ref tagged) (core.TagTarget, error) {
	switch ref.kind {
	case types.TagResourceTypeHostedzone:
		z, err := a.find(&ref.id)
		if err != nil {
			return core.TagTarget{}, err
		}
		return core.TagTarget{Tags: a.tags, ID: z.id}, nil
	case types.TagResourceTypeHealthcheck:
		return core.TagTarget{}, core.NotFoundf("NoSuchHealthCheck", "No health check exists with the specified ID %s", ref.id)
	}
	return core.TagTarget{}, core.Errorf("InvalidInput", "1 validation error detected: Value '%s' at 'resourceType' failed to satisfy constraint: Member must satisfy enum value set: [healthcheck, hostedzone]", ref.kind)
}

// changeTagsForResource adds and removes tags of a hosted zone, at most ten of each in a call.
func (b *Backend) changeTagsForResource(call *core.Call, in *route53.ChangeTagsForResourceInput) (*route53.ChangeTagsForResourceOutput, error) {
	if len(in.AddTags) > maxTagsPerCall || len(in.RemoveTagKeys) > maxTagsPerCall {
		return nil, core.Errorf("InvalidInput", "Invalid request: a call adds at most %d tags and removes at most %d keys.", maxTagsPerCall, maxTagsPerCall)
	}
	g := b.tagging()
	tags, err := core.RequestTags(tagRules, in.AddTags, g.Pair)
	if err != nil {
		return nil, err
	}
	// The additions and removals are one change, made under one hold of the lock.
	return &route53.ChangeTagsForResourceOutput{}, g.With(call, tagged{kind: in.ResourceType, id: zoneID(in.ResourceId)}, func(t core.TagTarget) error {
		if err := t.Tags.Merge(tags, t.ID); err != nil {
			return err
		}
		t.Tags.Remove(t.ID, in.RemoveTagKeys...)
		return nil
	})
}

// listTagsForResource answers a hosted zone's tags.
func (b *Backend) listTagsForResource(call *core.Call, in *route53.ListTagsForResourceInput) (*route53.ListTagsForResourceOutput, error) {
	ref := tagged{kind: in.ResourceType, id: zoneID(in.ResourceId)}
	tags, err := b.tagging().List(call, ref)
	if err != nil {
		return nil, err
	}
	return &route53.ListTagsForResourceOutput{ResourceTagSet: &types.ResourceTagSet{ResourceId: aws.String(ref.id), ResourceType: ref.kind, Tags: tags}}, nil
}
