package loadbalancer

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
)

// applyGroups creates the missing target groups in the load balancer's VPC (recording each in
// st and the status at once), modifies the health checks that differ and sets the tags.
func (d *driver[O]) applyGroups(ctx context.Context, v view, st *State, p groupPlan, tags map[string]string) error {
	for _, g := range p.create {
		in := createGroupInput(g, aws.ToString(st.LB.VpcId), tags)
		out, err := d.api.CreateTargetGroup(ctx, in)
		if err != nil {
			return fmt.Errorf("create target group %s: %w", g.Name, err)
		}
		if len(out.TargetGroups) == 0 {
			return fmt.Errorf("create target group %s: AWS returned no target group", g.Name)
		}
		st.Groups[g.Name] = out.TargetGroups[0]
		st.Tags[aws.ToString(out.TargetGroups[0].TargetGroupArn)] = tags
		fillStatus(v, st)
	}
	for _, g := range p.modify {
		in := healthCheckInput(g.HealthCheck)
		in.TargetGroupArn = st.Groups[g.Name].TargetGroupArn
		if _, err := d.api.ModifyTargetGroup(ctx, in); err != nil {
			return fmt.Errorf("modify the health check of target group %s: %w", g.Name, err)
		}
	}
	for _, arn := range p.retag {
		if err := d.updateTags(ctx, arn, tags, st.Tags[arn]); err != nil {
			return err
		}
	}
	return nil
}

// createGroupInput returns the request that creates g in vpc with tags.
func createGroupInput(g v1alpha1.TargetGroup, vpc string, tags map[string]string) *elb.CreateTargetGroupInput {
	targetType := types.TargetTypeEnum(or(g.TargetType, string(types.TargetTypeEnumInstance)))
	in := &elb.CreateTargetGroupInput{Name: aws.String(g.Name), TargetType: targetType, Tags: tagList(tags)}
	if targetType != types.TargetTypeEnumLambda {
		in.Protocol, in.Port, in.VpcId = types.ProtocolEnum(g.Protocol), g.Port, aws.String(vpc)
	}
	hc := healthCheckInput(g.HealthCheck)
	in.HealthCheckEnabled, in.HealthCheckProtocol, in.HealthCheckPort, in.HealthCheckPath = hc.HealthCheckEnabled, hc.HealthCheckProtocol, hc.HealthCheckPort, hc.HealthCheckPath
	in.HealthCheckIntervalSeconds, in.HealthCheckTimeoutSeconds = hc.HealthCheckIntervalSeconds, hc.HealthCheckTimeoutSeconds
	in.HealthyThresholdCount, in.UnhealthyThresholdCount, in.Matcher = hc.HealthyThresholdCount, hc.UnhealthyThresholdCount, hc.Matcher
	return in
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
