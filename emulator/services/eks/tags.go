package eks

import (
	"errors"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are EKS's limits on the tags of a cluster, node group or add-on (Amazon EKS User
// Guide, Organize Amazon EKS resources with tags: 50 tags a resource, keys of 128 characters,
// values of 256, and no aws: prefix). The tagging operations answer a request that breaks them
// with BadRequestException; the create operations with InvalidParameterException.
var tagRules = core.AWSTagRules(badRequest("The number of tags on a resource can't exceed 50"), core.InvalidTag("BadRequestException", "%s"))

// asInvalidParameter turns a tag error into the InvalidParameterException a create operation
// answers.
func asInvalidParameter(err error) error {
	var apiErr *core.APIError
	if errors.As(err, &apiErr) && apiErr.Code == "BadRequestException" {
		return invalidParameter("%s", apiErr.Message)
	}
	return err
}

// taggableARN matches the ARNs of clusters (cluster/<name>), node groups
// (nodegroup/<cluster>/<name>/<id>), add-ons (addon/<cluster>/<name>/<id>), access entries
// (access-entry/<cluster>/<role|user>/<account>/<name>/<id>) and pod identity associations
// (podidentityassociation/<cluster>/<id>).
var taggableARN = regexp.MustCompile(`^arn:aws[a-zA-Z-]*:eks:([a-z0-9-]+):(\d{12}):(cluster|nodegroup|addon|access-entry|podidentityassociation)/(.+)$`)

// tagged returns the ARN of the live resource a tagging request names, or the error EKS
// answers: BadRequestException for an ARN that is not an EKS resource's, NotFoundException for
// a resource that does not exist. The caller holds the backend's mutex.
func (r *region) tagged(call *core.Call, arn string) (string, error) {
	m := taggableARN.FindStringSubmatch(arn)
	if m == nil {
		return "", badRequest("%s is not a valid Amazon EKS resource ARN", arn)
	}
	missing := core.NotFoundf("NotFoundException", "Resource was not found")
	if m[1] != r.scope.Region || m[2] != r.scope.Account {
		return "", missing
	}
	parts := strings.Split(m[4], "/")
	c := r.lookup(parts[0], call.Now)
	if c == nil {
		return "", missing
	}
	switch {
	case m[3] == "cluster" && len(parts) == 1:
		return c.arn, nil
	case m[3] == "nodegroup" && len(parts) == 3:
		if g := c.nodegroup(r, parts[1], call.Now); g != nil && aws.ToString(g.cfg.NodegroupArn) == arn {
			return arn, nil
		}
	case m[3] == "addon" && len(parts) == 3:
		if a := c.addon(r, parts[1], call.Now); a != nil && aws.ToString(a.cfg.AddonArn) == arn {
			return arn, nil
		}
	case m[3] == "access-entry" && len(parts) == 5:
		for _, e := range c.entries {
			if aws.ToString(e.cfg.AccessEntryArn) == arn {
				return arn, nil
			}
		}
	case m[3] == "podidentityassociation" && len(parts) == 2:
		if p := c.pods[parts[1]]; p != nil && aws.ToString(p.cfg.AssociationArn) == arn {
			return arn, nil
		}
	}
	return "", missing
}

// tagOperations are EKS's tag operations, TagResource, UntagResource and ListTagsForResource, on
// the resource a request names by ResourceArn.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.TagOperations(b.tagging(), "ResourceArn", (*eks.Client).TagResource, (*eks.Client).UntagResource, (*eks.Client).ListTagsForResource)
}

// tagging serves the tag operations on the clusters, node groups, add-ons, access entries and
// pod identity associations of the caller's region, by ARN.
func (b *Backend) tagging() core.Tagging[*string, struct{}] {
	return core.Tagging[*string, struct{}]{Lock: b.state, Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
		r := b.state.Of(call)
		id, err := r.tagged(call, aws.ToString(arn))
		return core.TagTarget{Tags: r.tags, ID: id}, err
	}}
}
