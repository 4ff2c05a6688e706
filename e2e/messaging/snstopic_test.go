package messaging_test

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	snstypes "github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/operator"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// TestSNSTopicSeedExamples applies the SNS seed examples verbatim, after the queues they
// subscribe (created as SQSQueues): the email subscription stays pending until confirmed, and
// the status counts say so.
func TestSNSTopicSeedExamples(t *testing.T) {
	h := start(t)
	h.provider("default", "production-aws")
	for _, name := range []string{"notification-queue", "order-processor.fifo"} {
		q := queue("default", strings.TrimSuffix(name, ".fifo"), name)
		q.Spec.ProviderRef.Name = "production-aws"
		h.create(q)
		waitReady(h, q)
	}
	h.seed("snstopic-standard.yaml", "default")
	h.seed("snstopic-fifo.yaml", "default")
	std := waitFor(h, &v1alpha1.SNSTopic{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "notifications"}},
		"Ready with one subscription confirmed and one pending", func(t *v1alpha1.SNSTopic) bool {
			return t.Status.Ready && t.Status.SubscriptionsConfirmed == 1 && t.Status.SubscriptionsPending == 1
		})
	fifo := waitFor(h, &v1alpha1.SNSTopic{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "order-events"}},
		"Ready with its queue subscribed", func(t *v1alpha1.SNSTopic) bool { return t.Status.Ready && t.Status.SubscriptionsConfirmed == 1 })
	if std.Status.TopicARN != "arn:aws:sns:us-east-1:123456789012:production-notifications" || fifo.Status.TopicName != "production-order-events.fifo" {
		t.Errorf("status: %+v, %+v", std.Status, fifo.Status)
	}
	attrs, err := h.sns.GetTopicAttributes(context.Background(), &sns.GetTopicAttributesInput{TopicArn: aws.String(std.Status.TopicARN)})
	if err != nil || attrs.Attributes["DisplayName"] != "Production Notifications" || attrs.Attributes["KmsMasterKeyId"] != "alias/aws/sns" {
		t.Errorf("topic attributes = %v, %v", attrs, err)
	}

	token := h.confirmationTokens()["alerts@company.com"]
	if _, err := h.sns.ConfirmSubscription(context.Background(), &sns.ConfirmSubscriptionInput{TopicArn: aws.String(std.Status.TopicARN), Token: aws.String(token)}); err != nil {
		t.Fatal(err)
	}
	kubetest.Resync(h.t, h.env.Client, std)
	waitFor(h, std, "both subscriptions confirmed", func(t *v1alpha1.SNSTopic) bool {
		return t.Status.SubscriptionsConfirmed == 2 && t.Status.SubscriptionsPending == 0
	})
	// The FIFO topic delivers to its FIFO queue without a hand-written policy.
	if _, err := h.sns.Publish(context.Background(), &sns.PublishInput{TopicArn: aws.String(fifo.Status.TopicARN), Message: aws.String("order-1"),
		MessageGroupId: aws.String("orders")}); err != nil {
		t.Fatal(err)
	}
	if got := h.receive("order-processor.fifo"); len(got) != 1 || !strings.Contains(got[0], "order-1") {
		t.Errorf("the FIFO queue received %q", got)
	}
}

// receive returns the bodies of the messages waiting in the queue named name.
func (h *harness) receive(name string) []string {
	h.t.Helper()
	url, err := h.sqs.GetQueueUrl(context.Background(), &sqs.GetQueueUrlInput{QueueName: aws.String(name)})
	if err != nil {
		h.t.Fatal(err)
	}
	out, err := h.sqs.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{QueueUrl: url.QueueUrl, MaxNumberOfMessages: 10})
	if err != nil {
		h.t.Fatal(err)
	}
	var bodies []string
	for _, m := range out.Messages {
		bodies = append(bodies, aws.ToString(m.Body))
	}
	return bodies
}

// TestSNSTopicDeliversToQueue subscribes an SQSQueue by reference, publishes through the SDK
// and receives from the queue: the topic's statement in the queue policy, merged with the
// user's, lets it send. Drift of the statement and of the subscriptions is restored, a
// dropped subscription is unsubscribed and its statement removed.
func TestSNSTopicDeliversToQueue(t *testing.T) {
	h := start(t)
	ns := h.namespace()
	q := queue(ns, "inbox", "inbox")
	q.Spec.Policy = `{"Version":"2012-10-17","Statement":{"Sid":"Owner","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::123456789012:root"},"Action":"sqs:*","Resource":"*"}}`
	h.create(q)
	tp := topic(ns, "events", "events")
	tp.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "sqs", QueueRef: &shared.Reference{Name: "inbox"}, RawMessageDelivery: aws.Bool(true),
		FilterPolicy: `{"kind":["order"]}`}}
	h.create(tp)
	q = waitReady(h, q)
	tp = waitFor(h, tp, "Ready with the queue subscribed", func(t *v1alpha1.SNSTopic) bool { return t.Status.Ready && t.Status.SubscriptionsConfirmed == 1 })

	publish := func(kind, body string) {
		t.Helper()
		if _, err := h.sns.Publish(context.Background(), &sns.PublishInput{TopicArn: aws.String(tp.Status.TopicARN), Message: aws.String(body),
			MessageAttributes: map[string]snstypes.MessageAttributeValue{"kind": {DataType: aws.String("String"), StringValue: aws.String(kind)}}}); err != nil {
			t.Fatal(err)
		}
	}
	publish("order", "order-1")
	publish("audit", "audit-1")
	if got := h.receive("inbox"); len(got) != 1 || got[0] != "order-1" {
		t.Errorf("received %q, want only the raw order-1 (filtered, raw delivery)", got)
	}
	policy := h.attributes(q.Status.QueueURL)["Policy"]
	if !strings.Contains(policy, `"Owner"`) || !strings.Contains(policy, "InfraOperatorSNS") {
		t.Errorf("the queue policy should hold the user's and the topic's statements: %s", policy)
	}

	// Drift: the statement removed, the subscription's raw delivery turned off.
	if _, err := h.sqs.SetQueueAttributes(context.Background(), &sqs.SetQueueAttributesInput{QueueUrl: aws.String(q.Status.QueueURL),
		Attributes: map[string]string{"Policy": q.Spec.Policy}}); err != nil {
		t.Fatal(err)
	}
	subs, err := h.sns.ListSubscriptionsByTopic(context.Background(), &sns.ListSubscriptionsByTopicInput{TopicArn: aws.String(tp.Status.TopicARN)})
	if err != nil || len(subs.Subscriptions) != 1 {
		t.Fatalf("subscriptions = %v, %v", subs, err)
	}
	if _, err := h.sns.SetSubscriptionAttributes(context.Background(), &sns.SetSubscriptionAttributesInput{SubscriptionArn: subs.Subscriptions[0].SubscriptionArn,
		AttributeName: aws.String("RawMessageDelivery"), AttributeValue: aws.String("false")}); err != nil {
		t.Fatal(err)
	}
	kubetest.Resync(h.t, h.env.Client, tp)
	kubetest.WaitEvent(h.t, h.env.Client, tp, "DriftDetected", "subscriptions, queuePolicies")
	waitFor(h, tp, "the drift is reverted", func(*v1alpha1.SNSTopic) bool {
		return strings.Contains(h.attributes(q.Status.QueueURL)["Policy"], "InfraOperatorSNS")
	})
	publish("order", "order-2")
	if got := h.receive("inbox"); len(got) != 1 || got[0] != "order-2" {
		t.Errorf("after the drift was reverted, received %q, want the raw order-2", got)
	}

	// An unsubscribe outside the operator is undone.
	if _, err := h.sns.Unsubscribe(context.Background(), &sns.UnsubscribeInput{SubscriptionArn: subs.Subscriptions[0].SubscriptionArn}); err != nil {
		t.Fatal(err)
	}
	kubetest.Resync(h.t, h.env.Client, tp)
	waitFor(h, tp, "the queue is subscribed again", func(t *v1alpha1.SNSTopic) bool { return t.Status.SubscriptionsConfirmed == 1 && t.Status.Ready })

	// An email subscription added to the spec stays pending; the queue dropped from the spec is
	// unsubscribed and its statement removed, the user's statement kept.
	kubetest.Update(h.t, h.env.Client, tp, func(t *v1alpha1.SNSTopic) {
		t.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "email", Endpoint: "ops@example.com"}}
	})
	waitFor(h, tp, "the queue unsubscribed and the email pending", func(t *v1alpha1.SNSTopic) bool {
		return t.Status.Ready && t.Status.ObservedGeneration == t.Generation && t.Status.SubscriptionsConfirmed == 0 && t.Status.SubscriptionsPending == 1
	})
	if p := h.attributes(q.Status.QueueURL)["Policy"]; strings.Contains(p, "InfraOperatorSNS") || !strings.Contains(p, `"Owner"`) {
		t.Errorf("after the unsubscribe the policy is %s", p)
	}
}

// foreignWrites is the operator's options of tests that subscribe queues made outside the
// operator: short waits, and every namespace allowed to write into queues it does not own.
func foreignWrites(o *operator.Options) {
	shortWaits(o)
	o.ForeignWriteNamespaces = []string{"*"}
}

// TestSNSTopicDeletion deletes topics under each policy: Delete deletes the topic, its
// subscriptions and its statements in queue policies; Retain and Orphan keep them. The queue
// is made outside the operator, so the administrator allows writing into it.
func TestSNSTopicDeletion(t *testing.T) {
	h := startWith(t, foreignWrites)
	ns := h.namespace()
	url := h.sqsQueueURL("sink", nil)
	arn := h.attributes(url)["QueueArn"]
	for _, policy := range []shared.DeletionPolicy{shared.DeletionPolicyRetain, shared.DeletionPolicyOrphan, shared.DeletionPolicyDelete} {
		name := "t-" + strings.ToLower(string(policy))
		tp := topic(ns, name, name)
		tp.Spec.DeletionPolicy = policy
		tp.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "sqs", Endpoint: arn}}
		h.create(tp)
		tp = waitFor(h, tp, "Ready and subscribed", func(t *v1alpha1.SNSTopic) bool { return t.Status.Ready && t.Status.SubscriptionsConfirmed == 1 })
		topicARN := tp.Status.TopicARN
		kubetest.Delete(h.t, h.env.Client, tp)
		tags, err := h.sns.ListTagsForResource(context.Background(), &sns.ListTagsForResourceInput{ResourceArn: aws.String(topicARN)})
		policyDoc := h.attributes(url)["Policy"]
		granted := strings.Contains(policyDoc, topicARN)
		switch policy {
		case shared.DeletionPolicyDelete:
			subs, _ := h.sns.ListSubscriptionsByTopic(context.Background(), &sns.ListSubscriptionsByTopicInput{TopicArn: aws.String(topicARN)})
			if err == nil || granted || (subs != nil && len(subs.Subscriptions) > 0) {
				t.Errorf("%s: want the topic, its subscription and its statement gone; tags err %v, policy %s", name, err, policyDoc)
			}
		case shared.DeletionPolicyRetain, shared.DeletionPolicyOrphan:
			owned := err == nil && hasTag(tags.Tags, shared.TagOwnerUID)
			if err != nil || !granted || owned != (policy == shared.DeletionPolicyRetain) {
				t.Errorf("%s: want the topic and its statement kept (ownership tags only with Retain); err %v, owned %v, policy %s", name, err, owned, policyDoc)
			}
		}
	}
}

// TestSNSTopicWaitsForQueue checks that a topic subscribing a queue of its account that does
// not exist says so, and recovers when the queue appears (made outside the operator, which the
// administrator allows the topic to write into).
func TestSNSTopicWaitsForQueue(t *testing.T) {
	h := startWith(t, foreignWrites)
	ns := h.namespace()
	tp := topic(ns, "lonely", "lonely")
	tp.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "sqs", Endpoint: "arn:aws:sqs:us-east-1:123456789012:later"}}
	h.create(tp)
	kubetest.WaitCondition(h.t, h.env.Client, tp, "Ready", "False", condition.ReasonEndpointQueueNotFound)
	h.sqsQueueURL("later", nil)
	kubetest.Resync(h.t, h.env.Client, tp)
	waitReady(h, tp)
}

// hasTag reports whether an SNS tag list holds key.
func hasTag(tags []snstypes.Tag, key string) bool {
	for _, t := range tags {
		if aws.ToString(t.Key) == key {
			return true
		}
	}
	return false
}

// TestSNSTopicForeignQueue checks that a topic subscribing, by ARN, a queue its namespace does
// not own (one made outside the operator, or another namespace's SQSQueue) is refused with
// ForeignWriteNotAllowed and writes nothing into the queue's policy, while a queue of its own
// namespace's SQSQueue is subscribed.
func TestSNSTopicForeignQueue(t *testing.T) {
	h := start(t)
	ns, other := h.namespace(), h.namespace()
	outside := h.attributes(h.sqsQueueURL("outside", nil))["QueueArn"]
	theirs := waitReady(h, func() *v1alpha1.SQSQueue { q := queue(other, "theirs", "theirs"); h.create(q); return q }())
	ours := waitReady(h, func() *v1alpha1.SQSQueue { q := queue(ns, "ours", "ours"); h.create(q); return q }())
	h.emu.Calls.Reset()
	for name, arn := range map[string]string{"to-outside": outside, "to-theirs": theirs.Status.QueueARN} {
		tp := topic(ns, name, name)
		tp.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "sqs", Endpoint: arn}}
		h.create(tp)
		tp = kubetest.WaitCondition(h.t, h.env.Client, tp, "Synced", "False", condition.ReasonForeignWriteNotAllowed)
		if msg := strings.Join(kubetest.ConditionTexts(tp.Status.Conditions), "; "); !strings.Contains(msg, "--foreign-write-namespaces") {
			t.Errorf("%s: conditions %s do not name the flag", name, msg)
		}
	}
	if n := h.calls("SQS")["SetQueueAttributes"]; n != 0 {
		t.Errorf("%d SetQueueAttributes calls for queues the namespace does not own; want none", n)
	}
	if n := h.calls("SNS")["Subscribe"]; n != 0 {
		t.Errorf("%d Subscribe calls for queues the namespace does not own; want none", n)
	}
	own := topic(ns, "to-ours", "to-ours")
	own.Spec.Subscriptions = []v1alpha1.SNSSubscription{{Protocol: "sqs", Endpoint: ours.Status.QueueARN}}
	h.create(own)
	waitFor(h, own, "Ready and subscribed", func(t *v1alpha1.SNSTopic) bool { return t.Status.Ready && t.Status.SubscriptionsConfirmed == 1 })
}
