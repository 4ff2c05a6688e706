package messaging_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestAdmission checks that the API server refuses what AWS would refuse, with a message that
// says what to do, and that names and queue types cannot change.
func TestAdmission(t *testing.T) {
	h := start(t)
	ns := h.namespace()
	queues := map[string]struct {
		mutate func(*v1alpha1.SQSQueue)
		want   string
	}{
		"fifo-without-suffix": {func(q *v1alpha1.SQSQueue) { q.Spec.FifoQueue = true }, "a FIFO queue's name ends in .fifo"},
		"suffix-without-fifo": {func(q *v1alpha1.SQSQueue) { q.Spec.QueueName = "x.fifo"; q.Spec.FifoQueue = false }, "a FIFO queue's name ends in .fifo"},
		"fifo-only-setting":   {func(q *v1alpha1.SQSQueue) { q.Spec.DeduplicationScope = "queue" }, "only for FIFO queues"},
		"retention-too-short": {func(q *v1alpha1.SQSQueue) { q.Spec.MessageRetentionPeriod = aws.Int32(59) }, "messageRetentionPeriod"},
		"visibility-too-long": {func(q *v1alpha1.SQSQueue) { q.Spec.VisibilityTimeout = aws.Int32(43201) }, "visibilityTimeout"},
		"delay-too-long":      {func(q *v1alpha1.SQSQueue) { q.Spec.DelaySeconds = aws.Int32(901) }, "delaySeconds"},
		"message-too-large":   {func(q *v1alpha1.SQSQueue) { q.Spec.MaximumMessageSize = aws.Int32(1048577) }, "maximumMessageSize"},
		"wait-too-long":       {func(q *v1alpha1.SQSQueue) { q.Spec.ReceiveWaitTimeSeconds = aws.Int32(21) }, "receiveWaitTimeSeconds"},
		"receive-count-zero": {func(q *v1alpha1.SQSQueue) {
			q.Spec.DeadLetterQueue = &v1alpha1.SQSDeadLetterQueue{QueueARN: "arn:aws:sqs:us-east-1:123456789012:d", MaxReceiveCount: 0}
		}, "maxReceiveCount"},
		"dlq-arn-and-ref": {func(q *v1alpha1.SQSQueue) {
			q.Spec.DeadLetterQueue = &v1alpha1.SQSDeadLetterQueue{QueueARN: "arn:aws:sqs:us-east-1:123456789012:d", QueueRef: &shared.Reference{Name: "d"}, MaxReceiveCount: 3}
		}, "exactly one of queueARN or queueRef"},
		"dlq-of-other-type": {func(q *v1alpha1.SQSQueue) {
			q.Spec.DeadLetterQueue = &v1alpha1.SQSDeadLetterQueue{QueueARN: "arn:aws:sqs:us-east-1:123456789012:d.fifo", MaxReceiveCount: 3}
		}, "a FIFO queue needs a FIFO dead-letter queue"},
		"high-throughput-needs-group-scope": {func(q *v1alpha1.SQSQueue) {
			q.Spec.QueueName, q.Spec.FifoQueue, q.Spec.FifoThroughputLimit = "x.fifo", true, "perMessageGroupId"
		}, "needs deduplicationScope messageGroup"},
		"kms-while-disabled": {func(q *v1alpha1.SQSQueue) { q.Spec.Encryption = &v1alpha1.SQSEncryption{KMSKeyID: "alias/aws/sqs"} }, "need enabled: true"},
		"bad-name":           {func(q *v1alpha1.SQSQueue) { q.Spec.QueueName = "bad name" }, "queueName"},
	}
	for name, tc := range queues {
		q := queue(ns, name, "x")
		tc.mutate(q)
		kubetest.MustRefuse(h.t, h.env.Client, q, tc.want)
	}
	topics := map[string]struct {
		mutate func(*v1alpha1.SNSTopic)
		want   string
	}{
		"fifo-without-suffix": {func(t *v1alpha1.SNSTopic) { t.Spec.FifoTopic = true }, "a FIFO topic's name ends in .fifo"},
		"fifo-only-setting":   {func(t *v1alpha1.SNSTopic) { t.Spec.ContentBasedDeduplication = aws.Bool(true) }, "only for FIFO topics"},
		"unknown-protocol": {func(t *v1alpha1.SNSTopic) {
			t.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "pigeon", Endpoint: "x"}}
		}, "protocol"},
		"endpoint-and-ref": {func(t *v1alpha1.SNSTopic) {
			t.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "sqs", Endpoint: "arn:aws:sqs:us-east-1:123456789012:q", QueueRef: &shared.Reference{Name: "q"}}}
		}, "exactly one of endpoint or queueRef"},
		"sqs-endpoint-not-arn": {func(t *v1alpha1.SNSTopic) {
			t.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "sqs", Endpoint: "my-queue"}}
		}, "an sqs endpoint is a queue ARN"},
		"raw-delivery-on-email": {func(t *v1alpha1.SNSTopic) {
			t.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "email", Endpoint: "a@b.c", RawMessageDelivery: aws.Bool(true)}}
		}, "rawMessageDelivery is only for"},
		"fifo-topic-email": {func(t *v1alpha1.SNSTopic) {
			t.Spec.TopicName, t.Spec.FifoTopic = "x.fifo", true
			t.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "email", Endpoint: "a@b.c"}}
		}, "a FIFO topic delivers only to SQS queues"},
		"encryption-without-key": {func(t *v1alpha1.SNSTopic) { t.Spec.Encryption = &v1alpha1.SNSEncryption{Enabled: true} }, "SNS encrypts with a KMS key"},
		"scope-without-filter": {func(t *v1alpha1.SNSTopic) {
			t.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "email", Endpoint: "a@b.c", FilterPolicyScope: "MessageBody"}}
		}, "filterPolicyScope needs filterPolicy"},
	}
	for name, tc := range topics {
		tp := topic(ns, name, "x")
		tc.mutate(tp)
		kubetest.MustRefuse(h.t, h.env.Client, tp, tc.want)
	}

	// Immutable names and types.
	q := queue(ns, "fixed", "fixed")
	h.create(q)
	kubetest.MustRefuseUpdate(t, h.env.Client, q, func(q *v1alpha1.SQSQueue) { q.Spec.QueueName = "other" }, "queueName cannot change")
	tp := topic(ns, "fixed", "fixed")
	h.create(tp)
	kubetest.MustRefuseUpdate(t, h.env.Client, tp, func(tp *v1alpha1.SNSTopic) { tp.Spec.TopicName, tp.Spec.FifoTopic = "fixed.fifo", true }, "topicName cannot change")
}
