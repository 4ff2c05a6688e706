package apigatewayv2

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/apigatewayv2"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
	"github.com/runner-codes/infra-operator/emulator/services/apigateway"
)

// tagRules are API Gateway's limits on tags, as v1's.
var tagRules = apigateway.TagRules

// taggableARN matches the ARNs of the v2 resources that take tags: APIs and their stages, VPC
// links and domain names.
var taggableARN = regexp.MustCompile(`^arn:aws[a-z-]*:apigateway:([a-z0-9-]+)::/(apis/([a-z0-9]+)(/stages/([^/]+))?|vpclinks/([a-z0-9]+)|domainnames/([^/]+))$`)

// tagged returns where the live resource a tagging request names keeps its tags, or the error
// API Gateway answers. The caller holds the backend's mutex.
func (r *region) tagged(arn string) (core.TagTarget, error) {
	return apigateway.Tagged(r.tags, taggableARN, r.scope.Region, arn, func(m []string) bool {
		switch {
		case m[3] != "":
			a, ok := r.apis[m[3]]
			return ok && (m[5] == "" || a.stages[m[5]] != nil)
		case m[6] != "":
			return r.vpcLinks[m[6]] != nil
		}
		return r.domains[m[7]] != nil
	}, core.NotFoundf("NotFoundException", "Resource not found: %s", arn))
}

// tagOperations are API Gateway v2's tag operations, TagResource, UntagResource and GetTags, on the
// resource a request names by ResourceArn.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.TagOperations(b.tagging(), "ResourceArn", (*apigatewayv2.Client).TagResource, (*apigatewayv2.Client).UntagResource, (*apigatewayv2.Client).GetTags)
}

// tagging serves the tag operations on the resources of the caller's region, by ARN.
func (b *Backend) tagging() core.Tagging[*string, struct{}] {
	return core.Tagging[*string, struct{}]{Lock: b.state, Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
		return b.state.Of(call).tagged(aws.ToString(arn))
	}}
}
