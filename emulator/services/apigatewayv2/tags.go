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

// tagged returns the ARN of the live resource a tagging request names, or the error API
// Gateway answers. The caller holds b.mu.
func (r *region) tagged(arn string) (string, error) {
	m := taggableARN.FindStringSubmatch(arn)
	if m == nil {
		return "", badRequest("Invalid resource ARN specified: %s", arn)
	}
	missing := core.NotFoundf("NotFoundException", "Resource not found: %s", arn)
	if m[1] != r.scope.Region {
		return "", missing
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
		return "", missing
	}
	return arn, nil
}

func (b *Backend) tagResource(call *core.Call, in *apigatewayv2.TagResourceInput) (*apigatewayv2.TagResourceOutput, error) {
	return locked(b, call, func(r *region) (*apigatewayv2.TagResourceOutput, error) {
		arn, err := r.tagged(aws.ToString(in.ResourceArn))
		if err != nil {
			return nil, err
		}
		if err := r.tags.Merge(in.Tags, arn); err != nil {
			return nil, err
		}
		return &apigatewayv2.TagResourceOutput{}, nil
	})
}

func (b *Backend) untagResource(call *core.Call, in *apigatewayv2.UntagResourceInput) (*apigatewayv2.UntagResourceOutput, error) {
	return locked(b, call, func(r *region) (*apigatewayv2.UntagResourceOutput, error) {
		arn, err := r.tagged(aws.ToString(in.ResourceArn))
		if err != nil {
			return nil, err
		}
		r.tags.Remove(arn, in.TagKeys...)
		return &apigatewayv2.UntagResourceOutput{}, nil
	})
}

func (b *Backend) getTags(call *core.Call, in *apigatewayv2.GetTagsInput) (*apigatewayv2.GetTagsOutput, error) {
	return locked(b, call, func(r *region) (*apigatewayv2.GetTagsOutput, error) {
		arn, err := r.tagged(aws.ToString(in.ResourceArn))
		if err != nil {
			return nil, err
		}
		return &apigatewayv2.GetTagsOutput{Tags: r.tags.Map(arn)}, nil
	})
}
