package loadbalancer

import (
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// compare names the fields where AWS differs from the spec, and returns the terminal error of
// a scheme or a target group setting that differs and cannot change.
func (d *driver[O]) compare(o O, v view, st *State) (managed.Diff, error) {
	lb := st.LB
	arn := aws.ToString(lb.LoadBalancerArn)
	if scheme := or(v.spec.Scheme, string(types.LoadBalancerSchemeEnumInternetFacing)); string(lb.Scheme) != scheme {
		return nil, managed.Terminal(managed.ReasonInvalidSpec, "load balancer %s is %s, not the spec's %s; a scheme cannot change, create a new load balancer",
			v.name, lb.Scheme, scheme)
	}
	var diff managed.Diff
	diff.Check("subnets", !managed.SameSet(v.spec.SubnetIDs, observedSubnets(lb)))
	diff.Check("securityGroups", wantsGroups(v) && !managed.SameSet(*v.groups, lb.SecurityGroups))
	diff.Check("ipAddressType", string(lb.IpAddressType) != ipAddressType(v))
	diff.Check("attributes", len(attributeChanges(v.spec.Attributes, st.Attributes)) > 0)
	desired := managed.DesiredTags(o, d.defaultTags)
	set, remove := managed.TagChanges(desired, st.Tags[arn])
	diff.Check("tags", len(set)+len(remove) > 0)
	groups, err := planGroups(v, st, desired)
	if err != nil {
		return nil, err
	}
	diff.Check("targetGroups", !groups.empty())
	diff.Check("listeners", !planListeners(v, st).empty())
	return diff, nil
}

// wantsGroups reports whether the spec names security groups (an ALB's; without any, AWS's
// default group stays).
func wantsGroups(v view) bool {
	return v.groups != nil && len(*v.groups) > 0
}

// ipAddressType returns the spec's IP address type, ipv4 when absent.
func ipAddressType(v view) string {
	return or(v.spec.IPAddressType, string(types.IpAddressTypeIpv4))
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

// groupPlan is what brings the target groups to the spec.
type groupPlan struct {
	// create are the spec's groups that do not exist.
	create []v1alpha1.TargetGroup
	// modify are the spec's groups whose health check differs.
	modify []v1alpha1.TargetGroup
	// retag are the ARNs of the groups whose tags differ.
	retag []string
	// remove are the groups this object owns that the spec no longer names.
	remove []types.TargetGroup
}

// empty reports whether the target groups match the spec.
func (p groupPlan) empty() bool {
	return len(p.create)+len(p.modify)+len(p.retag)+len(p.remove) == 0
}

// planGroups compares the spec's target groups with AWS's. A group whose protocol, port,
// target type or VPC is not the spec's is a terminal error: those cannot change.
func planGroups(v view, st *State, desiredTags map[string]string) (groupPlan, error) {
	var p groupPlan
	for _, want := range v.spec.TargetGroups {
		got, ok := st.Groups[want.Name]
		if !ok {
			p.create = append(p.create, want)
			continue
		}
		if err := sameSettings(want, got, aws.ToString(st.LB.VpcId)); err != nil {
			return groupPlan{}, err
		}
		if healthCheckDiffers(want.HealthCheck, got) {
			p.modify = append(p.modify, want)
		}
		arn := aws.ToString(got.TargetGroupArn)
		if set, remove := managed.TagChanges(desiredTags, st.Tags[arn]); len(set)+len(remove) > 0 {
			p.retag = append(p.retag, arn)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(st.Groups)) {
		if !slices.ContainsFunc(v.spec.TargetGroups, func(g v1alpha1.TargetGroup) bool { return g.Name == name }) {
			p.remove = append(p.remove, st.Groups[name])
		}
	}
	return p, nil
}

// sameSettings returns a terminal error when got's protocol, port, target type or VPC is not
// want's.
func sameSettings(want v1alpha1.TargetGroup, got types.TargetGroup, vpc string) error {
	targetType := or(want.TargetType, string(types.TargetTypeEnumInstance))
	switch {
	case string(got.TargetType) != targetType:
		return immutable(want.Name, "target type", string(got.TargetType), targetType)
	case string(got.Protocol) != want.Protocol:
		return immutable(want.Name, "protocol", string(got.Protocol), want.Protocol)
	case aws.ToInt32(got.Port) != aws.ToInt32(want.Port):
		return immutable(want.Name, "port", aws.ToInt32(got.Port), aws.ToInt32(want.Port))
	case targetType != string(types.TargetTypeEnumLambda) && aws.ToString(got.VpcId) != vpc:
		return immutable(want.Name, "VPC", aws.ToString(got.VpcId), vpc)
	}
	return nil
}

// immutable returns the terminal error for a target group setting that cannot change.
func immutable(name, what string, got, want any) error {
	return managed.Terminal(managed.ReasonInvalidSpec, "target group %s has the %s %v in AWS, not %v; a target group's %s cannot change: give the group a new name to replace it",
		name, what, got, want, what)
}

// healthCheckDiffers reports whether a field the spec's health check sets differs from AWS's.
func healthCheckDiffers(want *v1alpha1.HealthCheck, got types.TargetGroup) bool {
	if want == nil {
		return false
	}
	differs := func(w *int32, g *int32) bool { return w != nil && aws.ToInt32(w) != aws.ToInt32(g) }
	matcher := ""
	if got.Matcher != nil {
		matcher = aws.ToString(got.Matcher.HttpCode)
	}
	return (want.Enabled != nil && *want.Enabled != aws.ToBool(got.HealthCheckEnabled)) ||
		(want.Protocol != "" && want.Protocol != string(got.HealthCheckProtocol)) ||
		(want.Port != "" && want.Port != aws.ToString(got.HealthCheckPort)) ||
		(want.Path != "" && want.Path != aws.ToString(got.HealthCheckPath)) ||
		(want.Matcher != "" && want.Matcher != matcher) ||
		differs(want.IntervalSeconds, got.HealthCheckIntervalSeconds) || differs(want.TimeoutSeconds, got.HealthCheckTimeoutSeconds) ||
		differs(want.HealthyThresholdCount, got.HealthyThresholdCount) || differs(want.UnhealthyThresholdCount, got.UnhealthyThresholdCount)
}

// listenerPlan is what brings the listeners to the spec.
type listenerPlan struct {
	// create are the spec's listeners on ports without one, with their actions.
	create []listenerChange
	// modify are the spec's listeners that differ from AWS's on their port.
	modify []listenerChange
	// remove are AWS's listeners on ports the spec does not name.
	remove []types.Listener
	// waiting is true when a listener forwards to a target group that does not exist yet.
	waiting bool
}

// listenerChange is one listener to create or modify.
type listenerChange struct {
	spec   v1alpha1.Listener
	action action
	arn    string
}

// empty reports whether the listeners match the spec.
func (p listenerPlan) empty() bool {
	return len(p.create)+len(p.modify)+len(p.remove) == 0 && !p.waiting
}

// planListeners compares the spec's listeners with AWS's, port by port.
func planListeners(v view, st *State) listenerPlan {
	var p listenerPlan
	for _, want := range v.spec.Listeners {
		act, ok := wantedAction(want.DefaultAction, st.Groups)
		if !ok {
			p.waiting = true
			continue
		}
		got, exists := st.Listeners[want.Port]
		switch {
		case !exists:
			p.create = append(p.create, listenerChange{spec: want, action: act})
		case !listenerMatches(want, act, got):
			p.modify = append(p.modify, listenerChange{spec: want, action: act, arn: aws.ToString(got.ListenerArn)})
		}
	}
	for _, port := range slices.Sorted(maps.Keys(st.Listeners)) {
		if !slices.ContainsFunc(v.spec.Listeners, func(l v1alpha1.Listener) bool { return l.Port == port }) {
			p.remove = append(p.remove, st.Listeners[port])
		}
	}
	return p
}

// listenerMatches reports whether AWS's listener has the spec's protocol, certificate, SSL
// policy (when the spec names one) and default action.
func listenerMatches(want v1alpha1.Listener, act action, got types.Listener) bool {
	cert := ""
	if len(got.Certificates) > 0 {
		cert = aws.ToString(got.Certificates[0].CertificateArn)
	}
	return string(got.Protocol) == want.Protocol && cert == want.CertificateARN &&
		(want.SSLPolicy == "" || want.SSLPolicy == aws.ToString(got.SslPolicy)) &&
		observedAction(got.DefaultActions) == act
}
