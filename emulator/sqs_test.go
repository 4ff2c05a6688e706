package emulator_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

func sqsClient(t *testing.T) (*emulator.Server, *sqs.Client) {
	t.Helper()
	e, url := start(t, emulator.Options{})
	return e, sqs.NewFromConfig(sdkConfig(t, url, "AKIDSQS", 1))
}

func errorCode(err error) string {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode()
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

func TestSQSCreateQueueValidation(t *testing.T) {
	_, c := sqsClient(t)
	ctx := context.Background()
	if _, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("orders"),
		Attributes: map[string]string{"VisibilityTimeout": "60"}}); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		args   sqs.CreateQueueInput
		want   string
	}{
		"SameAttributesIsIdempotent": {
			reason: "Creating an existing queue with the same attributes returns its URL.",
			args:   sqs.CreateQueueInput{QueueName: aws.String("orders"), Attributes: map[string]string{"VisibilityTimeout": "60"}},
			want:   "",
		},
		"DifferentAttributes": {
			reason: "Creating an existing queue with other attributes fails.",
			args:   sqs.CreateQueueInput{QueueName: aws.String("orders"), Attributes: map[string]string{"VisibilityTimeout": "90"}},
			want:   "QueueAlreadyExists",
		},
		"BadName": {
			reason: "Names allow letters, digits, hyphens and underscores.",
			args:   sqs.CreateQueueInput{QueueName: aws.String("bad name")},
			want:   "InvalidParameterValue",
		},
		"FifoNeedsSuffix": {
			reason: "A FIFO queue's name ends in .fifo.",
			args:   sqs.CreateQueueInput{QueueName: aws.String("events"), Attributes: map[string]string{"FifoQueue": "true"}},
			want:   "InvalidParameterValue",
		},
		"SuffixNeedsFifo": {
			reason: "A .fifo name needs FifoQueue=true.",
			args:   sqs.CreateQueueInput{QueueName: aws.String("events.fifo")},
			want:   "InvalidParameterValue",
		},
		"FifoOnlyAttribute": {
			reason: "FIFO settings are refused on standard queues.",
			args:   sqs.CreateQueueInput{QueueName: aws.String("plain"), Attributes: map[string]string{"ContentBasedDeduplication": "true"}},
			want:   "InvalidAttributeName",
		},
		"RetentionRange": {
			reason: "Retention is 60..1209600 seconds.",
			args:   sqs.CreateQueueInput{QueueName: aws.String("short"), Attributes: map[string]string{"MessageRetentionPeriod": "59"}},
			want:   "InvalidAttributeValue",
		},
		"RedriveCount": {
			reason: "maxReceiveCount is 1..1000.",
			args: sqs.CreateQueueInput{QueueName: aws.String("redrive"), Attributes: map[string]string{
				"RedrivePolicy": `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":0}`}},
			want: "InvalidAttributeValue",
		},
		"Fifo": {
			reason: "A well-formed FIFO queue is created.",
			args: sqs.CreateQueueInput{QueueName: aws.String("events.fifo"), Attributes: map[string]string{
				"FifoQueue": "true", "ContentBasedDeduplication": "true", "DeduplicationScope": "messageGroup", "FifoThroughputLimit": "perMessageGroupId"}},
			want: "",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.CreateQueue(ctx, &tc.args)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSQSQueueLifecycle(t *testing.T) {
	e, c := sqsClient(t)
	ctx := context.Background()
	created, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("tasks"),
		Attributes: map[string]string{"MessageRetentionPeriod": "86400"}, Tags: map[string]string{"team": "platform"}})
	if err != nil {
		t.Fatal(err)
	}
	url, err := c.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String("tasks")})
	if err != nil || aws.ToString(url.QueueUrl) != aws.ToString(created.QueueUrl) {
		t.Fatalf("GetQueueUrl = %v, %v; want %s", url, err, aws.ToString(created.QueueUrl))
	}
	_, err = c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("tasks"), Attributes: map[string]string{"MessageRetentionPeriod": "60"}})
	var exists *types.QueueNameExists
	if !errors.As(err, &exists) || errorCode(err) != "QueueAlreadyExists" {
		t.Errorf("re-creating with other attributes gave %v (code %s), want QueueNameExists with the query code QueueAlreadyExists", err, errorCode(err))
	}
	_, err = c.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String("missing")})
	var missing *types.QueueDoesNotExist
	if !errors.As(err, &missing) || errorCode(err) != "AWS.SimpleQueueService.NonExistentQueue" {
		t.Errorf("a missing queue gave %v (code %s), want QueueDoesNotExist with the legacy query code", err, errorCode(err))
	}
	if _, err := c.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: created.QueueUrl,
		Attributes: map[string]string{"VisibilityTimeout": "120", "DelaySeconds": "5"}}); err != nil {
		t.Fatal(err)
	}
	attrs, err := c.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: created.QueueUrl,
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameAll}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"VisibilityTimeout": "120", "DelaySeconds": "5", "MessageRetentionPeriod": "86400",
		"QueueArn": "arn:aws:sqs:us-east-1:000000000000:tasks", "MaximumMessageSize": "1048576", "ApproximateNumberOfMessages": "0"}
	for k, v := range want {
		if attrs.Attributes[k] != v {
			t.Errorf("attribute %s = %q, want %q", k, attrs.Attributes[k], v)
		}
	}
	tags, err := c.ListQueueTags(ctx, &sqs.ListQueueTagsInput{QueueUrl: created.QueueUrl})
	if err != nil || tags.Tags["team"] != "platform" {
		t.Errorf("tags = %v, %v", tags, err)
	}
	if _, err := c.DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: created.QueueUrl}); err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("tasks")})
	if got := errorCode(err); got != "AWS.SimpleQueueService.QueueDeletedRecently" {
		t.Errorf("re-creating at once gave %q, want QueueDeletedRecently", got)
	}
	e.Clock.Advance(61 * time.Second)
	if _, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("tasks")}); err != nil {
		t.Errorf("re-creating after 60s: %v", err)
	}
}

func TestSQSMessagesAndRedrive(t *testing.T) {
	e, c := sqsClient(t)
	ctx := context.Background()
	e.Clock.Freeze()
	dlq, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("dlq")})
	if err != nil {
		t.Fatal(err)
	}
	q, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("work"), Attributes: map[string]string{
		"VisibilityTimeout": "10",
		"RedrivePolicy":     `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":2}`}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: q.QueueUrl, MessageBody: aws.String("hello")}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		got, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: q.QueueUrl})
		if err != nil || len(got.Messages) != 1 || aws.ToString(got.Messages[0].Body) != "hello" {
			t.Fatalf("receive %d: %v, %v", i, got, err)
		}
		if again, _ := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: q.QueueUrl}); len(again.Messages) != 0 {
			t.Fatalf("an in-flight message was received twice")
		}
		e.Clock.Advance(11 * time.Second)
	}
	got, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: q.QueueUrl})
	if err != nil || len(got.Messages) != 0 {
		t.Fatalf("after maxReceiveCount the message must leave the queue: %v, %v", got, err)
	}
	moved, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: dlq.QueueUrl})
	if err != nil || len(moved.Messages) != 1 {
		t.Fatalf("the dead-letter queue holds %v, %v; want the message", moved, err)
	}
	if _, err := c.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: dlq.QueueUrl, ReceiptHandle: moved.Messages[0].ReceiptHandle}); err != nil {
		t.Fatal(err)
	}
	attrs, err := c.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: dlq.QueueUrl,
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameApproximateNumberOfMessages, types.QueueAttributeNameApproximateNumberOfMessagesNotVisible}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"ApproximateNumberOfMessages": "0", "ApproximateNumberOfMessagesNotVisible": "0"}, attrs.Attributes); diff != "" {
		t.Errorf("after delete\n-want +got:\n%s", diff)
	}
}

// TestSQSRemoveAttributes checks that SetQueueAttributes with an empty value removes the
// policy, the redrive policy, the redrive allow policy and the KMS key, as AWS does, while an
// empty value of another attribute is refused.
func TestSQSRemoveAttributes(t *testing.T) {
	_, c := sqsClient(t)
	ctx := context.Background()
	if _, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("removable-dlq")}); err != nil {
		t.Fatal(err)
	}
	q, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("removable"), Attributes: map[string]string{
		"Policy":             `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"sns.amazonaws.com"},"Action":"sqs:SendMessage","Resource":"*"}]}`,
		"RedrivePolicy":      `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:removable-dlq","maxReceiveCount":3}`,
		"RedriveAllowPolicy": `{"redrivePermission":"denyAll"}`,
		"KmsMasterKeyId":     "alias/aws/sqs",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: q.QueueUrl, Attributes: map[string]string{
		"Policy": "", "RedrivePolicy": "", "RedriveAllowPolicy": "", "KmsMasterKeyId": "", "SqsManagedSseEnabled": "true"}}); err != nil {
		t.Fatal(err)
	}
	attrs, err := c.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: q.QueueUrl,
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameAll}})
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"Policy", "RedrivePolicy", "RedriveAllowPolicy", "KmsMasterKeyId"} {
		if v, ok := attrs.Attributes[gone]; ok {
			t.Errorf("%s = %q after removing it", gone, v)
		}
	}
	if attrs.Attributes["SqsManagedSseEnabled"] != "true" {
		t.Errorf("SqsManagedSseEnabled = %q, want true once the KMS key is removed", attrs.Attributes["SqsManagedSseEnabled"])
	}
	_, err = c.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: q.QueueUrl, Attributes: map[string]string{"VisibilityTimeout": ""}})
	if got := errorCode(err); got != "InvalidAttributeValue" {
		t.Errorf("an empty VisibilityTimeout gave %q, want InvalidAttributeValue", got)
	}
}
