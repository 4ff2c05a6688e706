package snstopic

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// ReasonEndpointQueueNotFound is the waiting reason of a topic that subscribes a queue of its
// own account and region that does not exist.
const ReasonEndpointQueueNotFound = "EndpointQueueNotFound"

// queueRetry is how soon a topic waiting for a subscribed queue looks again.
const queueRetry = 30 * time.Second

// Update applies what differs: one SetTopicAttributes per attribute (SNS sets one at a
// time), tags, the statements that let the topic send to its queues, then the subscriptions
// as a set: Subscribe what is missing, Unsubscribe what the spec no longer has, and one
// SetSubscriptionAttributes per differing attribute.
func (d *driver) Update(ctx context.Context, t *v1alpha1.SNSTopic, obs managed.Observation[State]) error {
	st := obs.State
	changes := attributeChanges(desiredTopicAttributes(&t.Spec), st.Attributes)
	for _, name := range slices.Sorted(maps.Keys(changes)) {
		if _, err := d.sns.SetTopicAttributes(ctx, &sns.SetTopicAttributesInput{TopicArn: aws.String(st.ARN),
			AttributeName: aws.String(name), AttributeValue: aws.String(changes[name])}); err != nil {
			return fmt.Errorf("set attribute %s of topic %s: %w", name, st.ARN, err)
		}
	}
	if err := d.updateTags(ctx, st.ARN, managed.DesiredTags(t, d.defaultTags), st.Tags); err != nil {
		return err
	}
	var missing []string
	for _, queueARN := range slices.Sorted(maps.Keys(st.Grants)) {
		g := st.Grants[queueARN]
		switch {
		case g.Granted(st.ARN):
		case g.URL == "":
			missing = append(missing, queueARN)
		default:
			if err := d.grant(ctx, st.ARN, g); err != nil {
				return err
			}
		}
	}
	if err := d.updateSubscriptions(ctx, st.ARN, planSubscriptions(t.Spec.Subscriptions, st.Subscriptions)); err != nil {
		return err
	}
	if len(missing) > 0 {
		return &managed.WaitingError{Reason: ReasonEndpointQueueNotFound, After: queueRetry,
			Message: fmt.Sprintf("the subscribed SQS queues %v do not exist; the topic cannot deliver to them", missing)}
	}
	return nil
}

// updateSubscriptions carries out a subscription plan.
func (d *driver) updateSubscriptions(ctx context.Context, arn string, p subscriptionPlan) error {
	for _, sub := range p.subscribe {
		if _, err := d.sns.Subscribe(ctx, &sns.SubscribeInput{TopicArn: aws.String(arn), Protocol: aws.String(sub.Protocol),
			Endpoint: aws.String(sub.Endpoint), Attributes: nonEmpty(desiredSubscriptionAttributes(&sub)),
			ReturnSubscriptionArn: true}); err != nil {
			return fmt.Errorf("subscribe %s %s to topic %s: %w", sub.Protocol, sub.Endpoint, arn, err)
		}
	}
	for _, sub := range p.unsubscribe {
		if _, err := d.sns.Unsubscribe(ctx, &sns.UnsubscribeInput{SubscriptionArn: aws.String(sub.ARN)}); err != nil {
			return fmt.Errorf("unsubscribe %s %s from topic %s: %w", sub.Protocol, sub.Endpoint, arn, err)
		}
		if sub.Protocol == "sqs" {
			if err := d.revoke(ctx, arn, sub.Endpoint); err != nil {
				return err
			}
		}
	}
	for _, c := range p.set {
		if _, err := d.sns.SetSubscriptionAttributes(ctx, &sns.SetSubscriptionAttributesInput{SubscriptionArn: aws.String(c.ARN),
			AttributeName: aws.String(c.Name), AttributeValue: aws.String(c.Value)}); err != nil {
			return fmt.Errorf("set attribute %s of subscription %s: %w", c.Name, c.ARN, err)
		}
	}
	return nil
}

// updateTags adds, changes and removes tags so the topic carries exactly desired.
func (d *driver) updateTags(ctx context.Context, arn string, desired, observed map[string]string) error {
	set, remove := managed.TagChanges(desired, observed)
	if len(set) > 0 {
		if _, err := d.sns.TagResource(ctx, &sns.TagResourceInput{ResourceArn: aws.String(arn),
			Tags: managed.TagList(set, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })}); err != nil {
			return fmt.Errorf("tag topic %s: %w", arn, err)
		}
	}
	if len(remove) > 0 {
		if _, err := d.sns.UntagResource(ctx, &sns.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: remove}); err != nil {
			return fmt.Errorf("untag topic %s: %w", arn, err)
		}
	}
	return nil
}
