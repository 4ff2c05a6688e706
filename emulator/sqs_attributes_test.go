package emulator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/google/go-cmp/cmp"
)

// TestSQSRedrivePolicyNumber checks that GetQueueAttributes returns RedrivePolicy with
// maxReceiveCount as a JSON number, as AWS does, whether it was set as a number or a string,
// and that ListDeadLetterSourceQueues finds the queue through it.
func TestSQSRedrivePolicyNumber(t *testing.T) {
	_, c := sqsClient(t)
	ctx := context.Background()
	dlq, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("numbers-dlq")})
	if err != nil {
		t.Fatal(err)
	}
	arn := "arn:aws:sqs:us-east-1:000000000000:numbers-dlq"
	want := `{"deadLetterTargetArn":"` + arn + `","maxReceiveCount":5}`
	var sources []string
	for name, policy := range map[string]string{
		"numbers-as-number": `{"deadLetterTargetArn":"` + arn + `","maxReceiveCount":5}`,
		"numbers-as-string": `{"maxReceiveCount":"5","deadLetterTargetArn":"` + arn + `"}`,
	} {
		q, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: map[string]string{"RedrivePolicy": policy}})
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, aws.ToString(q.QueueUrl))
		got, err := c.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: q.QueueUrl, AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameRedrivePolicy}})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got.Attributes["RedrivePolicy"]); diff != "" {
			t.Errorf("%s: RedrivePolicy (-want +got):\n%s", name, diff)
		}
	}
	if _, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("numbers-unrelated")}); err != nil {
		t.Fatal(err)
	}
	listed, err := c.ListDeadLetterSourceQueues(ctx, &sqs.ListDeadLetterSourceQueuesInput{QueueUrl: dlq.QueueUrl})
	if err != nil {
		t.Fatal(err)
	}
	if len(listed.QueueUrls) != 2 || !strings.Contains(strings.Join(listed.QueueUrls, " "), "numbers-as-number") || !strings.Contains(strings.Join(listed.QueueUrls, " "), "numbers-as-string") {
		t.Errorf("ListDeadLetterSourceQueues = %v; want the two source queues %v", listed.QueueUrls, sources)
	}
	page, err := c.ListDeadLetterSourceQueues(ctx, &sqs.ListDeadLetterSourceQueuesInput{QueueUrl: dlq.QueueUrl, MaxResults: aws.Int32(1)})
	if err != nil || len(page.QueueUrls) != 1 || page.NextToken == nil {
		t.Errorf("ListDeadLetterSourceQueues page of 1 = %+v, %v; want one URL and a NextToken", page, err)
	}
}

// TestSQSMessageAttributes sends messages with attributes and receives them back with the
// attributes and system attributes asked for, with AWS's MD5OfMessageAttributes.
func TestSQSMessageAttributes(t *testing.T) {
	_, c := sqsClient(t)
	ctx := context.Background()
	q, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("attributes")})
	if err != nil {
		t.Fatal(err)
	}
	// The digest of {attribName1: String "attribValue 1"} that AWS's algorithm gives, as the
	// SDKs' test vectors have it.
	sent, err := c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: q.QueueUrl, MessageBody: aws.String("hello"),
		MessageAttributes: map[string]types.MessageAttributeValue{"attribName1": {DataType: aws.String("String"), StringValue: aws.String("attribValue 1")}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(sent.MD5OfMessageAttributes); got != "19e27d4e946b072f3f58da80d94fd778" {
		t.Errorf("MD5OfMessageAttributes = %s, want 19e27d4e946b072f3f58da80d94fd778", got)
	}
	attrs := map[string]types.MessageAttributeValue{
		"trace.id":   {DataType: aws.String("String"), StringValue: aws.String("abc")},
		"trace.span": {DataType: aws.String("Number"), StringValue: aws.String("42")},
		"payload":    {DataType: aws.String("Binary"), BinaryValue: []byte("Hello binary world!")},
	}
	if _, err := c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: q.QueueUrl, MessageBody: aws.String("second"), MessageAttributes: attrs}); err != nil {
		t.Fatal(err)
	}
	first, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: q.QueueUrl})
	if err != nil || len(first.Messages) != 1 {
		t.Fatalf("ReceiveMessage = %+v, %v", first, err)
	}
	if m := first.Messages[0]; m.MessageAttributes != nil || m.Attributes != nil {
		t.Errorf("without names ReceiveMessage returned attributes %v and %v; AWS returns none", m.MessageAttributes, m.Attributes)
	}
	got, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: q.QueueUrl, MessageAttributeNames: []string{"trace.*"},
		MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameSenderId, types.MessageSystemAttributeNameApproximateReceiveCount}})
	if err != nil || len(got.Messages) != 1 {
		t.Fatalf("ReceiveMessage = %+v, %v", got, err)
	}
	m := got.Messages[0]
	if len(m.MessageAttributes) != 2 || aws.ToString(m.MessageAttributes["trace.span"].StringValue) != "42" {
		t.Errorf("trace.* gave %v; want trace.id and trace.span", m.MessageAttributes)
	}
	if diff := cmp.Diff(map[string]string{"SenderId": "000000000000", "ApproximateReceiveCount": "1"}, m.Attributes); diff != "" {
		t.Errorf("system attributes (-want +got):\n%s", diff)
	}
	if aws.ToString(m.MD5OfMessageAttributes) == "" {
		t.Error("no MD5OfMessageAttributes with attributes returned")
	}
	_, err = c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: q.QueueUrl, MessageBody: aws.String("x"),
		MessageAttributes: map[string]types.MessageAttributeValue{"AWS.reserved": {DataType: aws.String("String"), StringValue: aws.String("v")}}})
	if got := errorCode(err); got != "InvalidParameterValue" {
		t.Errorf("an AWS. attribute name: got %q, want InvalidParameterValue", got)
	}
	_, err = c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: q.QueueUrl, MessageBody: aws.String("x"),
		MessageAttributes: map[string]types.MessageAttributeValue{"n": {DataType: aws.String("Date"), StringValue: aws.String("v")}}})
	if got := errorCode(err); got != "InvalidParameterValue" {
		t.Errorf("an unknown data type: got %q, want InvalidParameterValue", got)
	}
	fifo, err := c.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("attributes.fifo"), Attributes: map[string]string{"FifoQueue": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: fifo.QueueUrl, MessageBody: aws.String("f"), MessageGroupId: aws.String("g1"),
		MessageDeduplicationId: aws.String("d1")}); err != nil {
		t.Fatal(err)
	}
	got, err = c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: fifo.QueueUrl, AttributeNames: []types.QueueAttributeName{"All"}})
	if err != nil || len(got.Messages) != 1 {
		t.Fatalf("ReceiveMessage from FIFO = %+v, %v", got, err)
	}
	for k, want := range map[string]string{"MessageGroupId": "g1", "MessageDeduplicationId": "d1", "ApproximateReceiveCount": "1"} {
		if v := got.Messages[0].Attributes[k]; v != want {
			t.Errorf("FIFO system attribute %s = %q, want %q", k, v, want)
		}
	}
	for _, k := range []string{"SequenceNumber", "SentTimestamp", "ApproximateFirstReceiveTimestamp"} {
		if got.Messages[0].Attributes[k] == "" {
			t.Errorf("FIFO system attribute %s missing from All", k)
		}
	}
}
