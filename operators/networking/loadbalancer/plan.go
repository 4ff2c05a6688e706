package loadbalancer

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// plan compares the load balancer with the spec once and plans, in this order, the calls that
// remove each difference: subnets, security groups, IP address type, attributes and tags;
// then it creates and modifies target groups, creates, modifies and deletes listeners, makes
// the listeners' rules the spec's, adds and removes the invoke permissions of Lambda targets
// (grants, planned by planInvokeGrants), registers and deregisters targets, and last deletes
// the target groups the spec no longer names (no listener or rule forwards to them any more).
// It returns, planning nothing, the terminal error of a scheme or a target group setting that
// differs and cannot change. The plan shows the values of the load balancer's own settings;
// target groups, listeners, rules and targets, changed by several calls each, by name only.
func (d *driver[O]) plan(p *managed.Plan, v view, st *State, tags map[string]string, grants managed.Plan) error {
	lb, arn := st.LB, st.LB.LoadBalancerArn
	if scheme := cmp.Or(v.spec.Scheme, string(types.LoadBalancerSchemeEnumInternetFacing)); string(lb.Scheme) != scheme {
		return managed.Terminal(condition.ReasonInvalidSpec, "load balancer %s is %s, not the spec's %s; a scheme cannot change, create a new load balancer",
			v.name, lb.Scheme, scheme)
	}
	groups, unnamed, err := d.planGroups(v, st, tags)
	if err != nil {
		return err
	}
	if !managed.SameSet(v.spec.SubnetIDs, observedSubnets(lb)) {
		p.AddValue("subnets", sortedSet(observedSubnets(lb)), sortedSet(v.spec.SubnetIDs), func(ctx context.Context) error {
			_, err := d.api.SetSubnets(ctx, &elb.SetSubnetsInput{LoadBalancerArn: arn, Subnets: v.spec.SubnetIDs})
			return managed.Wrap(err, "set the subnets of load balancer %s", v.name)
		})
	}
	if wantsGroups(v) && !managed.SameSet(*v.groups, lb.SecurityGroups) {
		p.AddValue("securityGroups", sortedSet(lb.SecurityGroups), sortedSet(*v.groups), func(ctx context.Context) error {
			_, err := d.api.SetSecurityGroups(ctx, &elb.SetSecurityGroupsInput{LoadBalancerArn: arn, SecurityGroups: *v.groups})
			return managed.Wrap(err, "set the security groups of load balancer %s", v.name)
		})
	}
	if want := ipAddressType(v); string(lb.IpAddressType) != want {
		p.AddValue("ipAddressType", lb.IpAddressType, want, func(ctx context.Context) error {
			_, err := d.api.SetIpAddressType(ctx, &elb.SetIpAddressTypeInput{LoadBalancerArn: arn, IpAddressType: types.IpAddressType(want)})
			return managed.Wrap(err, "set the IP address type of load balancer %s", v.name)
		})
	}
	if changes := attributeChanges(v.spec.Attributes, st.Attributes); len(changes) > 0 {
		current, desired := map[string]string{}, map[string]string{}
		for _, a := range changes {
			k := aws.ToString(a.Key)
			current[k], desired[k] = st.Attributes[k], aws.ToString(a.Value)
		}
		p.AddValue("attributes", current, desired, func(ctx context.Context) error {
			_, err := d.api.ModifyLoadBalancerAttributes(ctx, &elb.ModifyLoadBalancerAttributesInput{LoadBalancerArn: arn, Attributes: changes})
			return managed.Wrap(err, "modify %d attributes of load balancer %s", len(changes), v.name)
		})
	}
	p.AddTags(tags, st.Tags[aws.ToString(arn)], d.tagCalls(aws.ToString(arn)))
	if len(groups)+len(unnamed) > 0 {
		p.Add("targetGroups", groups.Apply)
	}
	if listeners := d.planListeners(v, st); len(listeners) > 0 {
		p.Add("listeners", listeners.Apply)
	}
	if rules := d.planRules(v, st); len(rules) > 0 {
		p.Add("rules", rules.Apply)
	}
	*p = append(*p, grants...)
	if registrations := d.planTargets(v, st); len(registrations) > 0 {
		p.Add("targets", registrations.Apply)
	}
	if len(unnamed) > 0 {
		// Part of the targetGroups change, made once no listener forwards to the groups.
		*p = append(*p, managed.Change{Apply: func(ctx context.Context) error { return d.removeGroups(ctx, v, st, unnamed) }})
	}
	return nil
}

// sortedSet is how a plan shows a set of ids: sorted, without repeats, and [] for none.
func sortedSet(ids []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(append([]string{}, ids...))))
}

// wantsGroups reports whether the spec names security groups (an ALB's; without any, AWS's
// default group stays).
func wantsGroups(v view) bool {
	return v.groups != nil && len(*v.groups) > 0
}

// ipAddressType returns the spec's IP address type, ipv4 when absent.
func ipAddressType(v view) string {
	return cmp.Or(v.spec.IPAddressType, string(types.IpAddressTypeIpv4))
}

// observedSubnets returns the subnets of the load balancer's availability zones.
func observedSubnets(lb types.LoadBalancer) []string {
	var ids []string
	for _, z := range lb.AvailabilityZones {
		ids = append(ids, aws.ToString(z.SubnetId))
	}
	return ids
}

// attributeChanges returns the attributes the spec names whose values AWS does not have.
func attributeChanges(want, got map[string]string) []types.LoadBalancerAttribute {
	var changes []types.LoadBalancerAttribute
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got[k] != want[k] {
			changes = append(changes, types.LoadBalancerAttribute{Key: aws.String(k), Value: aws.String(want[k])})
		}
	}
	return changes
}
