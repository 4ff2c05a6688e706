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
	"github.com/runner-codes/infra-operator/operators/messaging/internal/queuepolicy"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/subscriptions"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the SNSTopic kind to the engine.
func Kind() managed.Kind[*v1alpha1.SNSTopic, State] {
	return managed.Kind[*v1alpha1.SNSTopic, State]{
		Validate: validate,
		References: []managed.Ref[*v1alpha1.SNSTopic]{
			queueRefs,
			managed.One(targets.KMSKey, "spec.encryption.kmsKeyRef", func(t *v1alpha1.SNSTopic) (*shared.Reference, *string) {
				if e := t.Spec.Encryption; e != nil {
					return e.KMSKeyRef, &e.KMSKeyID
				}
				return nil, nil
			}),
		},
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.SNSTopic, State] {
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

// queueRefs declares the SQSQueues the subscriptions name, as endpoints (queueRef, resolved
// to Endpoint) and as dead-letter queues (redrivePolicy.deadLetterQueueRef, resolved to
// DeadLetterQueueARN), resolved subscription by subscription in that order.
var queueRefs = managed.Ref[*v1alpha1.SNSTopic]{Target: targets.SQSQueue, Sites: func(t *v1alpha1.SNSTopic) []managed.Site {
	var sites []managed.Site
	add := func(field string, ref *shared.Reference, id *string) {
		sites = append(sites, managed.Site{Field: field, Name: ref.Name, Set: func(ids []string) { *id = ids[0] }})
	}
	for i := range t.Spec.Subscriptions {
		sub := &t.Spec.Subscriptions[i]
		if sub.QueueRef != nil {
			add(fmt.Sprintf("spec.subscriptions[%d].queueRef", i), sub.QueueRef, &sub.Endpoint)
		}
		if rp := sub.RedrivePolicy; rp != nil && rp.DeadLetterQueueRef != nil {
			add(fmt.Sprintf("spec.subscriptions[%d].redrivePolicy.deadLetterQueueRef", i), rp.DeadLetterQueueRef, &rp.DeadLetterQueueARN)
		}
	}
	return sites
}}

// driver manages one provider's SNS topics, and the statements in SQS queue policies that let
// them send.
type driver struct {
	sns topicAPI
	sqs queuepolicy.API
}
