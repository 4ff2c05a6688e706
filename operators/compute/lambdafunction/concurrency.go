package lambdafunction

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planConcurrency plans reserving the spec's concurrency, or releasing a reservation the spec
// does not ask for, from what GetFunction reported.
func (d *driver) planConcurrency(plan *managed.Plan, f *v1alpha1.LambdaFunction, out *lambda.GetFunctionOutput) {
	var got *int32
	if out.Concurrency != nil {
		got = out.Concurrency.ReservedConcurrentExecutions
	}
	want, name := f.Spec.ReservedConcurrency, aws.ToString(out.Configuration.FunctionName)
	switch {
	case want == nil && got == nil, want != nil && got != nil && *want == *got:
		return
	case want == nil:
		plan.AddValue("reservedConcurrency", reservation(got), reservation(nil), func(ctx context.Context) error {
			_, err := d.api.DeleteFunctionConcurrency(ctx, &lambda.DeleteFunctionConcurrencyInput{FunctionName: aws.String(name)})
			return managed.Wrap(err, "release the reserved concurrency of function %s", name)
		})
	default:
		plan.AddValue("reservedConcurrency", reservation(got), *want, func(ctx context.Context) error {
			_, err := d.api.PutFunctionConcurrency(ctx, &lambda.PutFunctionConcurrencyInput{FunctionName: aws.String(name), ReservedConcurrentExecutions: want})
			return managed.Wrap(err, "reserve %d concurrent executions for function %s", *want, name)
		})
	}
}

// reservation is how a plan shows a function's reserved concurrency: the number, or "none".
func reservation(n *int32) any {
	if n == nil {
		return "none"
	}
	return *n
}
