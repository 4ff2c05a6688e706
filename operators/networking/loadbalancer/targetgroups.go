package loadbalancer

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planGroups plans, in this order, the creation of the spec's target groups that do not exist,
// the health checks that differ and the tags that differ; it returns those changes and the
// groups this object owns that the spec no longer names. A group whose protocol, port, target
// type or VPC is not the spec's is a terminal error: those cannot change.
func (d *driver[O]) planGroups(v view, st *State, tags map[string]string) (managed.Plan, []types.TargetGroup, error) {
	var create, modify, retag managed.Plan
	for _, want := range v.spec.TargetGroups {
		got, ok := st.Groups[want.Name]
		if !ok {
			create.Add("targetGroups", func(ctx context.Context) error { return d.createGroup(ctx, v, st, want, tags) })
			continue
		}
		if err := sameSettings(want, got, aws.ToString(st.LB.VpcId)); err != nil {
			return nil, nil, err
		}
		if healthCheckDiffers(want.HealthCheck, got) {
			modify.Add("targetGroups", func(ctx context.Context) error {
				in := healthCheckInput(want.HealthCheck)
				in.TargetGroupArn = got.TargetGroupArn
				_, err := d.api.ModifyTargetGroup(ctx, in)
				return managed.Wrap(err, "modify the health check of target group %s", want.Name)
			})
		}
		arn := aws.ToString(got.TargetGroupArn)
		retag.AddTags(tags, st.Tags[arn], d.tagCalls(arn))
	}
	var remove []types.TargetGroup
	for _, name := range slices.Sorted(maps.Keys(st.Groups)) {
		if !slices.ContainsFunc(v.spec.TargetGroups, func(g v1alpha1.TargetGroup) bool { return g.Name == name }) {
			remove = append(remove, st.Groups[name])
		}
	}
	return slices.Concat(create, modify, retag), remove, nil
}

// sameSettings returns a terminal error when got's protocol, port, target type or VPC is not
// want's.
func sameSettings(want v1alpha1.TargetGroup, got types.TargetGroup, vpc string) error {
	targetType := cmp.Or(want.TargetType, string(types.TargetTypeEnumInstance))
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
	return managed.Terminal(condition.ReasonInvalidSpec, "target group %s has the %s %v in AWS, not %v; a target group's %s cannot change: give the group a new name to replace it",
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

// createGroup creates the target group g in the load balancer's VPC with tags, and records it
// in st and the status at once.
func (d *driver[O]) createGroup(ctx context.Context, v view, st *State, g v1alpha1.TargetGroup, tags map[string]string) error {
	targetType := types.TargetTypeEnum(cmp.Or(g.TargetType, string(types.TargetTypeEnumInstance)))
	in := &elb.CreateTargetGroupInput{Name: aws.String(g.Name), TargetType: targetType, Tags: tagList(tags)}
	if targetType != types.TargetTypeEnumLambda {
		in.Protocol, in.Port, in.VpcId = types.ProtocolEnum(g.Protocol), g.Port, aws.String(aws.ToString(st.LB.VpcId))
	}
	hc := healthCheckInput(g.HealthCheck)
	in.HealthCheckEnabled, in.HealthCheckProtocol, in.HealthCheckPort, in.HealthCheckPath = hc.HealthCheckEnabled, hc.HealthCheckProtocol, hc.HealthCheckPort, hc.HealthCheckPath
	in.HealthCheckIntervalSeconds, in.HealthCheckTimeoutSeconds = hc.HealthCheckIntervalSeconds, hc.HealthCheckTimeoutSeconds
	in.HealthyThresholdCount, in.UnhealthyThresholdCount, in.Matcher = hc.HealthyThresholdCount, hc.UnhealthyThresholdCount, hc.Matcher
	out, err := d.api.CreateTargetGroup(ctx, in)
	if err != nil {
		return fmt.Errorf("create target group %s: %w", g.Name, err)
	}
	if len(out.TargetGroups) == 0 {
		return fmt.Errorf("create target group %s: AWS returned no target group", g.Name)
	}
	st.Groups[g.Name] = out.TargetGroups[0]
	fillStatus(v, st)
	return nil
}

// removeGroups deletes the target groups the spec no longer names and drops them from st and
// the status.
func (d *driver[O]) removeGroups(ctx context.Context, v view, st *State, groups []types.TargetGroup) error {
	for _, g := range groups {
		if err := d.deleteGroup(ctx, g); err != nil {
			return err
		}
		delete(st.Groups, aws.ToString(g.TargetGroupName))
	}
	fillStatus(v, st)
	return nil
}

// healthCheckInput returns the health check fields the spec sets, as ModifyTargetGroup takes
// them.
func healthCheckInput(hc *v1alpha1.HealthCheck) *elb.ModifyTargetGroupInput {
	in := &elb.ModifyTargetGroupInput{}
	if hc == nil {
		return in
	}
	in.HealthCheckEnabled, in.HealthCheckProtocol = hc.Enabled, types.ProtocolEnum(hc.Protocol)
	in.HealthCheckPort, in.HealthCheckPath = optional(hc.Port), optional(hc.Path)
	in.HealthCheckIntervalSeconds, in.HealthCheckTimeoutSeconds = hc.IntervalSeconds, hc.TimeoutSeconds
	in.HealthyThresholdCount, in.UnhealthyThresholdCount = hc.HealthyThresholdCount, hc.UnhealthyThresholdCount
	if hc.Matcher != "" {
		in.Matcher = &types.Matcher{HttpCode: aws.String(hc.Matcher)}
	}
	return in
}

// deleteGroup deletes a target group; one already gone is success.
func (d *driver[O]) deleteGroup(ctx context.Context, g types.TargetGroup) error {
	_, err := d.api.DeleteTargetGroup(ctx, &elb.DeleteTargetGroupInput{TargetGroupArn: g.TargetGroupArn})
	if err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("delete target group %s: %w", aws.ToString(g.TargetGroupName), err)
	}
	return nil
}
