package elbv2

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are ELBv2's limits on tags, with its errors: "TooManyTags" for more than 50 tags on a
// resource (AddTags, CreateLoadBalancer, CreateTargetGroup and CreateListener in the Elastic
// Load Balancing API reference), "ValidationError" for a bad key or value.
var tagRules = core.TagRules{
	MaxTags: 50,
	TooMany: core.Errorf("TooManyTags", "You've reached the limit on the number of tags for this resource (50)"),
	Invalid: core.InvalidTag("ValidationError", "%s"),
}

// requestTags returns the tags of a request, refusing a key given twice (DuplicateTagKeys).
func requestTags(tags []types.Tag) (map[string]string, error) {
	out, repeated := core.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
	if repeated != "" {
		return nil, core.Errorf("DuplicateTagKeys", "Tag key '%s' is duplicated", repeated)
	}
	return out, nil
}

// checkTaggable returns nil when an ARN names a load balancer, target group, listener or rule of the
// region, and otherwise the not-found error of its kind, or a ValidationError when it names no
// kind that ELBv2 tags.
func (r *region) checkTaggable(arn string) error {
	resource, _ := strings.CutPrefix(arn, r.scope.ARN("elasticloadbalancing", ""))
	var err error
	switch {
	case strings.HasPrefix(resource, "loadbalancer/"):
		_, err = r.lb(&arn)
	case strings.HasPrefix(resource, "targetgroup/"):
		_, err = r.targetGroup(&arn)
	case strings.HasPrefix(resource, "listener/"):
		_, err = r.listener(&arn)
	case strings.HasPrefix(resource, "listener-rule/"):
		if _, ok := r.describeRule(arn); !ok {
			err = ruleNotFound(arn)
		}
	default:
		err = validation("'%s' is not a valid load balancer, target group, listener or rule ARN", arn)
	}
	return err
}

// checkResources checks the resource ARNs of a tag request: 1 to 20 of them, each naming a
// resource of the region.
func (r *region) checkResources(arns []string) error {
	if len(arns) == 0 {
		return validation("At least one resource ARN must be specified")
	}
	if len(arns) > maxBatch {
		return validation("1 validation error detected: Value at 'resourceArns' failed to satisfy constraint: Member must have length less than or equal to %d", maxBatch)
	}
	for _, arn := range arns {
		if err := r.checkTaggable(arn); err != nil {
			return err
		}
	}
	return nil
}

// addTags adds or replaces tags on every resource, or on none when one would break the rules.
func (b *Backend) addTags(call *core.Call, in *elb.AddTagsInput) (*elb.AddTagsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*elb.AddTagsOutput, error) {
		if err := r.checkResources(in.ResourceArns); err != nil {
			return nil, err
		}
		if len(in.Tags) == 0 {
			return nil, validation("At least one tag must be specified")
		}
		tags, err := requestTags(in.Tags)
		if err != nil {
			return nil, err
		}
		return &elb.AddTagsOutput{}, r.tags.Merge(tags, in.ResourceArns...)
	})
}

func (b *Backend) removeTags(call *core.Call, in *elb.RemoveTagsInput) (*elb.RemoveTagsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*elb.RemoveTagsOutput, error) {
		if err := r.checkResources(in.ResourceArns); err != nil {
			return nil, err
		}
		for _, arn := range in.ResourceArns {
			r.tags.Remove(arn, in.TagKeys...)
		}
		return &elb.RemoveTagsOutput{}, nil
	})
}

func (b *Backend) describeTags(call *core.Call, in *elb.DescribeTagsInput) (*elb.DescribeTagsOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*elb.DescribeTagsOutput, error) {
		if err := r.checkResources(in.ResourceArns); err != nil {
			return nil, err
		}
		out := &elb.DescribeTagsOutput{TagDescriptions: make([]types.TagDescription, len(in.ResourceArns))}
		for i, arn := range in.ResourceArns {
			out.TagDescriptions[i] = types.TagDescription{ResourceArn: aws.String(arn), Tags: core.TagList(r.tags, arn, func(k, v string) types.Tag {
				return types.Tag{Key: aws.String(k), Value: aws.String(v)}
			})}
		}
		return out, nil
	})
}
