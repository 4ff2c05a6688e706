package messaging_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestSQSQueueSeedExamples applies the SQS seed examples verbatim, after the dead-letter queue
// the standard one names (created as an SQSQueue), and checks the queues in AWS.
func TestSQSQueueSeedExamples(t *testing.T) {
	h := start(t)
	h.provider("default", "production-aws")
	dlq := queue("default", "production-dlq", "production-dlq")
	dlq.Spec.ProviderRef.Name = "production-aws"
	h.create(dlq)
	waitReady(h, dlq)

	h.seed("sqsqueue-standard.yaml", "default")
	h.seed("sqsqueue-fifo.yaml", "default")
	h.seed("sqsqueue-serverless.yaml", "default")
	processing := waitReady(h, &v1alpha1.SQSQueue{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "processing-queue"}})
	if got := h.attributes(processing.Status.QueueURL)["VisibilityTimeout"]; got != "300" {
		t.Errorf("processing-queue VisibilityTimeout = %q, want 300", got)
	}
	std := waitReady(h, &v1alpha1.SQSQueue{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "task-queue"}})
	fifo := waitReady(h, &v1alpha1.SQSQueue{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "orders-queue"}})
	if std.Status.QueueARN != "arn:aws:sqs:us-east-1:123456789012:production-task-queue" || std.Status.QueueURL == "" ||
		std.Status.QueueName != "production-task-queue" || std.Status.DeadLetterQueueARN != "arn:aws:sqs:us-east-1:123456789012:production-dlq" {
		t.Errorf("status of task-queue = %+v", std.Status)
	}
	got := h.attributes(std.Status.QueueURL)
	for k, v := range map[string]string{"MessageRetentionPeriod": "345600", "VisibilityTimeout": "30", "KmsMasterKeyId": "alias/aws/sqs",
		"RedrivePolicy": `{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:123456789012:production-dlq","maxReceiveCount":3}`} {
		if got[k] != v {
			t.Errorf("task-queue %s = %q, want %q", k, got[k], v)
		}
	}
	got = h.attributes(fifo.Status.QueueURL)
	for k, v := range map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true", "DeduplicationScope": "messageGroup",
		"FifoThroughputLimit": "perMessageGroupId", "VisibilityTimeout": "60", "MessageRetentionPeriod": "1209600"} {
		if got[k] != v {
			t.Errorf("orders-queue %s = %q, want %q", k, got[k], v)
		}
	}
	tags, err := h.sqs.ListQueueTags(context.Background(), &sqs.ListQueueTagsInput{QueueUrl: aws.String(fifo.Status.QueueURL)})
	if err != nil || tags.Tags["Type"] != "fifo" || tags.Tags[shared.TagOwnerUID] != string(fifo.UID) {
		t.Errorf("orders-queue tags = %v, %v", tags, err)
	}
}

// TestSQSQueueUpdateAndDrift changes the spec (one SetQueueAttributes with only what differs),
// then changes the queue outside the operator and sees it restored, with the statements an
// SNSTopic keeps in the policy left alone and a statement added by hand under their reserved
// Sid prefix removed.
func TestSQSQueueUpdateAndDrift(t *testing.T) {
	h := start(t)
	ns := h.namespace()
	q := queue(ns, "work", "work")
	q.Spec.VisibilityTimeout = aws.Int32(30)
	q.Spec.DelaySeconds = aws.Int32(0)
	q.Spec.Policy = `{"Version":"2012-10-17","Statement":[{"Sid":"Owner","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::123456789012:root"},"Action":"sqs:*","Resource":"*"}]}`
	h.create(q)
	q = waitReady(h, q)

	h.emu.Calls.Reset()
	kubetest.Update(h.t, h.env.Client, q, func(q *v1alpha1.SQSQueue) {
		q.Spec.VisibilityTimeout = aws.Int32(90)
		q.Spec.MaximumMessageSize = aws.Int32(1048576)
		q.Spec.ReceiveWaitTimeSeconds = aws.Int32(20)
		q.Spec.RedriveAllowPolicy = &v1alpha1.SQSRedriveAllowPolicy{RedrivePermission: "denyAll"}
	})
	q = waitReady(h, q)
	if n := h.calls("SQS")["SetQueueAttributes"]; n != 1 {
		t.Errorf("the update took %d SetQueueAttributes calls, want 1", n)
	}
	got := h.attributes(q.Status.QueueURL)
	if got["VisibilityTimeout"] != "90" || got["MaximumMessageSize"] != "1048576" || got["ReceiveMessageWaitTimeSeconds"] != "20" ||
		got["RedriveAllowPolicy"] != `{"redrivePermission":"denyAll"}` {
		t.Errorf("attributes after the update: %v", got)
	}

	// A topic's statement, as the SNSTopic driver writes it, next to the user's, and one added
	// by hand under the reserved prefix that lets anyone send.
	topicStatement := policy.SNSSendStatement("arn:aws:sns:us-east-1:123456789012:events", q.Status.QueueARN)
	forged := map[string]any{"Sid": policy.SNSSidPrefix + "Anyone", "Effect": "Allow", "Principal": "*", "Action": "sqs:SendMessage", "Resource": q.Status.QueueARN}
	user, err := policy.Parse(q.Spec.Policy)
	if err != nil {
		t.Fatal(err)
	}
	withTopic := user.With(topicStatement).With(forged).String()
	if _, err := h.sqs.SetQueueAttributes(context.Background(), &sqs.SetQueueAttributesInput{QueueUrl: aws.String(q.Status.QueueURL),
		Attributes: map[string]string{"VisibilityTimeout": "5", "DelaySeconds": "10", "Policy": withTopic}}); err != nil {
		t.Fatal(err)
	}
	kubetest.Resync(h.t, h.env.Client, q)
	kubetest.WaitEvent(h.t, h.env.Client, q, "DriftDetected", "DelaySeconds, Policy, VisibilityTimeout")
	waitFor(h, q, "the drift is reverted", func(q *v1alpha1.SQSQueue) bool {
		a := h.attributes(q.Status.QueueURL)
		return a["VisibilityTimeout"] == "90" && a["DelaySeconds"] == "0" && !strings.Contains(a["Policy"], "Anyone")
	})
	if p := h.attributes(q.Status.QueueURL)["Policy"]; !strings.Contains(p, topicStatement["Sid"].(string)) || !strings.Contains(p, `"Owner"`) {
		t.Errorf("the policy lost a statement: %s", p)
	}

	// Removing the policy from the spec keeps only the topic's statement.
	kubetest.Update(h.t, h.env.Client, q, func(q *v1alpha1.SQSQueue) { q.Spec.Policy = "" })
	waitFor(h, q, "the user's statements are removed", func(q *v1alpha1.SQSQueue) bool {
		p := h.attributes(q.Status.QueueURL)["Policy"]
		return !strings.Contains(p, `"Owner"`) && strings.Contains(p, topicStatement["Sid"].(string))
	})
}

// TestSQSQueueDeadLetterReference gives the dead-letter queue by reference: the queue waits
// for it, then uses its ARN; a queue of the other type is refused; deleting the dead-letter
// queue deletes it, as AWS does, and the referring queue says its reference is gone.
func TestSQSQueueDeadLetterReference(t *testing.T) {
	h := start(t)
	ns := h.namespace()
	src := queue(ns, "src", "src")
	src.Spec.DeadLetterQueue = &v1alpha1.SQSDeadLetterQueue{QueueRef: &shared.Reference{Name: "dlq"}, MaxReceiveCount: 5}
	h.create(src)
	kubetest.WaitCondition(h.t, h.env.Client, src, "Ready", "False", condition.ReasonReferenceNotFound)

	dlq := queue(ns, "dlq", "dlq")
	h.create(dlq)
	dlq = waitReady(h, dlq)
	src = waitReady(h, src)
	if src.Status.DeadLetterQueueARN != dlq.Status.QueueARN {
		t.Errorf("deadLetterQueueARN = %q, want %q", src.Status.DeadLetterQueueARN, dlq.Status.QueueARN)
	}
	if rp := h.attributes(src.Status.QueueURL)["RedrivePolicy"]; !strings.Contains(rp, dlq.Status.QueueARN) || !strings.Contains(rp, `"maxReceiveCount":5`) {
		t.Errorf("RedrivePolicy = %s", rp)
	}

	fifoDLQ := queue(ns, "fifo-dlq", "fifo-dlq.fifo")
	h.create(fifoDLQ)
	waitReady(h, fifoDLQ)
	wrong := queue(ns, "wrong", "wrong")
	wrong.Spec.DeadLetterQueue = &v1alpha1.SQSDeadLetterQueue{QueueRef: &shared.Reference{Name: "fifo-dlq"}, MaxReceiveCount: 1}
	h.create(wrong)
	kubetest.WaitCondition(h.t, h.env.Client, wrong, "Synced", "False", condition.ReasonInvalidSpec)

	// Removing the dead-letter queue from the spec removes the redrive policy.
	kubetest.Update(h.t, h.env.Client, src, func(q *v1alpha1.SQSQueue) { q.Spec.DeadLetterQueue = nil })
	waitFor(h, src, "the redrive policy is removed", func(q *v1alpha1.SQSQueue) bool {
		return h.attributes(q.Status.QueueURL)["RedrivePolicy"] == "" && q.Status.DeadLetterQueueARN == ""
	})
	kubetest.Update(h.t, h.env.Client, src, func(q *v1alpha1.SQSQueue) {
		q.Spec.DeadLetterQueue = &v1alpha1.SQSDeadLetterQueue{QueueRef: &shared.Reference{Name: "dlq"}, MaxReceiveCount: 5}
	})
	waitReady(h, src)
	kubetest.Delete(h.t, h.env.Client, dlq)
	if _, err := h.sqs.GetQueueUrl(context.Background(), &sqs.GetQueueUrlInput{QueueName: aws.String("dlq")}); err == nil {
		t.Error("the dead-letter queue still exists in AWS")
	}
	kubetest.Resync(h.t, h.env.Client, src)
	c := meta.FindStatusCondition(kubetest.WaitCondition(h.t, h.env.Client, src, "Ready", "False", condition.ReasonReferenceNotFound).Status.Conditions, "Ready")
	if !strings.Contains(c.Message, "spec.deadLetterQueue.queueRef") {
		t.Errorf("the condition does not name the reference: %s", c.Message)
	}
}

// TestSQSQueueDeletionPolicies deletes queues under each policy.
func TestSQSQueueDeletionPolicies(t *testing.T) {
	h := start(t)
	ns := h.namespace()
	for _, policy := range []shared.DeletionPolicy{shared.DeletionPolicyDelete, shared.DeletionPolicyRetain, shared.DeletionPolicyOrphan} {
		name := "q-" + strings.ToLower(string(policy))
		q := queue(ns, name, name)
		q.Spec.DeletionPolicy = policy
		h.create(q)
		q = waitReady(h, q)
		url := q.Status.QueueURL
		kubetest.Delete(h.t, h.env.Client, q)
		tags, err := h.sqs.ListQueueTags(context.Background(), &sqs.ListQueueTagsInput{QueueUrl: aws.String(url)})
		switch policy {
		case shared.DeletionPolicyDelete:
			if err == nil {
				t.Errorf("%s: the queue still exists", name)
			}
		case shared.DeletionPolicyRetain:
			if err != nil || tags.Tags[shared.TagOwnerUID] == "" {
				t.Errorf("%s: want the queue kept with its ownership tags; got %v, %v", name, tags, err)
			}
		case shared.DeletionPolicyOrphan:
			if err != nil || tags.Tags[shared.TagOwnerUID] != "" {
				t.Errorf("%s: want the queue kept without ownership tags; got %v, %v", name, tags, err)
			}
		}
	}
}

// TestKMSKeyRef checks that a queue and a topic whose kmsKeyRef names a KMSKey (run by the
// security family) wait, with no AWS call, until the KMSKey exists and is Ready, then encrypt
// with its key ARN: the emulator takes messages only when that key can encrypt them. A bad
// policy is terminal with no AWS call.
func TestKMSKeyRef(t *testing.T) {
	h := startWithKeys(t)
	ns := h.namespace()
	h.emu.Calls.Reset()
	ref := &shared.Reference{Name: "messages-key"}
	q := queue(ns, "sealed", "sealed")
	q.Spec.Encryption = &v1alpha1.SQSEncryption{Enabled: true, KMSKeyRef: ref}
	h.create(q)
	tp := topic(ns, "sealed", "sealed")
	tp.Spec.Encryption = &v1alpha1.SNSEncryption{Enabled: true, KMSKeyRef: ref}
	h.create(tp)
	kubetest.WaitCondition(h.t, h.env.Client, q, "Ready", "False", condition.ReasonReferenceNotFound)
	kubetest.WaitCondition(h.t, h.env.Client, tp, "Ready", "False", condition.ReasonReferenceNotFound)
	bad := queue(ns, "bad-policy", "bad-policy")
	bad.Spec.Policy = "{not json"
	h.create(bad)
	kubetest.WaitCondition(h.t, h.env.Client, bad, "Stalled", "True", condition.ReasonInvalidSpec)
	if n := kubetest.Total(h.calls("SQS")) + kubetest.Total(h.calls("SNS")); n != 0 {
		t.Errorf("a missing KMSKey and a bad spec made %d SQS and SNS calls, want none", n)
	}

	key := &secv1alpha1.KMSKey{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "messages-key"}}
	key.Spec.ProviderRef.Name = "aws"
	h.create(key)
	arn := waitReady(h, key).Status.ARN
	q, tp = waitReady(h, q), waitReady(h, tp)
	ctx := context.Background()
	if got := h.attributes(q.Status.QueueURL)["KmsMasterKeyId"]; got != arn {
		t.Errorf("the queue's KmsMasterKeyId is %q, want the KMSKey's ARN %q", got, arn)
	}
	if _, err := h.sqs.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(q.Status.QueueURL), MessageBody: aws.String("sealed")}); err != nil {
		t.Errorf("SendMessage to the queue encrypted with the KMSKey: %v", err)
	}
	attrs, err := h.sns.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: aws.String(tp.Status.TopicARN)})
	if err != nil || attrs.Attributes["KmsMasterKeyId"] != arn {
		t.Errorf("the topic's KmsMasterKeyId is %q (%v), want the KMSKey's ARN %q", attrs.Attributes["KmsMasterKeyId"], err, arn)
	}
	if _, err := h.sns.Publish(ctx, &sns.PublishInput{TopicArn: aws.String(tp.Status.TopicARN), Message: aws.String("sealed")}); err != nil {
		t.Errorf("Publish to the topic encrypted with the KMSKey: %v", err)
	}
}
