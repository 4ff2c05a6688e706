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
// broken with InvalidParameterException; a request of more than 50 is refused before the
// resource is looked up.
var tagRules = core.AWSTagRules(core.Errorf("InvalidParameterException", "The resource can have at most 50 tags."),
	core.InvalidTag("InvalidParameterException", "Invalid tag: %s.")).CountingRequests()

// resourceARN matches the ARNs of the resources ECS tags here; its groups are the kind (cluster,
// service, task-definition) and the rest.
var resourceARN = regexp.MustCompile(`^arn:aws[a-z-]*:ecs:[a-z0-9-]+:[0-9]{12}:(cluster|service|task-definition)/(.+)$`)

// taggable returns the ARN of the cluster, service or task definition revision a resource ARN
// names in region r, or the error for one that is not there. The caller holds the backend's
// mutex.
func (r *region) taggable(ref *string) (string, error) {
	arn := aws.ToString(ref)
	m := resourceARN.FindStringSubmatch(arn)
	if m == nil {
		return "", invalidParameter("The ARN provided is invalid.")
	}
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
	if t, ok := r.taskDefinitionOf(arn); ok && t.arn() == arn {
		return arn, nil
	}
	return "", clientError("Unable to describe task definition.")
}

// tagOperations are ECS's tag operations, TagResource, UntagResource and ListTagsForResource, on
// the resource a request names by ResourceArn.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.TagOperations(b.tagging(), "ResourceArn", (*ecs.Client).TagResource, (*ecs.Client).UntagResource, (*ecs.Client).ListTagsForResource)
}

// tagging serves the tag operations on the clusters, services and task definitions of the
// caller's region, by ARN.
func (b *Backend) tagging() core.Tagging[*string, types.Tag] {
	return core.Tagging[*string, types.Tag]{Lock: b.state, Rules: tagRules, Pair: core.TagPair[types.Tag], Tag: core.NewTag[types.Tag],
		Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
			id, err := b.state.Of(call).taggable(arn)
			return core.TagTarget{Tags: b.tags, ID: id}, err
		}}
}
