package elbv2

import (
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxTargets is how many instances or IP addresses a target group may have registered (Quotas
// for your Application Load Balancers: targets per target group); a Lambda target group has one.
const maxTargets = 1000

// target is one target registered in a target group. It is healthy from healthyAt; once
// deregistered it drains until drainedAt, when it is gone.
type target struct {
	id, zone             string
	port                 int32
	healthyAt, drainedAt time.Time
}

// targetKey identifies a registration: the same id may be registered on several ports.
func targetKey(id string, port int32) string { return id + ":" + strconv.Itoa(int(port)) }

// describe returns the target as DescribeTargetHealth names it.
func (t *target) describe(tg *targetGroup) *types.TargetDescription {
	d := &types.TargetDescription{Id: aws.String(t.id), AvailabilityZone: optional(t.zone)}
	if !tg.isLambda() {
		d.Port = aws.Int32(t.port)
	}
	return d
}

// healthCheckPort returns the port the target group's health checks reach the target on.
func (t *target) healthCheckPort(tg *targetGroup) string {
	if tg.hc.port == "traffic-port" {
		return strconv.Itoa(int(t.port))
	}
	return tg.hc.port
}

// prune forgets the targets that have finished draining by now, so that a target group holds
// at most its registered targets and those still draining.
func (tg *targetGroup) prune(now time.Time) {
	for k, t := range tg.targets {
		if !t.drainedAt.IsZero() && !now.Before(t.drainedAt) {
			delete(tg.targets, k)
		}
	}
}

// checkTargets checks the targets of a RegisterTargets or DeregisterTargets call for a target
// group of its target type and returns them with their ports filled in.
func (r *region) checkTargets(tg *targetGroup, in []types.TargetDescription) ([]types.TargetDescription, error) {
	if len(in) == 0 {
		return nil, validation("At least one target must be specified")
	}
	out := make([]types.TargetDescription, 0, len(in))
	for _, t := range in {
		id := aws.ToString(t.Id)
		if err := r.checkTargetID(tg, id, aws.ToString(t.AvailabilityZone)); err != nil {
			return nil, err
		}
		if tg.isLambda() {
			if t.Port != nil {
				return nil, validation("A port cannot be specified for targets of target type 'lambda'")
			}
		} else if t.Port == nil {
			t.Port = aws.Int32(tg.port)
		} else if err := inRange("port", t.Port, 1, 65535); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// withTargets runs f, holding the lock, on the target group a RegisterTargets or
// DeregisterTargets call names, rid of the targets that have drained, and on the call's targets
// once checked.
func withTargets[O any](b *Backend, call *core.Call, arn *string, in []types.TargetDescription,
	f func(tg *targetGroup, targets []types.TargetDescription) (*O, error)) (*O, error) {
	return core.Locked(b.state, call, func(r *region) (*O, error) {
		tg, err := r.targetGroup(arn)
		if err != nil {
			return nil, err
		}
		targets, err := r.checkTargets(tg, in)
		if err != nil {
			return nil, err
		}
		tg.prune(call.Now)
		return f(tg, targets)
	})
}

// elbPrincipal is the service principal a Lambda function's policy must let invoke it.
const elbPrincipal = "elasticloadbalancing.amazonaws.com"

// checkRegistrable checks, for RegisterTargets, what other services know of the targets: an
// instance must exist (InvalidTarget), be running and be in the target group's VPC; a Lambda
// function must exist and let Elastic Load Balancing invoke it from the target group
// (AccessDenied, with AWS's text).
func (b *Backend) checkRegistrable(call *core.Call, tg *targetGroup, targets []types.TargetDescription) error {
	for _, t := range targets {
		id := aws.ToString(t.Id)
		switch tg.targetType {
		case types.TargetTypeEnumInstance:
			vpc, state, ok := b.network.Instance(call.Scope(), id, call.Now)
			switch {
			case !ok:
				return core.Errorf("InvalidTarget", "The following targets are not valid: '%s'", id)
			case state != "running":
				return core.Errorf("InvalidTarget", "The following targets are not in a running state and cannot be registered: '%s'", id)
			case vpc != tg.vpc:
				return core.Errorf("InvalidTarget", "The following targets are not in the target group VPC '%s': '%s'", tg.vpc, id)
			}
		case types.TargetTypeEnumLambda:
			if b.functions == nil {
				continue
			}
			exists, allowed := b.functions.MayInvoke(call.Scope(), id, elbPrincipal, tg.arn)
			if !exists {
				return core.Errorf("InvalidTarget", "The following targets are not valid: '%s'", id)
			}
			if !allowed {
				return core.Errorf("AccessDenied", "elasticloadbalancing principal does not have permission to invoke %s from target group %s", id, tg.arn)
			}
		}
	}
	return nil
}

// registerTargets registers targets, or refreshes them when already registered: a draining
// target is registered again and goes through its health checks anew.
func (b *Backend) registerTargets(call *core.Call, in *elb.RegisterTargetsInput) (*elb.RegisterTargetsOutput, error) {
	return withTargets(b, call, in.TargetGroupArn, in.Targets, func(tg *targetGroup, targets []types.TargetDescription) (*elb.RegisterTargetsOutput, error) {
		if err := b.checkRegistrable(call, tg, targets); err != nil {
			return nil, err
		}
		limit := maxTargets
		if tg.isLambda() {
			limit = 1
		}
		added := map[string]*target{}
		for _, t := range targets {
			k := targetKey(*t.Id, aws.ToInt32(t.Port))
			if old := tg.targets[k]; old != nil && old.drainedAt.IsZero() {
				continue
			}
			added[k] = &target{id: *t.Id, zone: aws.ToString(t.AvailabilityZone), port: aws.ToInt32(t.Port), healthyAt: call.Now.Add(call.Transition)}
		}
		registered := len(added)
		for k := range tg.targets {
			if added[k] == nil {
				registered++
			}
		}
		if registered > limit {
			return nil, core.Errorf("TooManyTargets", "You've reached the limit on the number of targets per target group (%d)", limit)
		}
		for k, t := range added {
			tg.targets[k] = t
		}
		return &elb.RegisterTargetsOutput{}, nil
	})
}

// deregisterTargets starts the draining of registered targets for the target group's
// deregistration delay; a target that is not registered is an InvalidTarget error.
func (b *Backend) deregisterTargets(call *core.Call, in *elb.DeregisterTargetsInput) (*elb.DeregisterTargetsOutput, error) {
	return withTargets(b, call, in.TargetGroupArn, in.Targets, func(tg *targetGroup, targets []types.TargetDescription) (*elb.DeregisterTargetsOutput, error) {
		unregistered := func(t types.TargetDescription) bool {
			old := tg.targets[targetKey(*t.Id, aws.ToInt32(t.Port))]
			return old == nil || !old.drainedAt.IsZero()
		}
		if i := slices.IndexFunc(targets, unregistered); i >= 0 {
			return nil, core.Errorf("InvalidTarget", "The following targets are not registered in target group '%s': '%s'", tg.arn, *targets[i].Id)
		}
		delay, _ := strconv.Atoi(tgAttributes.value(tg, tg.attrs, "deregistration_delay.timeout_seconds"))
		for _, t := range targets {
			tg.targets[targetKey(*t.Id, aws.ToInt32(t.Port))].drainedAt = call.Now.Add(time.Duration(delay) * time.Second)
		}
		tg.prune(call.Now)
		return &elb.DeregisterTargetsOutput{}, nil
	})
}
