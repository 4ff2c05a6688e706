package lambdaeventsourcemapping

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the mapping with its settings and tags (the ownership tags included) and
// records its UUID the moment AWS answers. Observe has looked for a mapping of the same
// function and source first: AWS allows one, and a ResourceConflictException here means an
// earlier attempt made it, which the next Observe finds. Lambda checks that the function's
// execution role may read the source: a refusal for that says which permissions to add.
func (d *driver) Create(ctx context.Context, m *v1alpha1.LambdaEventSourceMapping, req managed.Request) error {
	source := m.Spec.EventSourceARN
	if strings.HasSuffix(source, ".fifo") && aws.ToInt32(m.Spec.BatchSize) > 10 {
		return managed.Terminal(condition.ReasonInvalidSpec, "the batch size of FIFO queue %s is at most 10: lower spec.batchSize", source)
	}
	in := &lambda.CreateEventSourceMappingInput{FunctionName: aws.String(m.Spec.FunctionName), EventSourceArn: aws.String(source),
		BatchSize: m.Spec.BatchSize, MaximumBatchingWindowInSeconds: m.Spec.MaximumBatchingWindowInSeconds,
		StartingPosition: types.EventSourcePosition(m.Spec.StartingPosition), Enabled: aws.Bool(enabled(m)), Tags: req.Tags}
	if p := patterns(m); len(p) > 0 {
		in.FilterCriteria = filterCriteria(p)
	}
	if len(m.Spec.FunctionResponseTypes) > 0 {
		in.FunctionResponseTypes = responseTypes(m)
	}
	out, err := d.api.CreateEventSourceMapping(ctx, in)
	if awserr.Code(err) == "ResourceConflictException" {
		// A mapping of this function and source exists: Observe finds it by listing them.
		return nil
	}
	if sourceRefused(err) {
		return managed.Terminal(condition.ReasonSourcePermissionsMissing, "Lambda refused to read %s: %s; give the function's execution role %s, then change the spec",
			source, awserr.Describe(err), sourcePermissions(source))
	}
	if err != nil {
		return managed.Wrap(err, "create the event source mapping of function %s and source %s", m.Spec.FunctionName, source)
	}
	managed.SetExternalName(m, aws.ToString(out.UUID))
	m.Status.UUID, m.Status.EventSourceMappingARN = aws.ToString(out.UUID), aws.ToString(out.EventSourceMappingArn)
	return nil
}

// sourceRefused reports whether err is Lambda's refusal of a source the function's execution role
// may not read: InvalidParameterValueException "The provided execution role does not have
// permissions to call ReceiveMessage on SQS" for a queue, "Cannot access stream <arn>. Please
// ensure the role can perform the GetRecords, ... Actions on your stream in IAM." for a DynamoDB
// or Kinesis stream.
func sourceRefused(err error) bool {
	if awserr.Code(err) != "InvalidParameterValueException" {
		return false
	}
	message := awserr.Describe(err)
	return strings.Contains(message, "execution role does not have permissions") ||
		strings.Contains(message, "Cannot access stream") && strings.Contains(message, "Actions on your stream in IAM")
}

// sourcePermissions names the permissions a function's execution role needs to read source.
func sourcePermissions(source string) string {
	switch {
	case strings.Contains(source, ":sqs:"):
		return "sqs:ReceiveMessage, sqs:DeleteMessage and sqs:GetQueueAttributes on the queue"
	case strings.Contains(source, ":dynamodb:"):
		return "dynamodb:DescribeStream, dynamodb:GetRecords, dynamodb:GetShardIterator and dynamodb:ListStreams on the stream"
	case strings.Contains(source, ":kinesis:"):
		return "kinesis:DescribeStream, kinesis:DescribeStreamSummary, kinesis:GetRecords, kinesis:GetShardIterator, kinesis:ListShards and kinesis:ListStreams on the stream"
	}
	return "the permissions the source's documentation lists for Lambda"
}
