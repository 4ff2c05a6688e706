// Package snstopic manages SNS topics and their subscriptions for the SNSTopic kind.
package snstopic

import (
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/subscriptions"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the SNSTopic kind to the engine.
func Kind() managed.Kind[*v1alpha1.SNSTopic, State] {
	return managed.Kind[*v1alpha1.SNSTopic, State]{
		Validate: validate,
		References: []managed.Ref[*v1alpha1.SNSTopic]{
			queueRefs,
			deadLetterRefs,
			managed.One(targets.KMSKey, "spec.encryption.kmsKeyRef", func(t *v1alpha1.SNSTopic) (*shared.Reference, *string) {
				if e := t.Spec.Encryption; e != nil {
					return e.KMSKeyRef, &e.KMSKeyID
				}
				return nil, nil
			}),
		},
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.SNSTopic) managed.Driver[*v1alpha1.SNSTopic, State] {
			return &driver{
				sns: provider.Client(s, "sns", func(c aws.Config) *sns.Client { return sns.NewFromConfig(c) }),
				sqs: provider.Client(s, "sqs", func(c aws.Config) *sqs.Client { return sqs.NewFromConfig(c) }),
			}
		},
	}
}

// validate checks what admission cannot: JSON documents are JSON, and no subscription is
// given twice.
func validate(t *v1alpha1.SNSTopic) error {
	s := &t.Spec
	for field, doc := range map[string]string{"spec.policy": s.Policy, "spec.deliveryPolicy": s.DeliveryPolicy} {
		if err := jsonObject(doc); err != nil {
			return fmt.Errorf("%s: %w", field, err)
		}
	}
	if doc, err := policy.Parse(s.Policy); err == nil && len(doc.Reserved(policy.S3SidPrefix)) > 0 {
		return fmt.Errorf("spec.policy: statement ids starting with %s are reserved for the statements S3Buckets add", policy.S3SidPrefix)
	}
	seen := map[string]int{}
	for i, sub := range s.Subscriptions {
		for field, doc := range map[string]string{"filterPolicy": sub.FilterPolicy, "deliveryPolicy": sub.DeliveryPolicy} {
			if err := jsonObject(doc); err != nil {
				return fmt.Errorf("spec.subscriptions[%d].%s: %w", i, field, err)
			}
		}
		if sub.Endpoint == "" {
			continue
		}
		key := subscriptions.Key(sub.Protocol, sub.Endpoint)
		if j, ok := seen[key]; ok {
			return fmt.Errorf("spec.subscriptions[%d] and [%d] both subscribe %s %s; a topic has one subscription per protocol and endpoint", j, i, sub.Protocol, sub.Endpoint)
		}
		seen[key] = i
	}
	return nil
}

// jsonObject checks that doc is empty or a JSON object.
func jsonObject(doc string) error {
	if doc == "" {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	return nil
}

// queueRefs declares the SQSQueues the subscriptions name as endpoints (queueRef, resolved to
// Endpoint). The topic writes into their policies (the statement that lets it send), so an
// observe-only SQSQueue is never resolved as one.
var queueRefs = managed.Each(targets.SQSQueue, "spec.subscriptions[%d].queueRef", func(t *v1alpha1.SNSTopic) []managed.Slot {
	return subscriptionSlots(t, func(sub *v1alpha1.SNSSubscription) managed.Slot {
		return managed.Slot{Ref: sub.QueueRef, ID: &sub.Endpoint}
	})
}).Writing()

// deadLetterRefs declares the SQSQueues the subscriptions name as dead-letter queues
// (redrivePolicy.deadLetterQueueRef, resolved to DeadLetterQueueARN); the topic only names
// them.
var deadLetterRefs = managed.Each(targets.SQSQueue, "spec.subscriptions[%d].redrivePolicy.deadLetterQueueRef", func(t *v1alpha1.SNSTopic) []managed.Slot {
	return subscriptionSlots(t, func(sub *v1alpha1.SNSSubscription) managed.Slot {
		if sub.RedrivePolicy == nil {
			return managed.Slot{}
		}
		return managed.Slot{Ref: sub.RedrivePolicy.DeadLetterQueueRef, ID: &sub.RedrivePolicy.DeadLetterQueueARN}
	})
})

// subscriptionSlots returns the slot slot picks in every subscription of t.
func subscriptionSlots(t *v1alpha1.SNSTopic, slot func(*v1alpha1.SNSSubscription) managed.Slot) []managed.Slot {
	slots := make([]managed.Slot, len(t.Spec.Subscriptions))
	for i := range t.Spec.Subscriptions {
		slots[i] = slot(&t.Spec.Subscriptions[i])
	}
	return slots
}

// driver manages one provider's SNS topics, and the statements in SQS queue policies that let
// them send.
type driver struct {
	sns topicAPI
	sqs queueAPI
}
