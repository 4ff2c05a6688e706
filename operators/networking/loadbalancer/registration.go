package loadbalancer

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// managesTargets reports whether the spec lists the group's targets (an empty list included):
// a group without the field keeps the targets others register (an ECSService's tasks).
func managesTargets(g v1alpha1.TargetGroup) bool { return g.Targets != nil }

// health reads, with one DescribeTargetHealth each, the targets of the spec's groups that exist
// and whose targets the spec lists, by group name.
func (d *driver[O]) health(ctx context.Context, v view, groups map[string]types.TargetGroup) (map[string][]types.TargetHealthDescription, error) {
	out := map[string][]types.TargetHealthDescription{}
	for _, g := range v.spec.TargetGroups {
		got, exists := groups[g.Name]
		if !exists || !managesTargets(g) {
			continue
		}
		h, err := d.api.DescribeTargetHealth(ctx, &elb.DescribeTargetHealthInput{TargetGroupArn: got.TargetGroupArn})
		if err != nil {
			return nil, fmt.Errorf("describe the target health of target group %s: %w", g.Name, err)
		}
		out[g.Name] = h.TargetHealthDescriptions
	}
	return out, nil
}

// targetID returns the id a spec target registers (its references are resolved into
// instanceID and lambdaFunctionARN).
func targetID(t v1alpha1.Target) string {
	switch {
	case t.InstanceID != "":
		return t.InstanceID
	case t.LambdaFunctionARN != "":
		return t.LambdaFunctionARN
	}
	return t.IP
}

// registrationKey identifies a registration: the same id may be registered on several ports.
func registrationKey(id string, port int32) string { return id + ":" + strconv.Itoa(int(port)) }

// wantedTargets returns the group's targets as ELBv2 registers them, by registration key: the
// group's port when a target names none, no port for a Lambda function.
func wantedTargets(g v1alpha1.TargetGroup) map[string]types.TargetDescription {
	out := map[string]types.TargetDescription{}
	for _, t := range g.Targets {
		d := types.TargetDescription{Id: aws.String(targetID(t)), AvailabilityZone: optional(t.AvailabilityZone)}
		if g.TargetType != string(types.TargetTypeEnumLambda) {
			d.Port = t.Port
			if d.Port == nil {
				d.Port = g.Port
			}
		}
		out[registrationKey(targetID(t), aws.ToInt32(d.Port))] = d
	}
	return out
}

// planTargets plans, for each group whose spec lists targets, one RegisterTargets call for the
// targets AWS does not have and one DeregisterTargets call for the registered targets (not
// already draining) the spec does not list. A target's availability zone is given at
// registration only: AWS cannot change it.
func (d *driver[O]) planTargets(v view, st *State) managed.Plan {
	var plan managed.Plan
	for _, g := range v.spec.TargetGroups {
		described, ok := st.Health[g.Name]
		if !ok {
			continue
		}
		arn := st.Groups[g.Name].TargetGroupArn
		want := wantedTargets(g)
		registered := map[string]types.TargetDescription{}
		for _, h := range described {
			if h.TargetHealth != nil && h.TargetHealth.State == types.TargetHealthStateEnumDraining {
				continue
			}
			registered[registrationKey(aws.ToString(h.Target.Id), aws.ToInt32(h.Target.Port))] = types.TargetDescription{Id: h.Target.Id, Port: h.Target.Port}
		}
		var add, remove []types.TargetDescription
		for _, k := range slices.Sorted(maps.Keys(want)) {
			if _, ok := registered[k]; !ok {
				add = append(add, want[k])
			}
		}
		for _, k := range slices.Sorted(maps.Keys(registered)) {
			if _, ok := want[k]; !ok {
				remove = append(remove, registered[k])
			}
		}
		if len(add) > 0 {
			plan.Add("targets", func(ctx context.Context) error {
				_, err := d.api.RegisterTargets(ctx, &elb.RegisterTargetsInput{TargetGroupArn: arn, Targets: add})
				return managed.Wrap(err, "register %d targets in target group %s", len(add), g.Name)
			})
		}
		if len(remove) > 0 {
			plan.Add("targets", func(ctx context.Context) error {
				_, err := d.api.DeregisterTargets(ctx, &elb.DeregisterTargetsInput{TargetGroupArn: arn, Targets: remove})
				return managed.Wrap(err, "deregister %d targets from target group %s", len(remove), g.Name)
			})
		}
	}
	return plan
}

// targetStatus returns the health of a group's targets as the status reports them.
func targetStatus(described []types.TargetHealthDescription) []v1alpha1.TargetHealthStatus {
	out := make([]v1alpha1.TargetHealthStatus, 0, len(described))
	for _, h := range described {
		s := v1alpha1.TargetHealthStatus{ID: aws.ToString(h.Target.Id), Port: aws.ToInt32(h.Target.Port)}
		if h.TargetHealth != nil {
			s.State, s.Reason = string(h.TargetHealth.State), string(h.TargetHealth.Reason)
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b v1alpha1.TargetHealthStatus) int {
		return strings.Compare(registrationKey(a.ID, a.Port), registrationKey(b.ID, b.Port))
	})
	return out
}
