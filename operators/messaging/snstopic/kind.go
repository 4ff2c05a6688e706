// Package snstopic manages SNS topics and their subscriptions for the SNSTopic kind.
package snstopic

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/sqsqueue"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind returns the SNSTopic kind for the generic reconciler.
func Kind() managed.Kind[*v1alpha1.SNSTopic, State] {
	return managed.Kind[*v1alpha1.SNSTopic, State]{
		Name:              "SNSTopic",
		New:               func() *v1alpha1.SNSTopic { return &v1alpha1.SNSTopic{} },
		NewList:           func() client.ObjectList { return &v1alpha1.SNSTopicList{} },
		Validate:          validate,
		ResolveReferences: resolveReferences,
		References:        references,
		Referenced:        []client.Object{&v1alpha1.SQSQueue{}},
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.SNSTopic, State] {
			return &driver{
				sns:         provider.Client(s, "sns", func(c aws.Config) *sns.Client { return sns.NewFromConfig(c) }),
				sqs:         provider.Client(s, "sqs", func(c aws.Config) *sqs.Client { return sqs.NewFromConfig(c) }),
				defaultTags: s.DefaultTags(),
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
		key := sub.Protocol + " " + sub.Endpoint
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

// references returns the SQSQueues the spec names.
func references(t *v1alpha1.SNSTopic) []managed.Ref {
	var refs []managed.Ref
	for _, sub := range t.Spec.Subscriptions {
		if sub.QueueRef != nil {
			refs = append(refs, managed.Ref{Kind: "SQSQueue", Name: sub.QueueRef.Name})
		}
		if rp := sub.RedrivePolicy; rp != nil && rp.DeadLetterQueueRef != nil {
			refs = append(refs, managed.Ref{Kind: "SQSQueue", Name: rp.DeadLetterQueueRef.Name})
		}
	}
	return refs
}

// resolveReferences fills, in memory, the endpoints and dead-letter queue ARNs the spec gives
// by reference, and refuses a KMS key reference while no KMSKey kind exists.
func resolveReferences(ctx context.Context, c client.Reader, t *v1alpha1.SNSTopic) error {
	if e := t.Spec.Encryption; e != nil && e.KMSKeyRef != nil {
		return sqsqueue.KMSKeyRefUnavailable("spec.encryption.kmsKeyRef", e.KMSKeyRef.Name)
	}
	for i := range t.Spec.Subscriptions {
		sub := &t.Spec.Subscriptions[i]
		if sub.QueueRef != nil {
			arn, err := sqsqueue.Target.Resolve(ctx, c, t, fmt.Sprintf("spec.subscriptions[%d].queueRef", i), *sub.QueueRef)
			if err != nil {
				return err
			}
			sub.Endpoint = arn
		}
		if rp := sub.RedrivePolicy; rp != nil && rp.DeadLetterQueueRef != nil {
			arn, err := sqsqueue.Target.Resolve(ctx, c, t, fmt.Sprintf("spec.subscriptions[%d].redrivePolicy.deadLetterQueueRef", i), *rp.DeadLetterQueueRef)
			if err != nil {
				return err
			}
			rp.DeadLetterQueueARN = arn
		}
	}
	return nil
}

// driver manages one provider's SNS topics, and the statements in SQS queue policies that let
// them send.
type driver struct {
	sns         topicAPI
	sqs         queuePolicyAPI
	defaultTags map[string]string
}
