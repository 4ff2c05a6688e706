package queuepolicy

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// API is the part of the SQS API that finds a queue and reads and writes its attributes, the
// policy among them.
type API interface {
	GetQueueUrl(ctx context.Context, in *sqs.GetQueueUrlInput, opts ...func(*sqs.Options)) (*sqs.GetQueueUrlOutput, error)
	GetQueueAttributes(ctx context.Context, in *sqs.GetQueueAttributesInput, opts ...func(*sqs.Options)) (*sqs.GetQueueAttributesOutput, error)
	SetQueueAttributes(ctx context.Context, in *sqs.SetQueueAttributesInput, opts ...func(*sqs.Options)) (*sqs.SetQueueAttributesOutput, error)
}

var _ API = (*sqs.Client)(nil)

// Grant is what an SNSTopic knows of one queue it subscribes: whether its policy lets the
// topic send. The statement belongs to the subscription: the topic adds it when it subscribes
// the queue, restores it when it goes missing, and removes it when it unsubscribes the queue;
// the SQSQueue that owns the rest of the policy keeps it.
type Grant struct {
	// QueueARN is the queue's ARN.
	QueueARN string
	// Readable is false for a queue in another account or region, or one the credentials may
	// not read: its owner must let the topic send.
	Readable bool
	// URL is the queue's URL; empty when the queue does not exist.
	URL string
	// Policy is the queue's policy.
	Policy policy.Document
}

// Granted reports whether the queue's policy lets the topic with topicARN send, or whether
// that is not the operator's to decide.
func (g Grant) Granted(topicARN string) bool {
	return !g.Readable || g.URL != "" && g.Policy.Has(TopicStatement(topicARN, g.QueueARN))
}

// ReadGrant reads the policy of the queue with queueARN when it is in the account and region
// of the topic with topicARN.
func ReadGrant(ctx context.Context, api API, topicARN, queueARN string) (Grant, error) {
	g := Grant{QueueARN: queueARN}
	parts, topic := strings.Split(queueARN, ":"), strings.Split(topicARN, ":")
	if len(parts) != 6 || len(topic) != 6 || parts[3] != topic[3] || parts[4] != topic[4] {
		return g, nil
	}
	out, err := api.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String(parts[5]), QueueOwnerAWSAccountId: aws.String(parts[4])})
	switch awserr.Classify(err) {
	case awserr.ClassNone:
	case awserr.ClassNotFound:
		g.Readable = true
		return g, nil
	case awserr.ClassAccessDenied:
		return g, nil
	default:
		return g, fmt.Errorf("get the URL of subscribed queue %s: %w", queueARN, err)
	}
	g.Readable, g.URL = true, aws.ToString(out.QueueUrl)
	attrs, err := api.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: out.QueueUrl,
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNamePolicy}})
	if awserr.IsNotFound(err) {
		g.URL = ""
		return g, nil
	}
	if err != nil {
		return g, fmt.Errorf("get the policy of subscribed queue %s: %w", queueARN, err)
	}
	// A policy that is not JSON lets nobody send; the statement replaces it.
	g.Policy, _ = policy.Parse(attrs.Attributes["Policy"])
	return g, nil
}

// Allow adds to the queue's policy the statement that lets the topic with topicARN send.
func Allow(ctx context.Context, api API, topicARN string, g Grant) error {
	return setPolicy(ctx, api, g, g.Policy.With(TopicStatement(topicARN, g.QueueARN)))
}

// Revoke removes the statement of the topic with topicARN from the policy of the queue with
// queueARN, when the queue exists in the topic's account and region and has it.
func Revoke(ctx context.Context, api API, topicARN, queueARN string) error {
	g, err := ReadGrant(ctx, api, topicARN, queueARN)
	if err != nil || g.URL == "" {
		return err
	}
	without := g.Policy.Without(Sid(topicARN))
	if len(without.Statements) == len(g.Policy.Statements) {
		return nil
	}
	return setPolicy(ctx, api, g, without)
}

// setPolicy writes the queue's policy; an empty document removes it.
func setPolicy(ctx context.Context, api API, g Grant, doc policy.Document) error {
	_, err := api.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: aws.String(g.URL),
		Attributes: map[string]string{"Policy": doc.String()}})
	if err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("set the policy of subscribed queue %s: %w", g.QueueARN, err)
	}
	return nil
}
