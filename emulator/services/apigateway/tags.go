package apigateway

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigateway"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// taggableARN matches the ARNs of the v1 resources that take tags: REST APIs and their stages,
// domain names and VPC links.
var taggableARN = regexp.MustCompile(`^arn:aws[a-z-]*:apigateway:([a-z0-9-]+)::/(restapis/([a-z0-9]+)(/stages/([^/]+))?|domainnames/([^/]+)|vpclinks/([a-z0-9]+))$`)

// tagged returns where the live resource a tagging request names keeps its tags, or the error
// API Gateway answers. The caller holds the backend's mutex.
func (r *region) tagged(arn string) (core.TagTarget, error) {
	return Tagged(r.tags, taggableARN, r.scope.Region, arn, func(m []string) bool {
		switch {
		case m[3] != "":
			a, ok := r.apis[m[3]]
			return ok && (m[5] == "" || a.stages[m[5]] != nil)
		case m[6] != "":
			return r.domains[m[6]] != nil
		}
		return r.vpcLinks[m[7]] != nil
	}, core.NotFoundf("NotFoundException", "Invalid resource identifier specified: %s", arn))
}

// Tagged returns where the resource an ARN names keeps its tags among tags, for the tag
// operations of both versions of API Gateway: BadRequestException for an ARN that form does not
// match, and missing for one of another region than region (form's first group) or that exists,
// given the match, reports not there.
func Tagged(tags *core.Tags, form *regexp.Regexp, region, arn string, exists func(m []string) bool, missing error) (core.TagTarget, error) {
	m := form.FindStringSubmatch(arn)
	if m == nil {
		return core.TagTarget{}, BadRequest("Invalid resource ARN specified: %s", arn)
	}
	if m[1] != region || !exists(m) {
		return core.TagTarget{}, missing
	}
	return core.TagTarget{Tags: tags, ID: arn}, nil
}

// tagOperations are API Gateway's tag operations, TagResource, UntagResource and GetTags, on the
// resource a request names by ResourceArn.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.TagOperations(b.tagging(), "ResourceArn", (*apigateway.Client).TagResource, (*apigateway.Client).UntagResource, (*apigateway.Client).GetTags)
}

// tagging serves the tag operations on the resources of the caller's region, by ARN.
func (b *Backend) tagging() core.Tagging[*string, struct{}] {
	return core.Tagging[*string, struct{}]{Lock: b.state, Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
		return b.state.Of(call).tagged(aws.ToString(arn))
	}}
}
