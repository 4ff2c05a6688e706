package elbv2

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// health returns a registered target's health at now, in the order AWS's states take
// precedence: draining after deregistration, unused while no listener or rule forwards to the
// group, unavailable with health checks disabled (as Lambda targets are by default), initial until the registration's transition
// ends, then healthy.
func (r *region) health(tg *targetGroup, t *target, now time.Time) *types.TargetHealth {
	switch {
	case !t.drainedAt.IsZero():
		return &types.TargetHealth{State: types.TargetHealthStateEnumDraining, Reason: types.TargetHealthReasonEnumDeregistrationInProgress,
			Description: aws.String("Target deregistration is in progress")}
	case len(r.usersOf(tg.arn)) == 0:
		return &types.TargetHealth{State: types.TargetHealthStateEnumUnused, Reason: types.TargetHealthReasonEnumNotInUse,
			Description: aws.String("Target group is not configured to receive traffic from the load balancer")}
	case !tg.hc.enabled:
		return &types.TargetHealth{State: types.TargetHealthStateEnumUnavailable, Reason: types.TargetHealthReasonEnumHealthCheckDisabled,
			Description: aws.String("Health checks are disabled")}
	case now.Before(t.healthyAt):
		return &types.TargetHealth{State: types.TargetHealthStateEnumInitial, Reason: types.TargetHealthReasonEnumRegistrationInProgress,
			Description: aws.String("Target registration is in progress")}
	}
	return &types.TargetHealth{State: types.TargetHealthStateEnumHealthy}
}

// describeTargetHealth reports the health of a target group's targets, or of the targets asked
// about; one that is not registered is "unused" with reason Target.NotRegistered, as on AWS.
func (b *Backend) describeTargetHealth(call *core.Call, in *elb.DescribeTargetHealthInput) (*elb.DescribeTargetHealthOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*elb.DescribeTargetHealthOutput, error) {
		tg, err := r.targetGroup(in.TargetGroupArn)
		if err != nil {
			return nil, err
		}
		tg.prune(call.Now)
		out := &elb.DescribeTargetHealthOutput{TargetHealthDescriptions: []types.TargetHealthDescription{}}
		describe := func(t *target) {
			d := types.TargetHealthDescription{Target: t.describe(tg), TargetHealth: r.health(tg, t, call.Now)}
			if !tg.isLambda() {
				d.HealthCheckPort = aws.String(t.healthCheckPort(tg))
			}
			out.TargetHealthDescriptions = append(out.TargetHealthDescriptions, d)
		}
		if len(in.Targets) == 0 {
			for _, k := range core.SortedKeys(tg.targets) {
				describe(tg.targets[k])
			}
			return out, nil
		}
		for _, t := range in.Targets {
			port := aws.ToInt32(t.Port)
			if t.Port == nil && !tg.isLambda() {
				port = tg.port
			}
			if registered := tg.targets[targetKey(aws.ToString(t.Id), port)]; registered != nil {
				describe(registered)
				continue
			}
			out.TargetHealthDescriptions = append(out.TargetHealthDescriptions, types.TargetHealthDescription{
				Target: &t,
				TargetHealth: &types.TargetHealth{State: types.TargetHealthStateEnumUnused, Reason: types.TargetHealthReasonEnumNotRegistered,
					Description: aws.String("Target is not registered to the target group")},
			})
		}
		return out, nil
	})
}
