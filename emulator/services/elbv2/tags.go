package elbv2

import (
	"maps"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagsOf returns the tags of the load balancer, target group or listener an ARN names, with
// the not-found error of its kind.
func (r *region) tagsOf(arn string) (map[string]string, error) {
	resource, _ := strings.CutPrefix(arn, r.scope.ARN("elasticloadbalancing", ""))
	switch {
	case strings.HasPrefix(resource, "loadbalancer/"):
		lb, err := r.lb(&arn)
		if err != nil {
			return nil, err
		}
		return lb.tags, nil
	case strings.HasPrefix(resource, "targetgroup/"):
		tg, err := r.targetGroup(&arn)
		if err != nil {
			return nil, err
		}
		return tg.tags, nil
	case strings.HasPrefix(resource, "listener/"):
		l, err := r.listener(&arn)
		if err != nil {
			return nil, err
		}
		return l.tags, nil
	}
	return nil, validation("'%s' is not a valid load balancer, target group or listener ARN", arn)
}

// resourceTags returns the tags of every resource ARN of a request, at most 20 of them.
func (r *region) resourceTags(arns []string) ([]map[string]string, error) {
	if len(arns) == 0 {
		return nil, validation("At least one resource ARN must be specified")
	}
	if len(arns) > maxBatch {
		return nil, validation("1 validation error detected: Value at 'resourceArns' failed to satisfy constraint: Member must have length less than or equal to %d", maxBatch)
	}
	out := make([]map[string]string, len(arns))
	for i, arn := range arns {
		tags, err := r.tagsOf(arn)
		if err != nil {
			return nil, err
		}
		out[i] = tags
	}
	return out, nil
}

// addTags adds or replaces tags on every resource, or on none when one would exceed its limit.
func (b *Backend) addTags(call *core.Call, in *elb.AddTagsInput) (*elb.AddTagsOutput, error) {
	return locked(b, call, func(r *region) (*elb.AddTagsOutput, error) {
		all, err := r.resourceTags(in.ResourceArns)
		if err != nil {
			return nil, err
		}
		if len(in.Tags) == 0 {
			return nil, validation("At least one tag must be specified")
		}
		changes := make([]map[string]string, len(all))
		for i, tags := range all {
			if changes[i], err = tagMap(in.Tags, tags); err != nil {
				return nil, err
			}
		}
		for i, tags := range all {
			maps.Copy(tags, changes[i])
		}
		return &elb.AddTagsOutput{}, nil
	})
}

func (b *Backend) removeTags(call *core.Call, in *elb.RemoveTagsInput) (*elb.RemoveTagsOutput, error) {
	return locked(b, call, func(r *region) (*elb.RemoveTagsOutput, error) {
		all, err := r.resourceTags(in.ResourceArns)
		if err != nil {
			return nil, err
		}
		for _, tags := range all {
			for _, k := range in.TagKeys {
				delete(tags, k)
			}
		}
		return &elb.RemoveTagsOutput{}, nil
	})
}

func (b *Backend) describeTags(call *core.Call, in *elb.DescribeTagsInput) (*elb.DescribeTagsOutput, error) {
	return locked(b, call, func(r *region) (*elb.DescribeTagsOutput, error) {
		all, err := r.resourceTags(in.ResourceArns)
		if err != nil {
			return nil, err
		}
		out := &elb.DescribeTagsOutput{TagDescriptions: make([]types.TagDescription, len(all))}
		for i, tags := range all {
			out.TagDescriptions[i] = types.TagDescription{ResourceArn: aws.String(in.ResourceArns[i]), Tags: tagList(tags)}
		}
		return out, nil
	})
}
