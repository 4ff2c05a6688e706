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

// tagged returns the ARN of the live resource a tagging request names, or the error API
// Gateway answers. The caller holds b.mu.
func (r *region) tagged(arn string) (string, error) {
	m := taggableARN.FindStringSubmatch(arn)
	if m == nil {
		return "", BadRequest("Invalid resource ARN specified: %s", arn)
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
		return "", core.NotFoundf("NotFoundException", "Invalid resource identifier specified: %s", arn)
	}
	return arn, nil
}

func (b *Backend) tagResource(call *core.Call, in *apigateway.TagResourceInput) (*apigateway.TagResourceOutput, error) {
	return locked(b, call, func(r *region) (*apigateway.TagResourceOutput, error) {
		arn, err := r.tagged(aws.ToString(in.ResourceArn))
		if err != nil {
			return nil, err
		}
		if err := r.tags.Merge(in.Tags, arn); err != nil {
			return nil, err
		}
		return &apigateway.TagResourceOutput{}, nil
	})
}

func (b *Backend) untagResource(call *core.Call, in *apigateway.UntagResourceInput) (*apigateway.UntagResourceOutput, error) {
	return locked(b, call, func(r *region) (*apigateway.UntagResourceOutput, error) {
		arn, err := r.tagged(aws.ToString(in.ResourceArn))
		if err != nil {
			return nil, err
		}
		r.tags.Remove(arn, in.TagKeys...)
		return &apigateway.UntagResourceOutput{}, nil
	})
}

func (b *Backend) getTags(call *core.Call, in *apigateway.GetTagsInput) (*apigateway.GetTagsOutput, error) {
	return locked(b, call, func(r *region) (*apigateway.GetTagsOutput, error) {
		arn, err := r.tagged(aws.ToString(in.ResourceArn))
		if err != nil {
			return nil, err
		}
		return &apigateway.GetTagsOutput{Tags: r.tags.Map(arn)}, nil
	})
}
