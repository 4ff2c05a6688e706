package emulator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	snstypes "github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

func TestSNSTopics(t *testing.T) {
	_, url := start(t, emulator.Options{})
	c := sns.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	ctx := context.Background()
	topic, err := c.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("alerts"),
		Attributes: map[string]string{"DisplayName": "Alerts"}, Tags: []snstypes.Tag{{Key: aws.String("team"), Value: aws.String("sre")}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := aws.ToString(topic.TopicArn), "arn:aws:sns:us-east-1:000000000000:alerts"; got != want {
		t.Errorf("TopicArn %s, want %s", got, want)
	}
	cases := map[string]struct {
		reason string
		args   sns.CreateTopicInput
		want   string
	}{
		"Idempotent":      {reason: "The same name and attributes return the same topic.", args: sns.CreateTopicInput{Name: aws.String("alerts"), Attributes: map[string]string{"DisplayName": "Alerts"}}},
		"OtherAttributes": {reason: "Other attributes for an existing name are refused.", args: sns.CreateTopicInput{Name: aws.String("alerts"), Attributes: map[string]string{"DisplayName": "Other"}}, want: "InvalidParameter"},
		"FifoNeedsSuffix": {reason: "A FIFO topic's name ends in .fifo.", args: sns.CreateTopicInput{Name: aws.String("orders"), Attributes: map[string]string{"FifoTopic": "true"}}, want: "InvalidParameter"},
		"FifoOnlySetting": {reason: "ContentBasedDeduplication needs a FIFO topic.", args: sns.CreateTopicInput{Name: aws.String("plain"), Attributes: map[string]string{"ContentBasedDeduplication": "true"}}, want: "InvalidParameter"},
		"BadName":         {reason: "Names are letters, digits, hyphens and underscores.", args: sns.CreateTopicInput{Name: aws.String("no spaces")}, want: "InvalidParameter"},
		"Fifo":            {reason: "A well-formed FIFO topic is created.", args: sns.CreateTopicInput{Name: aws.String("orders.fifo"), Attributes: map[string]string{"FifoTopic": "true", "ContentBasedDeduplication": "true"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.CreateTopic(ctx, &tc.args)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	attrs, err := c.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: topic.TopicArn})
	if err != nil {
		t.Fatal(err)
	}
	if attrs.Attributes["DisplayName"] != "Alerts" || attrs.Attributes["TopicArn"] != aws.ToString(topic.TopicArn) {
		t.Errorf("attributes %v", attrs.Attributes)
	}
	tags, err := c.ListTagsForResource(ctx, &sns.ListTagsForResourceInput{ResourceArn: topic.TopicArn})
	if err != nil || len(tags.Tags) != 1 || aws.ToString(tags.Tags[0].Value) != "sre" {
		t.Errorf("tags %v, %v", tags, err)
	}
	list, err := c.ListTopics(ctx, &sns.ListTopicsInput{})
	if err != nil || len(list.Topics) != 2 {
		t.Errorf("ListTopics %v, %v; want 2 topics", list, err)
	}
	if _, err := c.DeleteTopic(ctx, &sns.DeleteTopicInput{TopicArn: topic.TopicArn}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: topic.TopicArn}); errorCode(err) != "NotFound" {
		t.Errorf("a deleted topic gave %v, want NotFound", err)
	}
}

// TestSNSToSQSDelivery publishes to a topic with an SQS subscription: nothing arrives until the
// queue policy lets the topic send, then the message arrives in SNS's envelope (or raw), and a
// filter policy keeps out what it does not match.
func TestSNSToSQSDelivery(t *testing.T) {
	_, url := start(t, emulator.Options{})
	ctx := context.Background()
	topics := sns.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	queues := sqs.NewFromConfig(sdkConfig(t, url, "AKID", 1))
	topic, err := topics.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("events")})
	if err != nil {
		t.Fatal(err)
	}
	q, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("inbox")})
	if err != nil {
		t.Fatal(err)
	}
	queueARN := "arn:aws:sqs:us-east-1:000000000000:inbox"
	sub, err := topics.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic.TopicArn, Protocol: aws.String("sqs"), Endpoint: aws.String(queueARN)})
	if err != nil {
		t.Fatal(err)
	}
	email, err := topics.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic.TopicArn, Protocol: aws.String("email"), Endpoint: aws.String("ops@example.com")})
	if err != nil || aws.ToString(email.SubscriptionArn) != "pending confirmation" {
		t.Errorf("an email subscription gave %v, %v; want pending confirmation", email, err)
	}
	attrs, err := topics.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: topic.TopicArn})
	if err != nil {
		t.Fatal(err)
	}
	if attrs.Attributes["SubscriptionsConfirmed"] != "1" || attrs.Attributes["SubscriptionsPending"] != "1" {
		t.Errorf("subscription counts %s confirmed, %s pending; want 1 and 1", attrs.Attributes["SubscriptionsConfirmed"], attrs.Attributes["SubscriptionsPending"])
	}

	publish := func(msg string, attrs map[string]snstypes.MessageAttributeValue) {
		t.Helper()
		if _, err := topics.Publish(ctx, &sns.PublishInput{TopicArn: topic.TopicArn, Message: aws.String(msg), MessageAttributes: attrs}); err != nil {
			t.Fatal(err)
		}
	}
	receive := func() []string {
		t.Helper()
		out, err := queues.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: q.QueueUrl, MaxNumberOfMessages: 10})
		if err != nil {
			t.Fatal(err)
		}
		var bodies []string
		for _, m := range out.Messages {
			bodies = append(bodies, aws.ToString(m.Body))
			if _, err := queues.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: q.QueueUrl, ReceiptHandle: m.ReceiptHandle}); err != nil {
				t.Fatal(err)
			}
		}
		return bodies
	}

	publish("without policy", nil)
	if got := receive(); len(got) != 0 {
		t.Fatalf("a queue whose policy does not allow the topic received %v", got)
	}
	policy := fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"sns.amazonaws.com"},`+
		`"Action":"sqs:SendMessage","Resource":"%s","Condition":{"ArnEquals":{"aws:SourceArn":"%s"}}}]}`, queueARN, aws.ToString(topic.TopicArn))
	if _, err := queues.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: q.QueueUrl, Attributes: map[string]string{"Policy": policy}}); err != nil {
		t.Fatal(err)
	}
	publish("hello", nil)
	got := receive()
	if len(got) != 1 {
		t.Fatalf("received %v, want one message", got)
	}
	var env map[string]any
	if err := json.Unmarshal([]byte(got[0]), &env); err != nil || env["Message"] != "hello" || env["Type"] != "Notification" || env["TopicArn"] != aws.ToString(topic.TopicArn) {
		t.Errorf("the delivery is not SNS's envelope: %s", got[0])
	}

	for name, value := range map[string]string{"RawMessageDelivery": "true", "FilterPolicy": `{"kind":["order"]}`} {
		if _, err := topics.SetSubscriptionAttributes(ctx, &sns.SetSubscriptionAttributesInput{SubscriptionArn: sub.SubscriptionArn,
			AttributeName: aws.String(name), AttributeValue: aws.String(value)}); err != nil {
			t.Fatal(err)
		}
	}
	str := func(v string) snstypes.MessageAttributeValue {
		return snstypes.MessageAttributeValue{DataType: aws.String("String"), StringValue: aws.String(v)}
	}
	publish("an invoice", map[string]snstypes.MessageAttributeValue{"kind": str("invoice")})
	publish("an order", map[string]snstypes.MessageAttributeValue{"kind": str("order")})
	if diff := cmp.Diff([]string{"an order"}, receive()); diff != "" {
		t.Errorf("raw delivery through the filter policy\n-want +got:\n%s", diff)
	}
	subAttrs, err := topics.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: sub.SubscriptionArn})
	if err != nil || subAttrs.Attributes["FilterPolicyScope"] != "MessageAttributes" || subAttrs.Attributes["PendingConfirmation"] != "false" {
		t.Errorf("subscription attributes %v, %v", subAttrs, err)
	}
	list, err := topics.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: topic.TopicArn})
	if err != nil || len(list.Subscriptions) != 2 {
		t.Errorf("ListSubscriptionsByTopic %v, %v; want 2", list, err)
	}
}
