package emulator_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// TestLambdaEventSourceMappingRolePermissions checks that CreateEventSourceMapping refuses, with
// AWS's InvalidParameterValueException texts, a source the function's execution role may not
// read, when the emulated IAM knows the role: an SQS queue (the first of ReceiveMessage,
// DeleteMessage and GetQueueAttributes missing, an explicit Deny winning over an AWS managed
// policy's Allow), a DynamoDB stream and a Kinesis stream; that inline policies and attached
// managed policies (AWS's and the account's) grant the permissions, within the role's
// permissions boundary; and that a role IAM does not know is not checked.
func TestLambdaEventSourceMappingRolePermissions(t *testing.T) {
	_, c, url := lambdaEmulator(t)
	ctx := context.Background()
	cfg := sdkConfig(t, url, "AKID", 1)
	roles, queues, tables := iam.NewFromConfig(cfg), sqs.NewFromConfig(cfg), dynamodb.NewFromConfig(cfg)
	role, err := roles.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String("reader"), AssumeRolePolicyDocument: aws.String(lambdaTrust)})
	if err != nil {
		t.Fatal(err)
	}
	fn := zipFunction(t, "reader")
	fn.Role = role.Role.Arn
	if _, err := c.CreateFunction(ctx, fn); err != nil {
		t.Fatal(err)
	}
	q, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	attrs, err := queues.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: q.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{"QueueArn"}})
	if err != nil {
		t.Fatal(err)
	}
	queue := attrs.Attributes["QueueArn"]
	table, err := tables.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("events"), BillingMode: ddbtypes.BillingModePayPerRequest,
		AttributeDefinitions: []ddbtypes.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: ddbtypes.ScalarAttributeTypeS}},
		KeySchema:            []ddbtypes.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: ddbtypes.KeyTypeHash}},
		StreamSpecification:  &ddbtypes.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: ddbtypes.StreamViewTypeNewImage}})
	if err != nil {
		t.Fatal(err)
	}
	stream := aws.ToString(table.TableDescription.LatestStreamArn)
	kinesis := "arn:aws:kinesis:us-east-1:123456789012:stream/clicks"

	// mapping creates a mapping of function to source and checks the error message (none when
	// want is "").
	mapping := func(step, function, source, want string) {
		t.Helper()
		in := &lambda.CreateEventSourceMappingInput{FunctionName: aws.String(function), EventSourceArn: aws.String(source)}
		if source != queue {
			in.StartingPosition = types.EventSourcePositionLatest
		}
		_, err := c.CreateEventSourceMapping(ctx, in)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: CreateEventSourceMapping gave %v, want a mapping", step, err)
		case want != "" && (errorCode(err) != "InvalidParameterValueException" || errorMessage(err) != want):
			t.Errorf("%s: CreateEventSourceMapping gave %v, want InvalidParameterValueException %q", step, err, want)
		}
	}
	put := func(name, doc string) {
		t.Helper()
		if _, err := roles.PutRolePolicy(ctx, &iam.PutRolePolicyInput{RoleName: aws.String("reader"), PolicyName: aws.String(name), PolicyDocument: aws.String(doc)}); err != nil {
			t.Fatal(err)
		}
	}
	attach := func(arn string) {
		t.Helper()
		if _, err := roles.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: aws.String("reader"), PolicyArn: aws.String(arn)}); err != nil {
			t.Fatal(err)
		}
	}

	mapping("no policies", "reader", queue, "The provided execution role does not have permissions to call ReceiveMessage on SQS")
	put("receive", `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"SQS:Receive*","Resource":"`+queue+`"}]}`)
	mapping("ReceiveMessage only", "reader", queue, "The provided execution role does not have permissions to call DeleteMessage on SQS")
	put("delete", `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"sqs:DeleteMessage","Resource":"arn:aws:sqs:*:*:ord*"}]}`)
	mapping("without GetQueueAttributes", "reader", queue, "The provided execution role does not have permissions to call GetQueueAttributes on SQS")
	attach("arn:aws:iam::aws:policy/service-role/AWSLambdaSQSQueueExecutionRole")
	put("deny", `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":"sqs:DeleteMessage","Resource":"*"}]}`)
	mapping("an explicit Deny", "reader", queue, "The provided execution role does not have permissions to call DeleteMessage on SQS")
	if _, err := roles.DeleteRolePolicy(ctx, &iam.DeleteRolePolicyInput{RoleName: aws.String("reader"), PolicyName: aws.String("deny")}); err != nil {
		t.Fatal(err)
	}
	mapping("AWSLambdaSQSQueueExecutionRole", "reader", queue, "")

	mapping("a DynamoDB stream", "reader", stream, "Cannot access stream "+stream+
		". Please ensure the role can perform the GetRecords, GetShardIterator, DescribeStream, and ListStreams Actions on your stream in IAM.")
	mapping("a Kinesis stream", "reader", kinesis, "Cannot access stream "+kinesis+
		". Please ensure the role can perform the GetRecords, GetShardIterator, DescribeStream, ListShards, and ListStreams Actions on your stream in IAM.")
	policy, err := roles.CreatePolicy(ctx, &iam.CreatePolicyInput{PolicyName: aws.String("streams"),
		PolicyDocument: aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["dynamodb:*","kinesis:*"],"Resource":"*"}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	attach(aws.ToString(policy.Policy.Arn))
	mapping("a customer managed policy on a DynamoDB stream", "reader", stream, "")
	mapping("a customer managed policy on a Kinesis stream", "reader", kinesis, "")

	// A permissions boundary limits what the attached policies allow.
	bounded, err := roles.CreateRole(ctx, &iam.CreateRoleInput{RoleName: aws.String("bounded"), AssumeRolePolicyDocument: aws.String(lambdaTrust),
		PermissionsBoundary: aws.String("arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := roles.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: aws.String("bounded"),
		PolicyArn: aws.String("arn:aws:iam::aws:policy/service-role/AWSLambdaSQSQueueExecutionRole")}); err != nil {
		t.Fatal(err)
	}
	fn = zipFunction(t, "bounded")
	fn.Role = bounded.Role.Arn
	if _, err := c.CreateFunction(ctx, fn); err != nil {
		t.Fatal(err)
	}
	mapping("a permissions boundary without SQS", "bounded", queue, "The provided execution role does not have permissions to call ReceiveMessage on SQS")

	if _, err := c.CreateFunction(ctx, zipFunction(t, "outsider")); err != nil {
		t.Fatal(err)
	}
	mapping("a role IAM does not know", "outsider", queue, "")
}
