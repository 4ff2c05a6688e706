package differential

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// events is one side's S3 and SQS clients and the queue S3 notifies.
type events struct {
	s3       *s3.Client
	sqs      *sqs.Client
	queueURL *string
	queueARN string
}

// notificationSteps is the event notification sequence both sides run: a bucket and a queue,
// a configuration on a missing queue, then on the queue with a policy for S3 (its test event),
// objects created and deleted under and outside the filter, and the event records the queue
// receives.
func notificationSteps() []step[*events] {
	ctx := context.Background()
	bucket := aws.String("diff-events")
	configure := func(arn func(e *events) string) func(e *events) outcome {
		return func(e *events) outcome {
			_, err := e.s3.PutBucketNotificationConfiguration(ctx, &s3.PutBucketNotificationConfigurationInput{Bucket: bucket,
				NotificationConfiguration: &types.NotificationConfiguration{QueueConfigurations: []types.QueueConfiguration{{Id: aws.String("logs"),
					QueueArn: aws.String(arn(e)), Events: []types.Event{"s3:ObjectCreated:*", "s3:ObjectRemoved:Delete"},
					Filter: &types.NotificationConfigurationFilter{Key: &types.S3KeyFilter{FilterRules: []types.FilterRule{
						{Name: types.FilterRuleNamePrefix, Value: aws.String("logs/")}}}}}}}})
			return observe(err, nil)
		}
	}
	received := func(e *events) outcome {
		out, err := e.sqs.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: e.queueURL, MaxNumberOfMessages: 10})
		if err != nil {
			return observe(err, nil)
		}
		var got []string
		for _, m := range out.Messages {
			var doc struct {
				Event   string
				Records []struct {
					EventName, EventSource string
					S3                     struct {
						ConfigurationID string `json:"configurationId"`
						Bucket          struct{ Name string }
						Object          struct{ Key string }
					}
				}
			}
			if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &doc); err != nil {
				got = append(got, "not JSON")
			}
			if doc.Event != "" {
				got = append(got, doc.Event)
			}
			for _, r := range doc.Records {
				got = append(got, strings.Join([]string{r.EventSource, r.EventName, r.S3.ConfigurationID, r.S3.Bucket.Name, r.S3.Object.Key}, " "))
			}
			if _, err := e.sqs.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: e.queueURL, ReceiptHandle: m.ReceiptHandle}); err != nil {
				return observe(err, nil)
			}
		}
		return observe(nil, map[string]string{"messages": strings.Join(got, "; ")})
	}
	return []step[*events]{
		{"CreateBucket", func(e *events) outcome {
			_, err := e.s3.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: bucket})
			return observe(err, nil)
		}},
		{"CreateQueue", func(e *events) outcome {
			q, err := e.sqs.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String("diff-events")})
			if err != nil {
				return observe(err, nil)
			}
			e.queueURL = q.QueueUrl
			a, err := e.sqs.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: q.QueueUrl, AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameQueueArn}})
			if err != nil {
				return observe(err, nil)
			}
			e.queueARN = a.Attributes["QueueArn"]
			policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"s3.amazonaws.com"},"Action":"sqs:SendMessage","Resource":"` +
				e.queueARN + `","Condition":{"ArnLike":{"aws:SourceArn":"arn:aws:s3:::diff-events"}}}]}`
			_, err = e.sqs.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: q.QueueUrl, Attributes: map[string]string{"Policy": policy}})
			return observe(err, nil)
		}},
		{"ConfigureMissingQueue", configure(func(e *events) string { return strings.Replace(e.queueARN, "diff-events", "diff-missing", 1) })},
		{"Configure", configure(func(e *events) string { return e.queueARN })},
		{"TestEvent", received},
		{"PutObjects", func(e *events) outcome {
			for _, key := range []string{"logs/a.txt", "data/b.txt"} {
				if _, err := e.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: bucket, Key: aws.String(key), Body: strings.NewReader("x")}); err != nil {
					return observe(err, nil)
				}
			}
			_, err := e.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: bucket, Key: aws.String("logs/a.txt")})
			return observe(err, nil)
		}},
		{"Events", received},
	}
}

// TestS3NotificationsAgainstMoto runs the notification sequence against the emulator and moto.
func TestS3NotificationsAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url string) *events {
		cfg := sdkConfig(t, url)
		return &events{s3: s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }), sqs: sqs.NewFromConfig(cfg)}
	}
	compare(t, side(emu.URL), side(peerURL), "moto "+motoVersion, notificationSteps(), map[string]string{
		"ConfigureMissingQueue": "moto stores a configuration whose queue does not exist; AWS checks each destination by sending it a test " +
			"message and answers InvalidArgument (Unable to validate the following destination configurations)",
	})
}
