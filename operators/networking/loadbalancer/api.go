package loadbalancer

import (
	"context"

	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
)

// elbAPI is the part of the Elastic Load Balancing v2 API the driver uses.
type elbAPI interface {
	CreateLoadBalancer(ctx context.Context, in *elb.CreateLoadBalancerInput, opts ...func(*elb.Options)) (*elb.CreateLoadBalancerOutput, error)
	DescribeLoadBalancers(ctx context.Context, in *elb.DescribeLoadBalancersInput, opts ...func(*elb.Options)) (*elb.DescribeLoadBalancersOutput, error)
	DeleteLoadBalancer(ctx context.Context, in *elb.DeleteLoadBalancerInput, opts ...func(*elb.Options)) (*elb.DeleteLoadBalancerOutput, error)
	SetSubnets(ctx context.Context, in *elb.SetSubnetsInput, opts ...func(*elb.Options)) (*elb.SetSubnetsOutput, error)
	SetSecurityGroups(ctx context.Context, in *elb.SetSecurityGroupsInput, opts ...func(*elb.Options)) (*elb.SetSecurityGroupsOutput, error)
	SetIpAddressType(ctx context.Context, in *elb.SetIpAddressTypeInput, opts ...func(*elb.Options)) (*elb.SetIpAddressTypeOutput, error)
	DescribeLoadBalancerAttributes(ctx context.Context, in *elb.DescribeLoadBalancerAttributesInput, opts ...func(*elb.Options)) (*elb.DescribeLoadBalancerAttributesOutput, error)
	ModifyLoadBalancerAttributes(ctx context.Context, in *elb.ModifyLoadBalancerAttributesInput, opts ...func(*elb.Options)) (*elb.ModifyLoadBalancerAttributesOutput, error)
	CreateTargetGroup(ctx context.Context, in *elb.CreateTargetGroupInput, opts ...func(*elb.Options)) (*elb.CreateTargetGroupOutput, error)
	DescribeTargetGroups(ctx context.Context, in *elb.DescribeTargetGroupsInput, opts ...func(*elb.Options)) (*elb.DescribeTargetGroupsOutput, error)
	ModifyTargetGroup(ctx context.Context, in *elb.ModifyTargetGroupInput, opts ...func(*elb.Options)) (*elb.ModifyTargetGroupOutput, error)
	DeleteTargetGroup(ctx context.Context, in *elb.DeleteTargetGroupInput, opts ...func(*elb.Options)) (*elb.DeleteTargetGroupOutput, error)
	CreateListener(ctx context.Context, in *elb.CreateListenerInput, opts ...func(*elb.Options)) (*elb.CreateListenerOutput, error)
	DescribeListeners(ctx context.Context, in *elb.DescribeListenersInput, opts ...func(*elb.Options)) (*elb.DescribeListenersOutput, error)
	ModifyListener(ctx context.Context, in *elb.ModifyListenerInput, opts ...func(*elb.Options)) (*elb.ModifyListenerOutput, error)
	DeleteListener(ctx context.Context, in *elb.DeleteListenerInput, opts ...func(*elb.Options)) (*elb.DeleteListenerOutput, error)
	AddTags(ctx context.Context, in *elb.AddTagsInput, opts ...func(*elb.Options)) (*elb.AddTagsOutput, error)
	RemoveTags(ctx context.Context, in *elb.RemoveTagsInput, opts ...func(*elb.Options)) (*elb.RemoveTagsOutput, error)
	DescribeTags(ctx context.Context, in *elb.DescribeTagsInput, opts ...func(*elb.Options)) (*elb.DescribeTagsOutput, error)
	DescribeRules(ctx context.Context, in *elb.DescribeRulesInput, opts ...func(*elb.Options)) (*elb.DescribeRulesOutput, error)
	CreateRule(ctx context.Context, in *elb.CreateRuleInput, opts ...func(*elb.Options)) (*elb.CreateRuleOutput, error)
	ModifyRule(ctx context.Context, in *elb.ModifyRuleInput, opts ...func(*elb.Options)) (*elb.ModifyRuleOutput, error)
	SetRulePriorities(ctx context.Context, in *elb.SetRulePrioritiesInput, opts ...func(*elb.Options)) (*elb.SetRulePrioritiesOutput, error)
	DeleteRule(ctx context.Context, in *elb.DeleteRuleInput, opts ...func(*elb.Options)) (*elb.DeleteRuleOutput, error)
	DescribeTargetHealth(ctx context.Context, in *elb.DescribeTargetHealthInput, opts ...func(*elb.Options)) (*elb.DescribeTargetHealthOutput, error)
	RegisterTargets(ctx context.Context, in *elb.RegisterTargetsInput, opts ...func(*elb.Options)) (*elb.RegisterTargetsOutput, error)
	DeregisterTargets(ctx context.Context, in *elb.DeregisterTargetsInput, opts ...func(*elb.Options)) (*elb.DeregisterTargetsOutput, error)
}

var _ elbAPI = (*elb.Client)(nil)
