package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
)

// TestLambdaConcurrency reserves concurrency for two functions up to what the account allows
// (1000, of which 100 stay unreserved), reads it back and removes it.
func TestLambdaConcurrency(t *testing.T) {
	_, c, _ := lambdaEmulator(t)
	ctx := context.Background()
	for _, name := range []string{"orders", "payments"} {
		if _, err := c.CreateFunction(ctx, zipFunction(t, name)); err != nil {
			t.Fatal(err)
		}
	}
	put := func(name string, n int32) error {
		_, err := c.PutFunctionConcurrency(ctx, &lambda.PutFunctionConcurrencyInput{FunctionName: aws.String(name), ReservedConcurrentExecutions: aws.Int32(n)})
		return err
	}
	if err := put("orders", 400); err != nil {
		t.Fatal(err)
	}
	if err := put("payments", 500); err != nil {
		t.Errorf("reserving 500 more, leaving 100 unreserved, gave %v", err)
	}
	if err := put("payments", 501); errorCode(err) != "InvalidParameterValueException" {
		t.Errorf("leaving 99 unreserved gave %v, want InvalidParameterValueException", err)
	}
	if err := put("orders", 400); err != nil {
		t.Errorf("reserving a function's own reservation again gave %v", err)
	}
	if err := put("orders", -1); errorCode(err) != "ValidationException" {
		t.Errorf("a negative reservation gave %v, want ValidationException", err)
	}
	if err := put("missing", 1); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("a function that does not exist gave %v, want ResourceNotFoundException", err)
	}
	got, err := c.GetFunctionConcurrency(ctx, &lambda.GetFunctionConcurrencyInput{FunctionName: aws.String("orders")})
	if err != nil || aws.ToInt32(got.ReservedConcurrentExecutions) != 400 {
		t.Errorf("GetFunctionConcurrency = %+v, %v; want 400", got, err)
	}
	fn, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String("orders")})
	if err != nil || fn.Concurrency == nil || aws.ToInt32(fn.Concurrency.ReservedConcurrentExecutions) != 400 {
		t.Errorf("GetFunction's Concurrency = %+v, %v; want 400", fn.Concurrency, err)
	}
	if _, err := c.DeleteFunctionConcurrency(ctx, &lambda.DeleteFunctionConcurrencyInput{FunctionName: aws.String("orders")}); err != nil {
		t.Fatal(err)
	}
	got, err = c.GetFunctionConcurrency(ctx, &lambda.GetFunctionConcurrencyInput{FunctionName: aws.String("orders")})
	if err != nil || got.ReservedConcurrentExecutions != nil {
		t.Errorf("GetFunctionConcurrency after deletion = %+v, %v; want none", got, err)
	}
	if err := put("payments", 900); err != nil {
		t.Errorf("reserving 900 once the other reservation is gone gave %v", err)
	}
}
