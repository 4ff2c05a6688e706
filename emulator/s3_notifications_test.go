package emulator_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// s3SendPolicy is a queue or topic policy that lets the bucket's S3 events in.
func s3SendPolicy(action, resource, bucket string) string {
	return `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"s3.amazonaws.com"},"Action":"` + action +
		`","Resource":"` + resource + `","Condition":{"ArnLike":{"aws:SourceArn":"arn:aws:s3:::` + bucket + `"}}}]}`
}

// drain receives every message of a queue and returns their bodies.
func drain(t *testing.T, c *sqs.Client, url *string) []string {
	t.Helper()
	out, err := c.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{QueueUrl: url, MaxNumberOfMessages: 10})
	if err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, m := range out.Messages {
		bodies = append(bodies, aws.ToString(m.Body))
		if _, err := c.DeleteMessage(context.Background(), &sqs.DeleteMessageInput{QueueUrl: url, ReceiptHandle: m.ReceiptHandle}); err != nil {
			t.Fatal(err)
		}
	}
	return bodies
}

// TestS3Notifications checks event notifications as AWS documents them: a configuration whose
// queue is missing or whose policy does not let S3 send is refused (and not stored), unless
// destination validation is skipped; an accepted one sends the queue an s3:TestEvent; then
// objects created and deleted under the filter's prefix and suffix are delivered as event
// records with the configuration's id, others are not; a topic with a policy for S3 gets them
// too (its SQS subscriber receives them), and a function whose policy does not let S3 invoke it
// is refused.
func TestS3Notifications(t *testing.T) {
	ctx := context.Background()
	_, url := start(t, emulator.Options{})
	cfg := sdkConfig(t, url, "AKIDS3EVENTS", 1)
	objects, queues, topics, functions := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }), sqs.NewFromConfig(cfg), sns.NewFromConfig(cfg), lambda.NewFromConfig(cfg)
	bucket := aws.String("uploads-events")
	if _, err := objects.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket}); err != nil {
		t.Fatal(err)
	}
	q, err := queues.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("uploads")})
	if err != nil {
		t.Fatal(err)
	}
	attrs, err := queues.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: q.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameQueueArn}})
	if err != nil {
		t.Fatal(err)
	}
	queueARN := attrs.Attributes["QueueArn"]
	onQueue := func(arn string) *types.NotificationConfiguration {
		return &types.NotificationConfiguration{QueueConfigurations: []types.QueueConfiguration{{Id: aws.String("images"), QueueArn: aws.String(arn),
			Events: []types.Event{"s3:ObjectCreated:*", "s3:ObjectRemoved:*"},
			Filter: &types.NotificationConfigurationFilter{Key: &types.S3KeyFilter{FilterRules: []types.FilterRule{
				{Name: types.FilterRuleNamePrefix, Value: aws.String("images/")}, {Name: types.FilterRuleNameSuffix, Value: aws.String(".png")}}}}}}}
	}
	put := func(c *types.NotificationConfiguration, skip bool) error {
		_, err := objects.PutBucketNotificationConfiguration(ctx, &s3.PutBucketNotificationConfigurationInput{Bucket: bucket, NotificationConfiguration: c,
			SkipDestinationValidation: aws.Bool(skip)})
		return err
	}
	stored := func() int {
		n, err := objects.GetBucketNotificationConfiguration(ctx, &s3.GetBucketNotificationConfigurationInput{Bucket: bucket})
		if err != nil {
			t.Fatal(err)
		}
		return len(n.QueueConfigurations) + len(n.TopicConfigurations) + len(n.LambdaFunctionConfigurations)
	}

	// A missing queue, and a queue whose policy does not let S3 send, are refused.
	for what, arn := range map[string]string{"a missing queue": strings.Replace(queueARN, "uploads", "missing", 1), "a queue without a policy for S3": queueARN} {
		if err := put(onQueue(arn), false); errorCode(err) != "InvalidArgument" || !strings.Contains(err.Error(), "Unable to validate the following destination configurations") {
			t.Errorf("%s: %v, want InvalidArgument", what, err)
		}
	}
	if n := stored(); n != 0 {
		t.Fatalf("%d configurations stored after refusals", n)
	}
	if got := drain(t, queues, q.QueueUrl); len(got) != 0 {
		t.Errorf("a refused queue received %v", got)
	}
	// Skipping validation stores it without a test message.
	if err := put(onQueue(strings.Replace(queueARN, "uploads", "missing", 1)), true); err != nil || stored() != 1 {
		t.Fatalf("with validation skipped: %v", err)
	}

	// With a policy for the bucket: the test event, then the events of matching keys.
	if _, err := queues.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: q.QueueUrl,
		Attributes: map[string]string{"Policy": s3SendPolicy("sqs:SendMessage", queueARN, *bucket)}}); err != nil {
		t.Fatal(err)
	}
	if err := put(onQueue(queueARN), false); err != nil {
		t.Fatal(err)
	}
	if got := drain(t, queues, q.QueueUrl); len(got) != 1 || !strings.Contains(got[0], `"Event":"s3:TestEvent"`) || !strings.Contains(got[0], `"Bucket":"uploads-events"`) {
		t.Fatalf("after the configuration the queue has %v, want one s3:TestEvent", got)
	}
	for _, key := range []string{"images/cat.png", "images/cat.jpg", "docs/cat.png"} {
		if _, err := objects.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String(key), Body: strings.NewReader("meow")}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := objects.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: bucket, Key: aws.String("images/cat.png")}); err != nil {
		t.Fatal(err)
	}
	var events []string
	for _, body := range drain(t, queues, q.QueueUrl) {
		var doc struct {
			Records []struct {
				EventSource, EventName string
				S3                     struct {
					ConfigurationID string `json:"configurationId"`
					Bucket          struct{ Name, ARN string }
					Object          struct {
						Key  string
						Size int
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(body), &doc); err != nil || len(doc.Records) != 1 {
			t.Fatalf("event message %s: %v", body, err)
		}
		r := doc.Records[0]
		if r.EventSource != "aws:s3" || r.S3.ConfigurationID != "images" || r.S3.Bucket.Name != "uploads-events" || r.S3.Bucket.ARN != "arn:aws:s3:::uploads-events" {
			t.Errorf("event record: %s", body)
		}
		events = append(events, r.EventName+" "+r.S3.Object.Key)
	}
	if strings.Join(events, ", ") != "ObjectCreated:Put images%2Fcat.png, ObjectRemoved:Delete images%2Fcat.png" {
		t.Errorf("events delivered: %v, want the put and the delete of images/cat.png only", events)
	}

	// A topic with a policy for S3 publishes the events to its subscribers.
	topic, err := topics.CreateTopic(ctx, &sns.CreateTopicInput{Name: aws.String("uploads")})
	if err != nil {
		t.Fatal(err)
	}
	onTopic := &types.NotificationConfiguration{TopicConfigurations: []types.TopicConfiguration{{TopicArn: topic.TopicArn, Events: []types.Event{"s3:ObjectCreated:Put"}}}}
	if err := put(onTopic, false); errorCode(err) != "InvalidArgument" {
		t.Errorf("a topic with its default policy: %v, want InvalidArgument", err)
	}
	if _, err := topics.SetTopicAttributes(ctx, &sns.SetTopicAttributesInput{TopicArn: topic.TopicArn, AttributeName: aws.String("Policy"),
		AttributeValue: aws.String(s3SendPolicy("sns:Publish", *topic.TopicArn, *bucket))}); err != nil {
		t.Fatal(err)
	}
	if _, err := topics.Subscribe(ctx, &sns.SubscribeInput{TopicArn: topic.TopicArn, Protocol: aws.String("sqs"), Endpoint: aws.String(queueARN),
		Attributes: map[string]string{"RawMessageDelivery": "true"}}); err != nil {
		t.Fatal(err)
	}
	both := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":["s3.amazonaws.com","sns.amazonaws.com"]},"Action":"sqs:SendMessage","Resource":"` + queueARN + `"}]}`
	if _, err := queues.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: q.QueueUrl, Attributes: map[string]string{"Policy": both}}); err != nil {
		t.Fatal(err)
	}
	if err := put(onTopic, false); err != nil {
		t.Fatal(err)
	}
	if _, err := objects.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String("any.txt"), Body: strings.NewReader("x")}); err != nil {
		t.Fatal(err)
	}
	if got := drain(t, queues, q.QueueUrl); len(got) != 2 || !strings.Contains(got[0], "s3:TestEvent") || !strings.Contains(got[1], `"key":"any.txt"`) {
		t.Errorf("the topic's subscriber received %v, want the test event and the put of any.txt", got)
	}

	// A function whose policy does not let S3 invoke it is refused.
	fn, err := functions.CreateFunction(ctx, zipFunction(t, "thumbnails"))
	if err != nil {
		t.Fatal(err)
	}
	onFunction := &types.NotificationConfiguration{LambdaFunctionConfigurations: []types.LambdaFunctionConfiguration{{LambdaFunctionArn: fn.FunctionArn,
		Events: []types.Event{"s3:ObjectCreated:*"}}}}
	if err := put(onFunction, false); errorCode(err) != "InvalidArgument" {
		t.Errorf("a function without a permission for S3: %v, want InvalidArgument", err)
	}
	if _, err := functions.AddPermission(ctx, &lambda.AddPermissionInput{FunctionName: fn.FunctionName, StatementId: aws.String("s3"),
		Action: aws.String("lambda:InvokeFunction"), Principal: aws.String("s3.amazonaws.com"), SourceArn: aws.String("arn:aws:s3:::" + *bucket)}); err != nil {
		t.Fatal(err)
	}
	if err := put(onFunction, false); err != nil {
		t.Errorf("a function with a permission for S3: %v", err)
	}
}
