package subscriptions

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/runner-codes/infra-operator/operators/messaging/internal/attributes"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/queuepolicy"
	"github.com/runner-codes/infra-operator/shared/awserr"
)

// API is the part of the SNS API that manages a topic's subscriptions.
type API interface {
	Subscribe(ctx context.Context, in *sns.SubscribeInput, opts ...func(*sns.Options)) (*sns.SubscribeOutput, error)
	Unsubscribe(ctx context.Context, in *sns.UnsubscribeInput, opts ...func(*sns.Options)) (*sns.UnsubscribeOutput, error)
	ListSubscriptionsByTopic(ctx context.Context, in *sns.ListSubscriptionsByTopicInput, opts ...func(*sns.Options)) (*sns.ListSubscriptionsByTopicOutput, error)
	GetSubscriptionAttributes(ctx context.Context, in *sns.GetSubscriptionAttributesInput, opts ...func(*sns.Options)) (*sns.GetSubscriptionAttributesOutput, error)
	SetSubscriptionAttributes(ctx context.Context, in *sns.SetSubscriptionAttributesInput, opts ...func(*sns.Options)) (*sns.SetSubscriptionAttributesOutput, error)
}

var _ API = (*sns.Client)(nil)

// List lists the subscriptions of the topic arn, with the attributes of the confirmed ones.
func List(ctx context.Context, api API, arn string) ([]Subscription, error) {
	var out []Subscription
	var next *string
	for {
		page, err := api.ListSubscriptionsByTopic(ctx, &sns.ListSubscriptionsByTopicInput{TopicArn: aws.String(arn), NextToken: next})
		if err != nil {
			return nil, fmt.Errorf("list the subscriptions of topic %s: %w", arn, err)
		}
		for _, s := range page.Subscriptions {
			sub := Subscription{Protocol: aws.ToString(s.Protocol), Endpoint: aws.ToString(s.Endpoint)}
			if isARN(aws.ToString(s.SubscriptionArn)) {
				sub.ARN = aws.ToString(s.SubscriptionArn)
				attrs, err := api.GetSubscriptionAttributes(ctx, &sns.GetSubscriptionAttributesInput{SubscriptionArn: s.SubscriptionArn})
				if awserr.IsNotFound(err) {
					continue // Unsubscribed meanwhile.
				}
				if err != nil {
					return nil, fmt.Errorf("get the attributes of subscription %s: %w", sub.ARN, err)
				}
				sub.Attributes = attrs.Attributes
			}
			out = append(out, sub)
		}
		if next = page.NextToken; next == nil {
			return out, nil
		}
	}
}

// Apply carries out the plan for the topic arn: Subscribe what is missing, Unsubscribe what
// the spec no longer has (and remove the topic's statement from the policy of an SQS queue it
// unsubscribes, through queues), and one SetSubscriptionAttributes per differing attribute.
func (p Plan) Apply(ctx context.Context, api API, queues queuepolicy.API, arn string) error {
	for _, sub := range p.Subscribe {
		if _, err := api.Subscribe(ctx, &sns.SubscribeInput{TopicArn: aws.String(arn), Protocol: aws.String(sub.Protocol),
			Endpoint: aws.String(sub.Endpoint), Attributes: attributes.NonEmpty(desired(&sub)),
			ReturnSubscriptionArn: true}); err != nil {
			return fmt.Errorf("subscribe %s %s to topic %s: %w", sub.Protocol, sub.Endpoint, arn, err)
		}
	}
	for _, sub := range p.Unsubscribe {
		if _, err := api.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: aws.String(sub.ARN)}); err != nil {
			return fmt.Errorf("unsubscribe %s %s from topic %s: %w", sub.Protocol, sub.Endpoint, arn, err)
		}
		if sub.Protocol == "sqs" {
			if err := queuepolicy.Revoke(ctx, queues, arn, sub.Endpoint); err != nil {
				return err
			}
		}
	}
	for _, c := range p.Set {
		if _, err := api.SetSubscriptionAttributes(ctx, &sns.SetSubscriptionAttributesInput{SubscriptionArn: aws.String(c.ARN),
			AttributeName: aws.String(c.Name), AttributeValue: aws.String(c.Value)}); err != nil {
			return fmt.Errorf("set attribute %s of subscription %s: %w", c.Name, c.ARN, err)
		}
	}
	return nil
}
