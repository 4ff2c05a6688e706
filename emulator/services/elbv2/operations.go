package elbv2

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are ELBv2's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateLoadBalancer":             core.Op(b.createLoadBalancer),
		"DescribeLoadBalancers":          core.Op(b.describeLoadBalancers),
		"DeleteLoadBalancer":             core.Op(b.deleteLoadBalancer),
		"SetSubnets":                     core.Op(b.setSubnets),
		"SetSecurityGroups":              core.Op(b.setSecurityGroups),
		"SetIpAddressType":               core.Op(b.setIPAddressType),
		"DescribeLoadBalancerAttributes": core.Op(b.describeLoadBalancerAttributes),
		"ModifyLoadBalancerAttributes":   core.Op(b.modifyLoadBalancerAttributes),
		"CreateTargetGroup":              core.Op(b.createTargetGroup),
		"DescribeTargetGroups":           core.Op(b.describeTargetGroups),
		"ModifyTargetGroup":              core.Op(b.modifyTargetGroup),
		"DeleteTargetGroup":              core.Op(b.deleteTargetGroup),
		"DescribeTargetGroupAttributes":  core.Op(b.describeTargetGroupAttributes),
		"ModifyTargetGroupAttributes":    core.Op(b.modifyTargetGroupAttributes),
		"CreateListener":                 core.Op(b.createListener),
		"DescribeListeners":              core.Op(b.describeListeners),
		"ModifyListener":                 core.Op(b.modifyListener),
		"DeleteListener":                 core.Op(b.deleteListener),
		"AddTags":                        core.Op(b.addTags),
		"RemoveTags":                     core.Op(b.removeTags),
		"DescribeTags":                   core.Op(b.describeTags),
		"DescribeTargetHealth":           core.Op(b.describeTargetHealth),
		"DescribeRules":                  core.Op(b.describeRules),
		"CreateRule":                     core.Op(b.createRule),
		"ModifyRule":                     core.Op(b.modifyRule),
		"SetRulePriorities":              core.Op(b.setRulePriorities),
		"DeleteRule":                     core.Op(b.deleteRule),
		"RegisterTargets":                core.Op(b.registerTargets),
		"DeregisterTargets":              core.Op(b.deregisterTargets),
	}
}
