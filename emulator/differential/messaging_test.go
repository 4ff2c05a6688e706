package differential

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	snstypes "github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// messaging is one side's SQS and SNS clients, and what the steps learned along the way.
type messaging struct {
	sqs      *sqs.Client
	sns      *sns.Client
	queueURL *string
	topicARN *string
}

func lastSegment(s string) string { return s[strings.LastIndexAny(s, "/:")+1:] }

// messagingSteps is the SQS and SNS sequence both sides run.
func messagingSteps() []step[*messaging] {
	ctx := context.Background()
	attrs := func(c *messaging, names ...string) outcome {
		var list []types.QueueAttributeName
		for _, n := range names {
			list = append(list, types.QueueAttributeName(n))
		}
		out, err := c.sqs.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: c.queueURL, AttributeNames: list})
		if err != nil {
			return observe(err, nil)
		}
		fields := map[string]string{}
		for _, n := range names {
			fields[n] = out.Attributes[n]
		}
		if arn, ok := fields["QueueArn"]; ok {
			fields["QueueArn"] = lastSegment(arn)
		}
		return observe(nil, fields)
	}
	create := func(name string, a map[string]string) func(c *messaging) outcome {
		return func(c *messaging) outcome {
			out, err := c.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: a})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"name": lastSegment(aws.ToString(out.QueueUrl))})
		}
	}
	return []step[*messaging]{
		{"CreateQueue", func(c *messaging) outcome {
			out, err := c.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("diff-tasks"), Attributes: map[string]string{"VisibilityTimeout": "45"}})
			if err == nil {
				c.queueURL = out.QueueUrl
			}
			return observe(err, map[string]string{"name": lastSegment(aws.ToString(out.QueueUrl))})
		}},
		{"CreateQueueSameAttributes", create("diff-tasks", map[string]string{"VisibilityTimeout": "45"})},
		{"CreateQueueOtherAttributes", create("diff-tasks", map[string]string{"VisibilityTimeout": "60"})},
		{"CreateQueueBadName", create("bad name", nil)},
		{"CreateFifoWithoutSuffix", create("diff-events", map[string]string{"FifoQueue": "true"})},
		{"CreateFifo", create("diff-orders.fifo", map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"})},
		{"CreateQueueRetentionTooShort", create("diff-short", map[string]string{"MessageRetentionPeriod": "59"})},
		{"GetQueueUrlMissing", func(c *messaging) outcome {
			_, err := c.sqs.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String("diff-missing")})
			return observe(err, nil)
		}},
		{"GetQueueAttributes", func(c *messaging) outcome {
			return attrs(c, "VisibilityTimeout", "DelaySeconds", "MessageRetentionPeriod", "ReceiveMessageWaitTimeSeconds", "QueueArn", "ApproximateNumberOfMessages")
		}},
		{"CreateDeadLetterQueue", create("diff-dlq", nil)},
		{"SetRedrivePolicy", func(c *messaging) outcome {
			_, err := c.sqs.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: c.queueURL, Attributes: map[string]string{
				"RedrivePolicy": `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:diff-dlq","maxReceiveCount":3}`}})
			return observe(err, nil)
		}},
		{"GetRedrivePolicy", func(c *messaging) outcome { return attrs(c, "RedrivePolicy") }},
		{"TagQueue", func(c *messaging) outcome {
			if _, err := c.sqs.TagQueue(ctx, &sqs.TagQueueInput{QueueUrl: c.queueURL, Tags: map[string]string{"team": "platform"}}); err != nil {
				return observe(err, nil)
			}
			out, err := c.sqs.ListQueueTags(ctx, &sqs.ListQueueTagsInput{QueueUrl: c.queueURL})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"team": out.Tags["team"]})
		}},
		{"SendAndReceive", func(c *messaging) outcome {
			sent, err := c.sqs.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: c.queueURL, MessageBody: aws.String("hello")})
			if err != nil {
				return observe(err, nil)
			}
			got, err := c.sqs.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: c.queueURL, MaxNumberOfMessages: 10})
			if err != nil || len(got.Messages) != 1 {
				return observe(err, map[string]string{"received": fmt.Sprint(len(got.Messages))})
			}
			_, err = c.sqs.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: c.queueURL, ReceiptHandle: got.Messages[0].ReceiptHandle})
			return observe(err, map[string]string{"md5": aws.ToString(sent.MD5OfMessageBody), "body": aws.ToString(got.Messages[0].Body)})
		}},
		{"CreateTopic", func(c *messaging) outcome {
			out, err := c.sns.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("diff-notifications"), Attributes: map[string]string{"DisplayName": "Diff"}})
			if err == nil {
				c.topicARN = out.TopicArn
			}
			return observe(err, map[string]string{"arn": lastSegment(aws.ToString(out.TopicArn))})
		}},
		{"CreateFifoTopicWithoutSuffix", func(c *messaging) outcome {
			_, err := c.sns.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("diff-events"), Attributes: map[string]string{"FifoTopic": "true"}})
			return observe(err, nil)
		}},
		{"SubscribeQueue", func(c *messaging) outcome {
			policy := fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"sns.amazonaws.com"},"Action":"sqs:SendMessage","Resource":"arn:aws:sqs:us-east-1:000000000000:diff-tasks","Condition":{"ArnEquals":{"aws:SourceArn":"%s"}}}]}`, aws.ToString(c.topicARN))
			if _, err := c.sqs.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: c.queueURL, Attributes: map[string]string{"Policy": policy}}); err != nil {
				return observe(err, nil)
			}
			_, err := c.sns.Subscribe(ctx, &sns.SubscribeInput{TopicArn: c.topicARN, Protocol: aws.String("sqs"), Endpoint: aws.String("arn:aws:sqs:us-east-1:000000000000:diff-tasks")})
			return observe(err, nil)
		}},
		{"TopicAttributes", func(c *messaging) outcome {
			out, err := c.sns.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: c.topicARN})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"DisplayName": out.Attributes["DisplayName"], "SubscriptionsConfirmed": out.Attributes["SubscriptionsConfirmed"]})
		}},
		{"PublishDelivers", func(c *messaging) outcome {
			if _, err := c.sns.Publish(ctx, &sns.PublishInput{TopicArn: c.topicARN, Message: aws.String("event-1")}); err != nil {
				return observe(err, nil)
			}
			got, err := c.sqs.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: c.queueURL, MaxNumberOfMessages: 10})
			if err != nil || len(got.Messages) != 1 {
				return observe(err, map[string]string{"received": fmt.Sprint(len(got.Messages))})
			}
			var env map[string]any
			_ = json.Unmarshal([]byte(aws.ToString(got.Messages[0].Body)), &env)
			return observe(nil, map[string]string{"Type": fmt.Sprint(env["Type"]), "Message": fmt.Sprint(env["Message"])})
		}},
		{"SetTopicAttributes", func(c *messaging) outcome {
			if _, err := c.sns.SetTopicAttributes(ctx, &sns.SetTopicAttributesInput{TopicArn: c.topicARN,
				AttributeName: aws.String("DisplayName"), AttributeValue: aws.String("Renamed")}); err != nil {
				return observe(err, nil)
			}
			out, err := c.sns.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: c.topicARN})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"DisplayName": out.Attributes["DisplayName"]})
		}},
		{"TopicTags", func(c *messaging) outcome {
			if _, err := c.sns.TagResource(ctx, &sns.TagResourceInput{ResourceArn: c.topicARN,
				Tags: []snstypes.Tag{{Key: aws.String("team"), Value: aws.String("platform")}, {Key: aws.String("tier"), Value: aws.String("1")}}}); err != nil {
				return observe(err, nil)
			}
			if _, err := c.sns.UntagResource(ctx, &sns.UntagResourceInput{ResourceArn: c.topicARN, TagKeys: []string{"tier"}}); err != nil {
				return observe(err, nil)
			}
			out, err := c.sns.ListTagsForResource(ctx, &sns.ListTagsForResourceInput{ResourceArn: c.topicARN})
			if err != nil {
				return observe(err, nil)
			}
			fields := map[string]string{}
			for _, t := range out.Tags {
				fields[aws.ToString(t.Key)] = aws.ToString(t.Value)
			}
			return observe(nil, fields)
		}},
		{"ListTopics", func(c *messaging) outcome {
			out, err := c.sns.ListTopics(ctx, &sns.ListTopicsInput{})
			if err != nil {
				return observe(err, nil)
			}
			found := false
			for _, t := range out.Topics {
				found = found || aws.ToString(t.TopicArn) == aws.ToString(c.topicARN)
			}
			return observe(nil, map[string]string{"found": fmt.Sprint(found)})
		}},
		{"SubscriptionAttributes", func(c *messaging) outcome {
			subs, err := c.sns.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: c.topicARN})
			if err != nil || len(subs.Subscriptions) != 1 {
				return observe(err, map[string]string{"subscriptions": fmt.Sprint(len(subs.Subscriptions))})
			}
			arn := subs.Subscriptions[0].SubscriptionArn
			if _, err := c.sns.SetSubscriptionAttributes(ctx, &sns.SetSubscriptionAttributesInput{SubscriptionArn: arn,
				AttributeName: aws.String("RawMessageDelivery"), AttributeValue: aws.String("true")}); err != nil {
				return observe(err, nil)
			}
			out, err := c.sns.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: arn})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"Protocol": out.Attributes["Protocol"], "RawMessageDelivery": out.Attributes["RawMessageDelivery"],
				"PendingConfirmation": out.Attributes["PendingConfirmation"]})
		}},
		{"SubscribeEmailPending", func(c *messaging) outcome {
			if _, err := c.sns.Subscribe(ctx, &sns.SubscribeInput{TopicArn: c.topicARN, Protocol: aws.String("email"), Endpoint: aws.String("ops@example.com")}); err != nil {
				return observe(err, nil)
			}
			out, err := c.sns.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: c.topicARN})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"SubscriptionsPending": out.Attributes["SubscriptionsPending"]})
		}},
		{"Unsubscribe", func(c *messaging) outcome {
			subs, err := c.sns.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: c.topicARN})
			if err != nil {
				return observe(err, nil)
			}
			for _, s := range subs.Subscriptions {
				if aws.ToString(s.Protocol) == "sqs" {
					if _, err := c.sns.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: s.SubscriptionArn}); err != nil {
						return observe(err, nil)
					}
				}
			}
			out, err := c.sns.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: c.topicARN})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"SubscriptionsConfirmed": out.Attributes["SubscriptionsConfirmed"]})
		}},
		{"RemoveQueuePolicy", func(c *messaging) outcome {
			if _, err := c.sqs.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: c.queueURL,
				Attributes: map[string]string{"Policy": "", "RedrivePolicy": ""}}); err != nil {
				return observe(err, nil)
			}
			return attrs(c, "Policy", "RedrivePolicy")
		}},
		{"UntagQueue", func(c *messaging) outcome {
			if _, err := c.sqs.UntagQueue(ctx, &sqs.UntagQueueInput{QueueUrl: c.queueURL, TagKeys: []string{"team"}}); err != nil {
				return observe(err, nil)
			}
			out, err := c.sqs.ListQueueTags(ctx, &sqs.ListQueueTagsInput{QueueUrl: c.queueURL})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"tags": fmt.Sprint(len(out.Tags))})
		}},
		{"DeleteTopic", func(c *messaging) outcome {
			_, err := c.sns.DeleteTopic(ctx, &sns.DeleteTopicInput{TopicArn: c.topicARN})
			return observe(err, nil)
		}},
		{"GetDeletedTopic", func(c *messaging) outcome {
			_, err := c.sns.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: c.topicARN})
			return observe(err, nil)
		}},
		{"DeleteQueue", func(c *messaging) outcome {
			_, err := c.sqs.DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: c.queueURL})
			return observe(err, nil)
		}},
	}
}

// TestMessagingAgainstFauxqs compares SQS and SNS with fauxqs.
func TestMessagingAgainstFauxqs(t *testing.T) {
	bin := peerBinary(t, "node_modules/.bin/fauxqs")
	port := freePort(t)
	// fauxqs listens on every interface (it hard-codes 0.0.0.0); the test only sends to
	// 127.0.0.1.
	peerURL := startPeer(t, port, []string{fmt.Sprintf("FAUXQS_PORT=%d", port), "FAUXQS_HOST=127.0.0.1", "FAUXQS_LOGGER=false"}, bin)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url string) *messaging {
		cfg := sdkConfig(t, url)
		return &messaging{sqs: sqs.NewFromConfig(cfg), sns: sns.NewFromConfig(cfg)}
	}
	compare(t, side(emu.URL), side(peerURL), "fauxqs "+fauxqsVersion, messagingSteps(), map[string]string{
		"CreateQueueOtherAttributes":   "fauxqs sends the query code AWS.SimpleQueueService.QueueNameExists; AWS's model gives QueueNameExists the query code QueueAlreadyExists",
		"CreateQueueBadName":           "fauxqs accepts any queue name; AWS allows only letters, digits, hyphens and underscores",
		"CreateFifoWithoutSuffix":      "fauxqs prefixes the code with AWS.SimpleQueueService.; AWS sends InvalidParameterValue",
		"CreateQueueRetentionTooShort": "fauxqs prefixes the code with AWS.SimpleQueueService.; AWS sends InvalidAttributeValue",
	})
}
