package emulator_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/runner-codes/infra-operator/emulator"
)

// TestLambdaFunctionLifecycle creates the seed's function from code in the emulated S3, follows
// it through Pending -> Active and an update, and deletes it.
func TestLambdaFunctionLifecycle(t *testing.T) {
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	ctx := context.Background()
	objects := s3Client(t, url, "AKID", "us-east-1")
	if _, err := objects.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String("my-lambda-code")}); err != nil {
		t.Fatal(err)
	}
	if _, err := objects.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("my-lambda-code"), Key: aws.String("api-handler/v1.0.0.zip"), Body: strings.NewReader("PK...")}); err != nil {
		t.Fatal(err)
	}
	c := lambda.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	in := &lambda.CreateFunctionInput{
		FunctionName: aws.String("production-api-handler"), Runtime: types.RuntimePython311, Handler: aws.String("index.lambda_handler"),
		Role:       aws.String("arn:aws:iam::123456789012:role/lambda-execution-role"),
		Code:       &types.FunctionCode{S3Bucket: aws.String("my-lambda-code"), S3Key: aws.String("api-handler/v1.0.0.zip")},
		MemorySize: aws.Int32(512), Timeout: aws.Int32(30),
		Environment: &types.Environment{Variables: map[string]string{"ENV": "production", "LOG_LEVEL": "INFO"}},
		VpcConfig:   &types.VpcConfig{SubnetIds: []string{"subnet-1"}, SecurityGroupIds: []string{"sg-1"}},
		Tags:        map[string]string{"Application": "api"},
	}
	created, err := c.CreateFunction(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if created.State != types.StatePending || aws.ToInt32(created.MemorySize) != 512 || created.Environment.Variables["ENV"] != "production" {
		t.Errorf("a new function is %+v; want Pending with its settings", created)
	}
	if _, err := c.CreateFunction(ctx, in); errorCode(err) != "ResourceConflictException" {
		t.Errorf("creating it twice gave %v", err)
	}
	e.Clock.Advance(2 * time.Second)
	got, err := c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String("production-api-handler")})
	if err != nil || got.Configuration.State != types.StateActive || got.Tags["Application"] != "api" {
		t.Fatalf("GetFunction = %+v, %v; want Active with its tags", got, err)
	}
	if _, err := c.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: aws.String("production-api-handler"), Timeout: aws.Int32(60)}); err != nil {
		t.Fatal(err)
	}
	_, err = c.UpdateFunctionConfiguration(ctx, &lambda.UpdateFunctionConfigurationInput{FunctionName: aws.String("production-api-handler"), MemorySize: aws.Int32(1024)})
	var conflict *types.ResourceConflictException
	if !errors.As(err, &conflict) {
		t.Errorf("a second update while the first is in progress gave %v, want ResourceConflictException", err)
	}
	e.Clock.Advance(2 * time.Second)
	cfg, err := c.GetFunctionConfiguration(ctx, &lambda.GetFunctionConfigurationInput{FunctionName: aws.String("production-api-handler")})
	if err != nil || cfg.LastUpdateStatus != types.LastUpdateStatusSuccessful || aws.ToInt32(cfg.Timeout) != 60 {
		t.Errorf("after the update: %+v, %v", cfg, err)
	}
	if _, err := c.UpdateFunctionCode(ctx, &lambda.UpdateFunctionCodeInput{FunctionName: aws.String("production-api-handler"),
		S3Bucket: aws.String("my-lambda-code"), S3Key: aws.String("missing.zip")}); errorCode(err) != "InvalidParameterValueException" {
		t.Errorf("code that is not in S3 gave %v", err)
	}
	if _, err := c.UpdateFunctionCode(ctx, &lambda.UpdateFunctionCodeInput{FunctionName: aws.String("production-api-handler"), ZipFile: []byte("new code")}); err != nil {
		t.Fatal(err)
	}
	arn := created.FunctionArn
	if _, err := c.TagResource(ctx, &lambda.TagResourceInput{Resource: arn, Tags: map[string]string{"Environment": "production"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UntagResource(ctx, &lambda.UntagResourceInput{Resource: arn, TagKeys: []string{"Application"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := c.ListTags(ctx, &lambda.ListTagsInput{Resource: arn})
	if err != nil || len(tags.Tags) != 1 || tags.Tags["Environment"] != "production" {
		t.Errorf("tags = %v, %v", tags, err)
	}
	list, err := c.ListFunctions(ctx, &lambda.ListFunctionsInput{})
	if err != nil || len(list.Functions) != 1 {
		t.Errorf("ListFunctions = %+v, %v", list, err)
	}
	e.Clock.Advance(2 * time.Second)
	if _, err := c.DeleteFunction(ctx, &lambda.DeleteFunctionInput{FunctionName: aws.String("production-api-handler")}); err != nil {
		t.Fatal(err)
	}
	_, err = c.GetFunction(ctx, &lambda.GetFunctionInput{FunctionName: aws.String("production-api-handler")})
	var missing *types.ResourceNotFoundException
	if !errors.As(err, &missing) {
		t.Errorf("a deleted function gave %v, want ResourceNotFoundException", err)
	}
}

func TestLambdaCreateValidation(t *testing.T) {
	_, url := start(t, emulator.Options{})
	c := lambda.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	base := func(mutate func(*lambda.CreateFunctionInput)) *lambda.CreateFunctionInput {
		in := &lambda.CreateFunctionInput{FunctionName: aws.String("fn"), Runtime: types.RuntimePython311, Handler: aws.String("index.handler"),
			Role: aws.String("arn:aws:iam::123456789012:role/r"), Code: &types.FunctionCode{ZipFile: []byte("zip")}}
		mutate(in)
		return in
	}
	cases := map[string]struct {
		reason string
		args   *lambda.CreateFunctionInput
		want   string
	}{
		"Memory":    {reason: "Memory is 128 to 10240 MB.", args: base(func(in *lambda.CreateFunctionInput) { in.MemorySize = aws.Int32(64) }), want: "ValidationException"},
		"Timeout":   {reason: "Timeout is 1 to 900 s.", args: base(func(in *lambda.CreateFunctionInput) { in.Timeout = aws.Int32(901) }), want: "ValidationException"},
		"Role":      {reason: "The role is an IAM role ARN.", args: base(func(in *lambda.CreateFunctionInput) { in.Role = aws.String("my-role") }), want: "ValidationException"},
		"NoHandler": {reason: "Zip packages need a handler.", args: base(func(in *lambda.CreateFunctionInput) { in.Handler = nil }), want: "InvalidParameterValueException"},
		"NoBucket": {reason: "S3 code must exist.", args: base(func(in *lambda.CreateFunctionInput) {
			in.Code = &types.FunctionCode{S3Bucket: aws.String("nope"), S3Key: aws.String("k")}
		}), want: "InvalidParameterValueException"},
		"Name": {reason: "Names are letters, digits, - and _.", args: base(func(in *lambda.CreateFunctionInput) { in.FunctionName = aws.String("bad name") }), want: "ValidationException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := c.CreateFunction(context.Background(), tc.args); errorCode(err) != tc.want {
				t.Errorf("%s: got %v, want %s", tc.reason, err, tc.want)
			}
		})
	}
}
