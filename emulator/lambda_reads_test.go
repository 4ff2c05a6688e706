package emulator_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestLambdaUnconfiguredReads checks the reads tools make of a function's code signing and
// aliases, which the emulator does not keep: AWS's answers for a function without them, and
// ResourceNotFoundException for a function that does not exist.
func TestLambdaUnconfiguredReads(t *testing.T) {
	_, url := start(t, emulator.Options{Transitions: map[string]time.Duration{"Lambda": 0}})
	ctx := context.Background()
	c := lambda.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	if _, err := c.CreateFunction(ctx, &lambda.CreateFunctionInput{FunctionName: aws.String("reads-fn"), Runtime: types.RuntimePython311,
		Handler: aws.String("index.handler"), Role: aws.String("arn:aws:iam::123456789012:role/r"),
		Code: &types.FunctionCode{ZipFile: zipArchive(t, "def handler(event, context):\n    return 'ok'\n")}}); err != nil {
		t.Fatal(err)
	}
	signing, err := c.GetFunctionCodeSigningConfig(ctx, &lambda.GetFunctionCodeSigningConfigInput{FunctionName: aws.String("reads-fn")})
	if err != nil || aws.ToString(signing.FunctionName) != "reads-fn" || aws.ToString(signing.CodeSigningConfigArn) != "" {
		t.Errorf("GetFunctionCodeSigningConfig = %+v, %v; want the function without a configuration", signing, err)
	}
	aliases, err := c.ListAliases(ctx, &lambda.ListAliasesInput{FunctionName: aws.String("reads-fn")})
	if err != nil || len(aliases.Aliases) != 0 {
		t.Errorf("ListAliases = %+v, %v; want none", aliases, err)
	}
	if _, err := c.ListAliases(ctx, &lambda.ListAliasesInput{FunctionName: aws.String("reads-fn"), MaxItems: aws.Int32(0)}); errorCode(err) != "ValidationException" {
		t.Errorf("ListAliases with MaxItems 0: %v, want ValidationException", err)
	}
	for name, err := range map[string]error{
		"GetFunctionCodeSigningConfig": func() error {
			_, err := c.GetFunctionCodeSigningConfig(ctx, &lambda.GetFunctionCodeSigningConfigInput{FunctionName: aws.String("missing")})
			return err
		}(),
		"ListAliases": func() error {
			_, err := c.ListAliases(ctx, &lambda.ListAliasesInput{FunctionName: aws.String("missing")})
			return err
		}(),
	} {
		if code := errorCode(err); code != "ResourceNotFoundException" {
			t.Errorf("%s of a missing function: got %q, want ResourceNotFoundException", name, code)
		}
	}
}
