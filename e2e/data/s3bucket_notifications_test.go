package data_test

import (
	"context"
	"encoding/json"
	neturl "net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lambdatypes "github.com/aws/aws-sdk-go-v2/service/lambda/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging"
	msgv1 "github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/testenv/awsfixture"
)

// startWithMessaging is start with the messaging family too, whose SQSQueues and SNSTopics an
// S3Bucket's notifications name.
func startWithMessaging(t testing.TB) *harness {
	t.Helper()
	return launch(t, testTransitions, shortWaits, messaging.Family())
}

// namespace creates a namespace with an AWSProvider named production-aws.
func (h *harness) namespace() string {
	h.t.Helper()
	ns := h.env.Namespace(h.t)
	h.provider(ns, "production-aws")
	return ns
}

// bucketIn returns an S3Bucket of ns that deletes its bucket.
func bucketIn(ns, name, bucketName string) *v1alpha1.S3Bucket {
	b := newBucket(name, bucketName, shared.DeletionPolicyDelete)
	b.Namespace = ns
	return b
}

// sqsQueue returns an SQSQueue of ns that deletes its queue.
func sqsQueue(ns, name string) *msgv1.SQSQueue {
	q := &msgv1.SQSQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	q.Spec.ProviderRef.Name, q.Spec.DeletionPolicy, q.Spec.QueueName = "production-aws", shared.DeletionPolicyDelete, name
	return q
}

// queueAttributes returns every attribute of the queue with url.
func (h *harness) queueAttributes(url string) map[string]string {
	h.t.Helper()
	out, err := sqs.NewFromConfig(h.aws).GetQueueAttributes(context.Background(), &sqs.GetQueueAttributesInput{QueueUrl: aws.String(url),
		AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameAll}})
	if err != nil {
		h.t.Fatalf("get the attributes of queue %s: %v", url, err)
	}
	return out.Attributes
}

// records receives the messages of the queue with url and returns the S3 event records among
// them as "configurationId eventName key", leaving out S3's test events.
func (h *harness) records(url string) []string {
	h.t.Helper()
	out, err := sqs.NewFromConfig(h.aws).ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 10})
	if err != nil {
		h.t.Fatal(err)
	}
	var got []string
	for _, m := range out.Messages {
		var body struct {
			Records []struct {
				EventName string
				S3        struct {
					ConfigurationID string `json:"configurationId"`
					Object          struct{ Key string }
				}
			}
		}
		_ = json.Unmarshal([]byte(aws.ToString(m.Body)), &body)
		for _, r := range body.Records {
			// Keys are URL-encoded as a form encodes them; consumers decode them so.
			key, _ := neturl.QueryUnescape(r.S3.Object.Key)
			got = append(got, r.S3.ConfigurationID+" "+r.EventName+" "+key)
		}
	}
	return got
}

// allCalls returns how many calls the emulator answered, by service and operation
// ("S3.PutObject").
func (h *harness) allCalls() map[string]int {
	out := map[string]int{}
	for svc := range h.emu.Calls.Snapshot() {
		for op, n := range h.calls(svc) {
			out[svc+"."+op] = n
		}
	}
	return out
}

// notificationsOf returns the notification configuration of bucket name.
func notificationsOf(t *testing.T, c *s3.Client, name string) *s3.GetBucketNotificationConfigurationOutput {
	t.Helper()
	out, err := c.GetBucketNotificationConfiguration(context.Background(), &s3.GetBucketNotificationConfigurationInput{Bucket: aws.String(name)})
	if err != nil {
		t.Fatalf("get the notification configuration of bucket %s: %v", name, err)
	}
	return out
}

// TestS3BucketNotifiesQueue checks a bucket that notifies an SQSQueue by reference: it becomes
// Ready once the queue's policy holds S3's statement (beside the queue's own, which the
// SQSQueue keeps, as it keeps S3's on its next sync); an object put under the filter's prefix
// is delivered to the queue as an event record, others are not; a configuration removed
// outside the operator is restored; removing the notification removes the configuration and
// the statement. It prints the AWS calls of adding a notification and of a steady sync.
func TestS3BucketNotifiesQueue(t *testing.T) {
	h := startWithMessaging(t)
	ns := h.namespace()
	c := h.s3Client()
	own := `{"Version":"2012-10-17","Statement":[{"Sid":"Owner","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::123456789012:root"},"Action":"sqs:*","Resource":"*"}]}`
	q := sqsQueue(ns, "uploads-events")
	q.Spec.Policy = own
	h.create(q)
	q = waitReady(h, q)

	const name = "infra-test-notify-queue"
	b := bucketIn(ns, "notified", name)
	h.create(b)
	b = waitReady(h, b)
	h.emu.Calls.Reset()
	update(h, b, func(b *v1alpha1.S3Bucket) {
		b.Spec.Notifications = []v1alpha1.S3Notification{{ID: "uploads", Events: []string{"s3:ObjectCreated:*"},
			Filter: &v1alpha1.S3NotificationFilter{Prefix: "uploads/"}, QueueRef: &shared.Reference{Name: q.Name}}}
	})
	b = waitReady(h, b)
	added := h.allCalls()
	t.Logf("adding a queue notification: %d AWS calls %v", total(added), added)
	statement := policy.S3SendStatement(b.Status.ARN, q.Status.QueueARN)
	hasStatement := func() bool {
		doc, err := policy.Parse(h.queueAttributes(q.Status.QueueURL)["Policy"])
		return err == nil && doc.Has(statement)
	}
	if !hasStatement() {
		t.Fatalf("the queue's policy lacks S3's statement: %s", h.queueAttributes(q.Status.QueueURL)["Policy"])
	}
	if n := notificationsOf(t, c, name); len(n.QueueConfigurations) != 1 || aws.ToString(n.QueueConfigurations[0].QueueArn) != q.Status.QueueARN {
		t.Fatalf("the bucket's queue configurations are %+v", n.QueueConfigurations)
	}

	// The SQSQueue keeps S3's statement beside its own policy.
	h.emu.Calls.Reset()
	h.resync(q)
	eventually(t, "the queue synced again", func() bool { return h.calls("SQS")["GetQueueAttributes"] > 0 })
	time.Sleep(500 * time.Millisecond)
	if n := h.calls("SQS")["SetQueueAttributes"]; n != 0 || !hasStatement() {
		t.Errorf("the SQSQueue's sync made %d SetQueueAttributes calls; its policy is now %s", n, h.queueAttributes(q.Status.QueueURL)["Policy"])
	}
	if doc, _ := policy.Parse(h.queueAttributes(q.Status.QueueURL)["Policy"]); len(doc.Statements) != 2 {
		t.Errorf("the queue's policy is not its own statement and S3's: %s", doc)
	}

	// Objects created under the prefix arrive as event records; others do not.
	for _, key := range []string{"uploads/a.txt", "other/b.txt"} {
		if _, err := c.PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String(name), Key: aws.String(key), Body: strings.NewReader("x")}); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.records(q.Status.QueueURL); len(got) != 1 || got[0] != "uploads ObjectCreated:Put uploads/a.txt" {
		t.Errorf("the queue received the event records %q, want the one of uploads/a.txt", got)
	}

	// A steady sync writes nothing.
	h.emu.Calls.Reset()
	h.resync(b)
	eventually(t, "the bucket synced again", func() bool { return h.calls("S3")["GetBucketNotificationConfiguration"] > 0 })
	time.Sleep(500 * time.Millisecond)
	steady := h.allCalls()
	t.Logf("a steady sync of a bucket notifying a queue: %d AWS calls %v", total(steady), steady)
	if n := h.calls("S3")["PutBucketNotificationConfiguration"] + h.calls("SQS")["SetQueueAttributes"]; n != 0 {
		t.Errorf("a steady sync made %d writes", n)
	}

	// A configuration removed outside the operator is restored.
	if _, err := c.PutBucketNotificationConfiguration(context.Background(), &s3.PutBucketNotificationConfigurationInput{Bucket: aws.String(name),
		NotificationConfiguration: &types.NotificationConfiguration{}}); err != nil {
		t.Fatal(err)
	}
	h.resync(b)
	eventually(t, "the configuration restored", func() bool { return len(notificationsOf(t, c, name).QueueConfigurations) == 1 })

	// Removing the notification removes the configuration and the statement.
	update(h, b, func(b *v1alpha1.S3Bucket) { b.Spec.Notifications = nil })
	eventually(t, "the configuration and the statement removed", func() bool {
		return len(notificationsOf(t, c, name).QueueConfigurations) == 0 && !hasStatement()
	})
	if doc, _ := policy.Parse(h.queueAttributes(q.Status.QueueURL)["Policy"]); len(doc.Statements) != 1 {
		t.Errorf("after the notification went, the queue's policy is %s, want its own statement only", doc)
	}
}

// TestS3BucketNotifiesTopicAndFunction checks a bucket that notifies an SNSTopic by reference
// (whose own spec.policy the SNSTopic keeps beside S3's statement) and a function by ARN (made
// outside the operator, tagged as the namespace's): the topic's policy and the function's get
// S3's statements, and deleting the bucket removes both.
func TestS3BucketNotifiesTopicAndFunction(t *testing.T) {
	h := startWithMessaging(t)
	ns := h.namespace()
	own := `{"Version":"2012-10-17","Statement":[{"Sid":"Owner","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::123456789012:root"},"Action":"sns:Publish","Resource":"*"}]}`
	tp := &msgv1.SNSTopic{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bucket-events"}}
	tp.Spec.ProviderRef.Name, tp.Spec.DeletionPolicy, tp.Spec.TopicName, tp.Spec.Policy = "production-aws", shared.DeletionPolicyDelete, "bucket-events", own
	h.create(tp)
	tp = waitReady(h, tp)
	fn := lambda.NewFromConfig(h.aws)
	created, err := fn.CreateFunction(context.Background(), &lambda.CreateFunctionInput{FunctionName: aws.String("thumbnails"),
		Runtime: lambdatypes.RuntimePython311, Handler: aws.String("index.handler"), Role: aws.String("arn:aws:iam::123456789012:role/r"),
		Code: &lambdatypes.FunctionCode{ZipFile: awsfixture.Zip(t, "index.py", "def handler(event, context):\n    return 'ok'\n")},
		Tags: map[string]string{shared.TagOwnerNamespace: ns, shared.TagOwnerUID: "thumbnails-uid", shared.TagOwnerName: "thumbnails", shared.TagOwnerKind: "LambdaFunction"}})
	if err != nil {
		t.Fatal(err)
	}
	functionARN := aws.ToString(created.FunctionArn)

	const name = "infra-test-notify-topic"
	b := bucketIn(ns, "notified", name)
	b.Spec.Notifications = []v1alpha1.S3Notification{
		{ID: "removals", Events: []string{"s3:ObjectRemoved:*"}, TopicRef: &shared.Reference{Name: tp.Name}},
		{ID: "images", Events: []string{"s3:ObjectCreated:Put"}, Filter: &v1alpha1.S3NotificationFilter{Suffix: ".jpg"}, FunctionARN: functionARN},
	}
	h.create(b)
	b = waitReady(h, b)
	topicPolicy := func() policy.Document {
		out, err := sns.NewFromConfig(h.aws).GetTopicAttributes(context.Background(), &sns.GetTopicAttributesInput{TopicArn: aws.String(tp.Status.TopicARN)})
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := policy.Parse(out.Attributes["Policy"])
		return doc
	}
	functionSids := func() string {
		out, err := fn.GetPolicy(context.Background(), &lambda.GetPolicyInput{FunctionName: aws.String(functionARN)})
		if err != nil {
			return ""
		}
		return aws.ToString(out.Policy)
	}
	if !topicPolicy().Has(policy.S3PublishStatement(b.Status.ARN, tp.Status.TopicARN)) {
		t.Errorf("the topic's policy lacks S3's statement: %s", topicPolicy())
	}
	if !strings.Contains(functionSids(), policy.S3Sid(b.Status.ARN)) {
		t.Errorf("the function's policy lacks S3's statement: %s", functionSids())
	}
	n := notificationsOf(t, h.s3Client(), name)
	if len(n.TopicConfigurations) != 1 || len(n.LambdaFunctionConfigurations) != 1 {
		t.Errorf("the bucket's configuration is %+v", n)
	}

	// The SNSTopic keeps S3's statement beside its own policy.
	h.emu.Calls.Reset()
	h.resync(tp)
	eventually(t, "the topic synced again", func() bool { return h.calls("SNS")["GetTopicAttributes"] > 0 })
	time.Sleep(500 * time.Millisecond)
	if n := h.calls("SNS")["SetTopicAttributes"]; n != 0 {
		t.Errorf("the SNSTopic's sync made %d SetTopicAttributes calls; its policy is now %s", n, topicPolicy())
	}

	// Deleting the bucket removes both statements.
	h.delete(b)
	if doc := topicPolicy(); doc.Has(policy.S3PublishStatement(b.Status.ARN, tp.Status.TopicARN)) || len(doc.Statements) != 1 {
		t.Errorf("after the bucket's deletion the topic's policy is %s", doc)
	}
	if strings.Contains(functionSids(), policy.S3Sid(b.Status.ARN)) {
		t.Errorf("after the bucket's deletion the function's policy is %s", functionSids())
	}
}

// TestS3BucketNotificationForeignQueue checks that a bucket naming, by ARN, a queue, a topic or
// a function another namespace's object made, or a queue made outside the operator, is refused with
// ForeignWriteNotAllowed, and that neither the destination's policy nor the bucket's
// notification configuration is written.
func TestS3BucketNotificationForeignQueue(t *testing.T) {
	h := startWithMessaging(t)
	ns, other := h.namespace(), h.namespace()
	theirs := sqsQueue(other, "theirs")
	h.create(theirs)
	theirs = waitReady(h, theirs)
	topic := &msgv1.SNSTopic{ObjectMeta: metav1.ObjectMeta{Namespace: other, Name: "their-topic"}}
	topic.Spec.ProviderRef.Name, topic.Spec.DeletionPolicy, topic.Spec.TopicName = "production-aws", shared.DeletionPolicyDelete, "their-topic"
	h.create(topic)
	topic = waitReady(h, topic)
	outside, err := sqs.NewFromConfig(h.aws).CreateQueue(context.Background(), &sqs.CreateQueueInput{QueueName: aws.String("outside")})
	if err != nil {
		t.Fatal(err)
	}
	function, err := lambda.NewFromConfig(h.aws).CreateFunction(context.Background(), &lambda.CreateFunctionInput{FunctionName: aws.String("their-function"),
		Runtime: lambdatypes.RuntimePython311, Handler: aws.String("index.handler"), Role: aws.String("arn:aws:iam::123456789012:role/r"),
		Code: &lambdatypes.FunctionCode{ZipFile: awsfixture.Zip(t, "index.py", "def handler(event, context):\n    return 'ok'\n")},
		Tags: map[string]string{shared.TagOwnerNamespace: other, shared.TagOwnerUID: "their-uid", shared.TagOwnerName: "their-function", shared.TagOwnerKind: "LambdaFunction"}})
	if err != nil {
		t.Fatal(err)
	}
	h.emu.Calls.Reset()
	for name, n := range map[string]v1alpha1.S3Notification{
		"their-function": {FunctionARN: aws.ToString(function.FunctionArn)},
		"their-queue":    {QueueARN: theirs.Status.QueueARN},
		"their-topic":    {TopicARN: topic.Status.TopicARN},
		"outside-queue":  {QueueARN: h.queueAttributes(aws.ToString(outside.QueueUrl))["QueueArn"]},
	} {
		n.ID, n.Events = "steal", []string{"s3:ObjectCreated:*"}
		b := bucketIn(ns, name, "infra-test-notify-"+name)
		b.Spec.Notifications = []v1alpha1.S3Notification{n}
		h.create(b)
		waitCondition(h, b, "Synced", "False", condition.ReasonForeignWriteNotAllowed)
	}
	if n := h.calls("SQS")["SetQueueAttributes"] + h.calls("SNS")["SetTopicAttributes"] + h.calls("Lambda")["AddPermission"] +
		h.calls("S3")["PutBucketNotificationConfiguration"]; n != 0 {
		t.Errorf("buckets refused for foreign destinations made %d writes", n)
	}
	if p := h.queueAttributes(theirs.Status.QueueURL)["Policy"]; strings.Contains(p, policy.S3SidPrefix) {
		t.Errorf("the other namespace's queue policy was written: %s", p)
	}
}

// TestS3BucketNotificationAdmission checks what the API server refuses: a notification with
// no destination or two, an unknown event, a FIFO queue's ARN, and two notifications of one id.
func TestS3BucketNotificationAdmission(t *testing.T) {
	h := start(t)
	queue := "arn:aws:sqs:us-east-1:123456789012:events"
	for text, n := range map[string][]v1alpha1.S3Notification{
		"exactly one of queueRef":   {{ID: "none", Events: []string{"s3:ObjectCreated:*"}}},
		"exactly one of queueRef, ": {{ID: "two", Events: []string{"s3:ObjectCreated:*"}, QueueARN: queue, TopicRef: &shared.Reference{Name: "t"}}},
		"Unsupported value":         {{ID: "event", Events: []string{"s3:ObjectCreated"}, QueueARN: queue}},
		"should match":              {{ID: "fifo", Events: []string{"s3:ObjectCreated:*"}, QueueARN: queue + ".fifo"}},
		"Duplicate value":           {{ID: "same", Events: []string{"s3:ObjectCreated:*"}, QueueARN: queue}, {ID: "same", Events: []string{"s3:ObjectRemoved:*"}, QueueARN: queue}},
	} {
		b := newBucket("refused", "infra-test-refused", shared.DeletionPolicyDelete)
		b.Spec.Notifications = n
		h.mustRefuse(b, text)
	}
}
