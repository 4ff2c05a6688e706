package apigatewayv2

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"

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
	m := taggableARN.FindStringSubmatch(arn)
	if m == nil {
		return core.TagTarget{}, badRequest("Invalid resource ARN specified: %s", arn)
	}
	missing := core.NotFoundf("NotFoundException", "Resource not found: %s", arn)
	if m[1] != r.scope.Region {
		return core.TagTarget{}, missing
	}
	exists := false
	switch {
	case m[3] != "":
		a, ok := r.apis[m[3]]
		exists = ok
		if ok && m[5] != "" {
			_, exists = a.stages[m[5]]
		}
	case m[6] != "":
		_, exists = r.vpcLinks[m[6]]
	default:
		_, exists = r.domains[m[7]]
	}
	if !exists {
		return core.TagTarget{}, missing
	}
	return core.TagTarget{Tags: r.tags, ID: arn}, nil
}

// tagging serves the tag operations on the resources of the caller's region, by ARN.
func (b *Backend) tagging() core.Tagging[*string, struct{}] {
	return core.Tagging[*string, struct{}]{Lock: b.state, Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
		return b.state.Of(call).tagged(aws.ToString(arn))
	}}
}
