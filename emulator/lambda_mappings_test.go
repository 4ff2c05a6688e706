package emulator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// TestLambdaEventSourceMappings creates a mapping from an SQS queue to a function, checks its
// Creating -> Enabled lifecycle, the conflict of a second mapping of the same function and
// queue, reads it by UUID and by listing, tags it by ARN, updates it (Updating, then Disabling
// with Enabled false), and deletes it (Deleting, then gone).
func TestLambdaEventSourceMappings(t *testing.T) {
	e, c, url := lambdaEmulator(t)
	ctx := context.Background()
	queues := sqs.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	q, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("orders")})
	if err != nil {
		t.Fatal(err)
	}
	attrs, err := queues.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: q.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{"QueueArn"}})
	if err != nil {
		t.Fatal(err)
	}
	queueARN := attrs.Attributes["QueueArn"]
	if _, err := c.CreateFunction(ctx, zipFunction(t, "worker")); err != nil {
		t.Fatal(err)
	}
	in := &lambda.CreateEventSourceMappingInput{FunctionName: aws.String("worker"), EventSourceArn: aws.String(queueARN),
		BatchSize: aws.Int32(5), Tags: map[string]string{"team": "orders"},
		FilterCriteria: &types.FilterCriteria{Filters: []types.Filter{{Pattern: aws.String(`{"body":{"type":["order"]}}`)}}}}
	m, err := c.CreateEventSourceMapping(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(m.State) != "Creating" || aws.ToString(m.UUID) == "" || aws.ToInt32(m.BatchSize) != 5 ||
		!strings.HasSuffix(aws.ToString(m.FunctionArn), ":function:worker") || !strings.Contains(aws.ToString(m.EventSourceMappingArn), ":event-source-mapping:") {
		t.Errorf("CreateEventSourceMapping = %+v, want Creating with a UUID, batch size 5 and the function's ARN", m)
	}
	if _, err := c.CreateEventSourceMapping(ctx, in); errorCode(err) != "ResourceConflictException" {
		t.Errorf("a second mapping of the same function and queue gave %v, want ResourceConflictException", err)
	}
	if _, err := c.UpdateEventSourceMapping(ctx, &lambda.UpdateEventSourceMappingInput{UUID: m.UUID, BatchSize: aws.Int32(7)}); errorCode(err) != "ResourceInUseException" {
		t.Errorf("updating a mapping being created gave %v, want ResourceInUseException", err)
	}
	e.Clock.Advance(2 * time.Second)
	got, err := c.GetEventSourceMapping(ctx, &lambda.GetEventSourceMappingInput{UUID: m.UUID})
	if err != nil || aws.ToString(got.State) != "Enabled" || got.FilterCriteria == nil || len(got.FilterCriteria.Filters) != 1 {
		t.Fatalf("GetEventSourceMapping after the transition = %+v, %v; want Enabled with one filter", got, err)
	}
	list, err := c.ListEventSourceMappings(ctx, &lambda.ListEventSourceMappingsInput{FunctionName: aws.String("worker"), EventSourceArn: aws.String(queueARN)})
	if err != nil || len(list.EventSourceMappings) != 1 || aws.ToString(list.EventSourceMappings[0].UUID) != aws.ToString(m.UUID) {
		t.Errorf("ListEventSourceMappings by function and source = %+v, %v; want the mapping", list, err)
	}
	none, err := c.ListEventSourceMappings(ctx, &lambda.ListEventSourceMappingsInput{FunctionName: aws.String("other")})
	if err != nil || len(none.EventSourceMappings) != 0 {
		t.Errorf("ListEventSourceMappings of another function = %+v, %v; want none", none, err)
	}
	if _, err := c.TagResource(ctx, &lambda.TagResourceInput{Resource: m.EventSourceMappingArn, Tags: map[string]string{"stage": "prod"}}); err != nil {
		t.Fatal(err)
	}
	tags, err := c.ListTags(ctx, &lambda.ListTagsInput{Resource: m.EventSourceMappingArn})
	if err != nil || tags.Tags["team"] != "orders" || tags.Tags["stage"] != "prod" {
		t.Errorf("ListTags of the mapping = %v, %v; want team and stage", tags, err)
	}
	up, err := c.UpdateEventSourceMapping(ctx, &lambda.UpdateEventSourceMappingInput{UUID: m.UUID, BatchSize: aws.Int32(7),
		FilterCriteria: &types.FilterCriteria{}, FunctionResponseTypes: []types.FunctionResponseType{types.FunctionResponseTypeReportBatchItemFailures}})
	if err != nil || aws.ToString(up.State) != "Updating" || aws.ToInt32(up.BatchSize) != 7 || up.FilterCriteria != nil || len(up.FunctionResponseTypes) != 1 {
		t.Errorf("UpdateEventSourceMapping = %+v, %v; want Updating, batch size 7, no filters, ReportBatchItemFailures", up, err)
	}
	e.Clock.Advance(2 * time.Second)
	off, err := c.UpdateEventSourceMapping(ctx, &lambda.UpdateEventSourceMappingInput{UUID: m.UUID, Enabled: aws.Bool(false)})
	if err != nil || aws.ToString(off.State) != "Disabling" {
		t.Errorf("disabling = %+v, %v; want Disabling", off, err)
	}
	e.Clock.Advance(2 * time.Second)
	if got, err := c.GetEventSourceMapping(ctx, &lambda.GetEventSourceMappingInput{UUID: m.UUID}); err != nil || aws.ToString(got.State) != "Disabled" {
		t.Errorf("after disabling = %+v, %v; want Disabled", got, err)
	}
	del, err := c.DeleteEventSourceMapping(ctx, &lambda.DeleteEventSourceMappingInput{UUID: m.UUID})
	if err != nil || aws.ToString(del.State) != "Deleting" {
		t.Errorf("DeleteEventSourceMapping = %+v, %v; want Deleting", del, err)
	}
	e.Clock.Advance(2 * time.Second)
	if _, err := c.GetEventSourceMapping(ctx, &lambda.GetEventSourceMappingInput{UUID: m.UUID}); errorCode(err) != "ResourceNotFoundException" {
		t.Errorf("GetEventSourceMapping after the deletion gave %v, want ResourceNotFoundException", err)
	}
}

// TestLambdaEventSourceMappingValidation checks what CreateEventSourceMapping refuses, as the
// API reference documents it: a source or a function that does not exist, batch sizes out of
// range for the source (10 at most for a FIFO queue, a batching window for a standard queue's
// batch above 10), a stream without a starting position and a queue with one; and that a
// DynamoDB table's current stream is accepted.
func TestLambdaEventSourceMappingValidation(t *testing.T) {
	_, c, url := lambdaEmulator(t)
	ctx := context.Background()
	queues := sqs.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	if _, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("jobs.fifo"), Attributes: map[string]string{"FifoQueue": "true"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("jobs")}); err != nil {
		t.Fatal(err)
	}
	tables := dynamodb.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	table, err := tables.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String("events"), BillingMode: ddbtypes.BillingModePayPerRequest,
		AttributeDefinitions: []ddbtypes.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: ddbtypes.ScalarAttributeTypeS}},
		KeySchema:            []ddbtypes.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: ddbtypes.KeyTypeHash}},
		StreamSpecification:  &ddbtypes.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: ddbtypes.StreamViewTypeNewImage}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateFunction(ctx, zipFunction(t, "worker")); err != nil {
		t.Fatal(err)
	}
	jobs, err := queues.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String("jobs")})
	if err != nil {
		t.Fatal(err)
	}
	attrs, err := queues.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: jobs.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{"QueueArn"}})
	if err != nil {
		t.Fatal(err)
	}
	account := strings.TrimSuffix(attrs.Attributes["QueueArn"], "jobs")
	stream := aws.ToString(table.TableDescription.LatestStreamArn)
	cases := map[string]struct {
		in   lambda.CreateEventSourceMappingInput
		want string
	}{
		"a queue that does not exist": {in: lambda.CreateEventSourceMappingInput{EventSourceArn: aws.String(account + "missing")}, want: "InvalidParameterValueException"},
		"a function that does not exist": {in: lambda.CreateEventSourceMappingInput{FunctionName: aws.String("missing"), EventSourceArn: aws.String(account + "jobs")},
			want: "ResourceNotFoundException"},
		"a FIFO queue's batch above 10": {in: lambda.CreateEventSourceMappingInput{EventSourceArn: aws.String(account + "jobs.fifo"), BatchSize: aws.Int32(11)},
			want: "InvalidParameterValueException"},
		"a standard queue's batch above 10 without a window": {in: lambda.CreateEventSourceMappingInput{EventSourceArn: aws.String(account + "jobs"), BatchSize: aws.Int32(100)},
			want: "InvalidParameterValueException"},
		"a batch above 10000": {in: lambda.CreateEventSourceMappingInput{EventSourceArn: aws.String(account + "jobs"), BatchSize: aws.Int32(10001), MaximumBatchingWindowInSeconds: aws.Int32(1)},
			want: "InvalidParameterValueException"},
		"a queue with a starting position": {in: lambda.CreateEventSourceMappingInput{EventSourceArn: aws.String(account + "jobs"), StartingPosition: types.EventSourcePositionLatest},
			want: "InvalidParameterValueException"},
		"a stream without a starting position": {in: lambda.CreateEventSourceMappingInput{EventSourceArn: aws.String(stream)}, want: "InvalidParameterValueException"},
		"a stream that does not exist": {in: lambda.CreateEventSourceMappingInput{EventSourceArn: aws.String(stream + "x"), StartingPosition: types.EventSourcePositionLatest},
			want: "InvalidParameterValueException"},
		"a filter that is not JSON": {in: lambda.CreateEventSourceMappingInput{EventSourceArn: aws.String(account + "jobs"),
			FilterCriteria: &types.FilterCriteria{Filters: []types.Filter{{Pattern: aws.String("{")}}}}, want: "InvalidParameterValueException"},
		"a standard queue's batch above 10 with a window": {in: lambda.CreateEventSourceMappingInput{EventSourceArn: aws.String(account + "jobs"), BatchSize: aws.Int32(100),
			MaximumBatchingWindowInSeconds: aws.Int32(1)}},
		"a table's stream": {in: lambda.CreateEventSourceMappingInput{EventSourceArn: aws.String(stream), StartingPosition: types.EventSourcePositionTrimHorizon}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := tc.in
			if in.FunctionName == nil {
				in.FunctionName = aws.String("worker")
			}
			out, err := c.CreateEventSourceMapping(ctx, &in)
			if got := errorCode(err); got != tc.want {
				t.Fatalf("CreateEventSourceMapping gave %q (%v), want %q", got, err, tc.want)
			}
			if err == nil && tc.in.StartingPosition != "" && aws.ToInt32(out.BatchSize) != 100 {
				t.Errorf("a stream's default batch size is %d, want 100", aws.ToInt32(out.BatchSize))
			}
		})
	}
}
