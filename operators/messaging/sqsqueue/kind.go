// Package sqsqueue manages SQS queues for the SQSQueue kind.
package sqsqueue

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/queuepolicy"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// ReasonKMSKeyKindUnavailable is the terminal reason for a kmsKeyRef while no KMSKey kind
// exists.
const ReasonKMSKeyKindUnavailable = "KMSKeyKindUnavailable"

// Target resolves references to SQSQueues (a dead-letter queue, a subscription endpoint) to
// their ARNs.
var Target = managed.ReferenceTarget[*v1alpha1.SQSQueue]{
	Kind:    "SQSQueue",
	New:     func() *v1alpha1.SQSQueue { return &v1alpha1.SQSQueue{} },
	NewList: func() client.ObjectList { return &v1alpha1.SQSQueueList{} },
	Value:   func(q *v1alpha1.SQSQueue) string { return q.Status.QueueARN },
}

// Kind returns the SQSQueue kind for the generic reconciler.
func Kind() managed.Kind[*v1alpha1.SQSQueue, State] {
	return managed.Kind[*v1alpha1.SQSQueue, State]{
		Name:              "SQSQueue",
		New:               func() *v1alpha1.SQSQueue { return &v1alpha1.SQSQueue{} },
		NewList:           func() client.ObjectList { return &v1alpha1.SQSQueueList{} },
		Validate:          validate,
		ResolveReferences: resolveReferences,
		References: func(q *v1alpha1.SQSQueue) []managed.Ref {
			if dlq := q.Spec.DeadLetterQueue; dlq != nil && dlq.QueueRef != nil {
				return []managed.Ref{{Kind: "SQSQueue", Name: dlq.QueueRef.Name}}
			}
			return nil
		},
		Referenced: []client.Object{&v1alpha1.SQSQueue{}},
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.SQSQueue, State] {
			return &driver{api: provider.Client(s, "sqs", func(c aws.Config) *sqs.Client { return sqs.NewFromConfig(c) }),
				defaultTags: s.DefaultTags()}
		},
	}
}

// validate checks what admission cannot: the policy is a JSON policy document without
// statements of the operator's reserved Sid.
func validate(q *v1alpha1.SQSQueue) error {
	doc, err := queuepolicy.Parse(q.Spec.Policy)
	if err != nil {
		return fmt.Errorf("spec.policy: %w", err)
	}
	if len(doc.TopicStatements()) > 0 {
		return fmt.Errorf("spec.policy: statement ids starting with %s are reserved for the statements SNSTopics add", queuepolicy.SidPrefix)
	}
	return nil
}

// resolveReferences fills the dead-letter queue's ARN from its queueRef, in memory, and
// refuses a dead-letter queue of the other type, and a KMS key reference while no KMSKey kind
// exists.
func resolveReferences(ctx context.Context, c client.Reader, q *v1alpha1.SQSQueue) error {
	if e := q.Spec.Encryption; e != nil && e.KMSKeyRef != nil {
		return KMSKeyRefUnavailable("spec.encryption.kmsKeyRef", e.KMSKeyRef.Name)
	}
	dlq := q.Spec.DeadLetterQueue
	if dlq == nil || dlq.QueueRef == nil {
		return nil
	}
	arn, err := Target.Resolve(ctx, c, q, "spec.deadLetterQueue.queueRef", *dlq.QueueRef)
	if err != nil {
		return err
	}
	if strings.HasSuffix(arn, ".fifo") != q.Spec.FifoQueue {
		return managed.Terminal(managed.ReasonInvalidSpec, "spec.deadLetterQueue.queueRef: SQSQueue %s is a %s queue; "+
			"a FIFO queue needs a FIFO dead-letter queue, and a standard queue a standard one", dlq.QueueRef.Name, queueType(arn))
	}
	dlq.QueueARN = arn
	return nil
}

// KMSKeyRefUnavailable is the terminal error for a reference (the field named field) to the
// KMSKey name while the KMSKey kind does not exist.
func KMSKeyRefUnavailable(field, name string) error {
	return managed.Terminal(ReasonKMSKeyKindUnavailable, "%s names KMSKey %s, but the KMSKey kind (security family) is not "+
		"available yet; give the key as kmsKeyID instead", field, name)
}

// queueType names the type of the queue with the given ARN or name.
func queueType(arnOrName string) string {
	if strings.HasSuffix(arnOrName, ".fifo") {
		return "FIFO"
	}
	return "standard"
}

// driver manages one provider's SQS queues.
type driver struct {
	api         queueAPI
	defaultTags map[string]string
}
