package snstopic

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/queuepolicy"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/subscriptions"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a topic.
type State struct {
	// ARN is the topic's ARN.
	ARN string
	// Attributes are the topic's attributes.
	Attributes map[string]string
	// Tags are the topic's tags.
	Tags map[string]string
	// Subscriptions are the topic's subscriptions.
	Subscriptions []subscriptions.Subscription
	// Grants are the policies of the SQS queues the spec subscribes, by queue ARN.
	Grants map[string]queuepolicy.Grant
}

// Observe reads the topic (GetTopicAttributes, ListTagsForResource, ListSubscriptionsByTopic,
// GetSubscriptionAttributes for each confirmed subscription, and GetQueueUrl and
// GetQueueAttributes for each subscribed queue of the topic's account and region, and
// ListQueueTags for each whose policy lacks the topic's statement), fills the status and,
// unless the topic is being deleted, plans what differs from the spec. A queue whose policy
// the topic would write to but that the topic's namespace does not own stops the plan, before
// any write, with a terminal error (see mayGrant).
func (d *driver) Observe(ctx context.Context, t *v1alpha1.SNSTopic, req managed.Request) (managed.Observation[State], error) {
	arn := managed.ExternalName(t)
	if arn == "" {
		found, err := d.find(ctx, t.Spec.TopicName)
		if err != nil || found == "" {
			return managed.Observation[State]{}, err
		}
		arn = found
	}
	attrs, err := d.sns.GetTopicAttributes(ctx, &sns.GetTopicAttributesInput{TopicArn: aws.String(arn)})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("get the attributes of topic %s: %w", arn, err)
	}
	st := &State{ARN: arn, Attributes: attrs.Attributes, Grants: map[string]queuepolicy.Grant{}}
	if st.Tags, err = d.tags(ctx, arn); err != nil {
		return managed.Observation[State]{}, err
	}
	if err := managed.Claim(t, "SNS topic", arn, st.Tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(t, st)
	if st.Subscriptions, err = subscriptions.List(ctx, d.sns, arn); err != nil {
		return managed.Observation[State]{}, err
	}
	for _, sub := range t.Spec.Subscriptions {
		if sub.Protocol != "sqs" {
			continue
		}
		if st.Grants[sub.Endpoint], err = queuepolicy.ReadGrant(ctx, d.sqs, arn, sub.Endpoint); err != nil {
			return managed.Observation[State]{}, err
		}
		if g := st.Grants[sub.Endpoint]; !req.Deleting && !g.Granted(arn) && g.URL != "" {
			if err := d.mayGrant(ctx, t, g); err != nil {
				return managed.Observation[State]{}, err
			}
		}
	}
	obs := managed.Observation[State]{Exists: true, Ready: true, State: st, Tags: st.Tags}
	if !req.Deleting {
		d.plan(&obs.Changes, &t.Spec, st, req.Tags)
	}
	return obs, nil
}

// mayGrant returns nil when topic t may add its statement to the policy of the queue g: the
// queue's ownership tags (ListQueueTags) name t's namespace, or the administrator lets t's
// namespace write into queues it does not own (managed.CheckForeignWrite). A queue that no
// longer exists holds no policy to write to.
func (d *driver) mayGrant(ctx context.Context, t *v1alpha1.SNSTopic, g queuepolicy.Grant) error {
	out, err := d.sqs.ListQueueTags(ctx, &sqs.ListQueueTagsInput{QueueUrl: aws.String(g.URL)})
	if awserr.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list the tags of subscribed queue %s: %w", g.QueueARN, err)
	}
	return managed.CheckForeignWrite(ctx, t, "SQS queue", g.QueueARN, out.Tags)
}

// find returns the ARN of the topic named name, or "" when there is none. It pages through
// ListTopics, which only a topic not created yet (or whose creation was not recorded) needs.
func (d *driver) find(ctx context.Context, name string) (string, error) {
	var next *string
	for {
		out, err := d.sns.ListTopics(ctx, &sns.ListTopicsInput{NextToken: next})
		if err != nil {
			return "", fmt.Errorf("list topics to find %s: %w", name, err)
		}
		for _, t := range out.Topics {
			if arn := aws.ToString(t.TopicArn); strings.HasSuffix(arn, ":"+name) {
				return arn, nil
			}
		}
		if next = out.NextToken; next == nil {
			return "", nil
		}
	}
}

// tags returns the topic's tags.
func (d *driver) tags(ctx context.Context, arn string) (map[string]string, error) {
	out, err := d.sns.ListTagsForResource(ctx, &sns.ListTagsForResourceInput{ResourceArn: aws.String(arn)})
	if err != nil {
		return nil, fmt.Errorf("list the tags of topic %s: %w", arn, err)
	}
	return managed.TagMap(out.Tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }), nil
}

// fillStatus copies what the status shows from the topic's attributes.
func fillStatus(t *v1alpha1.SNSTopic, st *State) {
	t.Status.TopicARN = st.ARN
	t.Status.TopicName = st.ARN[strings.LastIndex(st.ARN, ":")+1:]
	confirmed, _ := strconv.ParseInt(st.Attributes["SubscriptionsConfirmed"], 10, 32)
	pending, _ := strconv.ParseInt(st.Attributes["SubscriptionsPending"], 10, 32)
	t.Status.SubscriptionsConfirmed, t.Status.SubscriptionsPending = int32(confirmed), int32(pending)
}
