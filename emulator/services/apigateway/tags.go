package apigateway

import (
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// taggableARN matches the ARNs of the v1 resources that take tags: REST APIs and their stages,
// domain names and VPC links.
var taggableARN = regexp.MustCompile(`^arn:aws[a-z-]*:apigateway:([a-z0-9-]+)::/(restapis/([a-z0-9]+)(/stages/([^/]+))?|domainnames/([^/]+)|vpclinks/([a-z0-9]+))$`)

// tagged returns where the live resource a tagging request names keeps its tags, or the error
// API Gateway answers. The caller holds the backend's mutex.
func (r *region) tagged(arn string) (core.TagTarget, error) {
	m := taggableARN.FindStringSubmatch(arn)
	if m == nil {
		return core.TagTarget{}, BadRequest("Invalid resource ARN specified: %s", arn)
	}
	exists := false
	if m[1] == r.scope.Region {
		switch {
		case m[3] != "":
			a, ok := r.apis[m[3]]
			exists = ok
			if ok && m[5] != "" {
				_, exists = a.stages[m[5]]
			}
		case m[6] != "":
			_, exists = r.domains[m[6]]
		default:
			_, exists = r.vpcLinks[m[7]]
		}
	}
	if !exists {
		return core.TagTarget{}, core.NotFoundf("NotFoundException", "Invalid resource identifier specified: %s", arn)
	}
	return core.TagTarget{Tags: r.tags, ID: arn}, nil
}

// tagging serves the tag operations on the resources of the caller's region, by ARN.
func (b *Backend) tagging() core.Tagging[*string, struct{}] {
	return core.Tagging[*string, struct{}]{Lock: b.state, Find: func(call *core.Call, arn *string) (core.TagTarget, error) {
		return b.state.Of(call).tagged(aws.ToString(arn))
	}}
}
