package lambdafunction

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a function.
type State struct {
	// Function is GetFunction's answer for $LATEST.
	Function *lambda.GetFunctionOutput
}

// Observe reads the function with one GetFunction (its configuration, code, tags and reserved
// concurrency; its URL and resource policy only when the spec asks for a URL or the status
// shows one), fills the status and plans the changes that bring it in line with the spec.
//
// A Pending function, or one whose last update is InProgress, is busy. A failed function, or
// one whose last update failed, is terminal until the spec changes after the failure was
// reported; then the spec is applied again.
func (d *driver) Observe(ctx context.Context, f *v1alpha1.LambdaFunction, req managed.Request) (managed.Observation[State], error) {
	name := managed.ExternalName(f)
	if name == "" {
		name = f.Spec.FunctionName
	}
	out, err := d.api.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String(name)})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("get function %s: %w", name, err)
	}
	tags := out.Tags
	if tags == nil {
		tags = map[string]string{}
	}
	if err := managed.Claim(f, "Lambda function", name, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	cfg := out.Configuration
	fillStatus(f, out)
	obs := managed.Observation[State]{Exists: true, State: &State{Function: out}, Tags: tags}
	switch {
	case req.Deleting:
		return obs, nil
	case cfg.State == types.StatePending || cfg.LastUpdateStatus == types.LastUpdateStatusInProgress:
		what := "pending"
		if cfg.State != types.StatePending {
			what = "being updated"
		}
		obs.Busy, obs.Message, obs.Uncompared = true, "function "+name+" is "+what, []string{"configuration (" + what + ")"}
		return obs, nil
	case req.StalledBefore == condition.ReasonFunctionFailed:
		// The spec changed after the failure was reported: apply it again.
	case cfg.State == types.StateFailed:
		return managed.Observation[State]{}, managed.Terminal(condition.ReasonFunctionFailed, "function %s failed: %s: %s; remove the cause, then change the spec",
			name, cfg.StateReasonCode, aws.ToString(cfg.StateReason))
	case cfg.LastUpdateStatus == types.LastUpdateStatusFailed:
		return managed.Observation[State]{}, managed.Terminal(condition.ReasonFunctionFailed, "the last update of function %s failed: %s: %s; remove the cause, then change the spec",
			name, cfg.LastUpdateStatusReasonCode, aws.ToString(cfg.LastUpdateStatusReason))
	}
	obs.Ready = true
	if err := d.plan(ctx, &obs, f, out, req.Tags); err != nil {
		return managed.Observation[State]{}, err
	}
	return obs, nil
}

// fillStatus copies what AWS said about the function into the status.
func fillStatus(f *v1alpha1.LambdaFunction, out *lambda.GetFunctionOutput) {
	cfg, s := out.Configuration, &f.Status
	s.FunctionName, s.FunctionARN, s.Runtime = aws.ToString(cfg.FunctionName), aws.ToString(cfg.FunctionArn), string(cfg.Runtime)
	s.State, s.StateReason, s.LastUpdateStatus = string(cfg.State), aws.ToString(cfg.StateReason), string(cfg.LastUpdateStatus)
	s.CodeSHA256 = aws.ToString(cfg.CodeSha256)
	if !f.Spec.Publish || s.Version == "" {
		s.Version = aws.ToString(cfg.Version)
	}
}
