package lambda

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// AccountConcurrency is the concurrent executions each account has in each region: Lambda's
// default quota (Lambda quotas, Concurrent executions: 1,000).
const AccountConcurrency = 1000

// UnreservedMinimum is how many of them must stay unreserved: functions may reserve concurrency
// "as long as you leave at least 100 simultaneous executions unreserved for functions that
// aren't configured with a per-function limit" (PutFunctionConcurrency).
const UnreservedMinimum = 100

// putFunctionConcurrency reserves concurrency for a function, within what the account's other
// functions leave: reserving more than AccountConcurrency - UnreservedMinimum in all is refused.
func (b *Backend) putFunctionConcurrency(call *core.Call, in *lambda.PutFunctionConcurrencyInput) (*lambda.PutFunctionConcurrencyOutput, error) {
	want := aws.ToInt32(in.ReservedConcurrentExecutions)
	if want < 0 {
		return nil, validationf("Value '%d' at 'reservedConcurrentExecutions' failed to satisfy constraint: Member must have value greater than or equal to 0", want)
	}
	return withUnqualified(b, call, in.FunctionName, func(f *function) (*lambda.PutFunctionConcurrencyOutput, error) {
		reserved := int(want)
		for _, other := range b.state.Of(call) {
			if other != f && other.concurrency != nil {
				reserved += int(*other.concurrency)
			}
		}
		if AccountConcurrency-reserved < UnreservedMinimum {
			return nil, invalidParameter("Specified ReservedConcurrentExecutions for function decreases account's UnreservedConcurrentExecution below its minimum value of [%d].", UnreservedMinimum)
		}
		f.concurrency = aws.Int32(want)
		return &lambda.PutFunctionConcurrencyOutput{ReservedConcurrentExecutions: aws.Int32(want)}, nil
	})
}

// getFunctionConcurrency answers a function's reserved concurrency, nothing when none is
// reserved.
func (b *Backend) getFunctionConcurrency(call *core.Call, in *lambda.GetFunctionConcurrencyInput) (*lambda.GetFunctionConcurrencyOutput, error) {
	return withUnqualified(b, call, in.FunctionName, func(f *function) (*lambda.GetFunctionConcurrencyOutput, error) {
		return &lambda.GetFunctionConcurrencyOutput{ReservedConcurrentExecutions: f.concurrency}, nil
	})
}

// deleteFunctionConcurrency removes a function's reservation; the function then uses the
// account's unreserved concurrency.
func (b *Backend) deleteFunctionConcurrency(call *core.Call, in *lambda.DeleteFunctionConcurrencyInput) (*lambda.DeleteFunctionConcurrencyOutput, error) {
	return withUnqualified(b, call, in.FunctionName, func(f *function) (*lambda.DeleteFunctionConcurrencyOutput, error) {
		f.concurrency = nil
		return &lambda.DeleteFunctionConcurrencyOutput{}, nil
	})
}
