// Package sqsqueue manages SQS queues for the SQSQueue kind.
package sqsqueue

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/queuepolicy"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the SQSQueue kind to the engine.
func Kind() managed.Kind[*v1alpha1.SQSQueue, State] {
	return managed.Kind[*v1alpha1.SQSQueue, State]{
		Validate: validate,
		References: []managed.Ref[*v1alpha1.SQSQueue]{
			managed.One(targets.SQSQueue, "spec.deadLetterQueue.queueRef", func(q *v1alpha1.SQSQueue) (*shared.Reference, *string) {
				if dlq := q.Spec.DeadLetterQueue; dlq != nil {
					return dlq.QueueRef, &dlq.QueueARN
				}
				return nil, nil
			}),
			managed.One(targets.KMSKey, "spec.encryption.kmsKeyRef", func(q *v1alpha1.SQSQueue) (*shared.Reference, *string) {
				if e := q.Spec.Encryption; e != nil {
					return e.KMSKeyRef, &e.KMSKeyID
				}
				return nil, nil
			}),
		},
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.SQSQueue) managed.Driver[*v1alpha1.SQSQueue, State] {
			return &driver{api: provider.Client(s, "sqs", func(c aws.Config) *sqs.Client { return sqs.NewFromConfig(c) })}
		},
	}
}

// validate checks what admission cannot: the policy is a JSON policy document without
// statements of the operator's reserved Sid.
func validate(q *v1alpha1.SQSQueue) error {
	doc, err := policy.Parse(q.Spec.Policy)
	if err != nil {
		return fmt.Errorf("spec.policy: %w", err)
	}
	if len(doc.Reserved(queuepolicy.SidPrefix)) > 0 || len(doc.Reserved(policy.S3SidPrefix)) > 0 {
		return fmt.Errorf("spec.policy: statement ids starting with %s or %s are reserved for the statements SNSTopics and S3Buckets add",
			queuepolicy.SidPrefix, policy.S3SidPrefix)
	}
	return nil
}

// checkDeadLetterType refuses a dead-letter queue given by queueRef whose type (known once the
// reference is resolved) is not the queue's. Observe checks it first, before any AWS call.
func checkDeadLetterType(q *v1alpha1.SQSQueue) error {
	dlq := q.Spec.DeadLetterQueue
	if dlq != nil && dlq.QueueRef != nil && strings.HasSuffix(dlq.QueueARN, ".fifo") != q.Spec.FifoQueue {
		return managed.Terminal(condition.ReasonInvalidSpec, "spec.deadLetterQueue.queueRef: SQSQueue %s is a %s queue; "+
			"a FIFO queue needs a FIFO dead-letter queue, and a standard queue a standard one", dlq.QueueRef.Name, queueType(dlq.QueueARN))
	}
	return nil
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
	api queueAPI
}
