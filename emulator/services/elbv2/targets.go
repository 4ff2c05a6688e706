package elbv2

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	elb "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// describeTargetHealth reports the health of a target group's targets. Registering targets is
// not emulated, so a target group has none: without Targets the list is empty, and each target
// asked about is "unused" with reason Target.NotRegistered, as AWS reports a target that is not
// registered.
func (b *Backend) describeTargetHealth(call *core.Call, in *elb.DescribeTargetHealthInput) (*elb.DescribeTargetHealthOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*elb.DescribeTargetHealthOutput, error) {
		if _, err := r.targetGroup(in.TargetGroupArn); err != nil {
			return nil, err
		}
		out := &elb.DescribeTargetHealthOutput{TargetHealthDescriptions: []types.TargetHealthDescription{}}
		for _, t := range in.Targets {
			out.TargetHealthDescriptions = append(out.TargetHealthDescriptions, types.TargetHealthDescription{
				Target: &t,
				TargetHealth: &types.TargetHealth{State: types.TargetHealthStateEnumUnused, Reason: types.TargetHealthReasonEnumNotRegistered,
					Description: aws.String("Target is not registered to the target group")},
			})
		}
		return out, nil
	})
}
