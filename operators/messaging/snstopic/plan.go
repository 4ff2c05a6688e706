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
	"github.com/runner-codes/infra-operator/operators/messaging/internal/attributes"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/queuepolicy"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/subscriptions"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// queueRetry is how soon a topic waiting for a subscribed queue looks again.
const queueRetry = 30 * time.Second

// plan plans what makes the topic match the spec, in this order: one SetTopicAttributes per
// differing attribute (SNS sets one at a time), the tag change, then one change for the
// subscriptions and the statements that let the topic send to its queues (see deliver).
func (d *driver) plan(p *managed.Plan, s *v1alpha1.SNSTopicSpec, st *State, tags map[string]string) {
	changes := attributes.Changes(withGrants(desiredTopicAttributes(s), st), st.Attributes, sameValue)
	for _, name := range slices.Sorted(maps.Keys(changes)) {
		p.AddValue(name, st.Attributes[name], changes[name], func(ctx context.Context) error {
			if _, err := d.sns.SetTopicAttributes(ctx, &sns.SetTopicAttributesInput{TopicArn: aws.String(st.ARN),
				AttributeName: aws.String(name), AttributeValue: aws.String(changes[name])}); err != nil {
				return fmt.Errorf("set attribute %s of topic %s: %w", name, st.ARN, err)
			}
			return nil
		})
	}
	p.AddTags(tags, st.Tags, d.tagCalls(st.ARN))
	var fields []string
	subs := subscriptions.Compare(s.Subscriptions, st.Subscriptions)
	if !subs.Empty() {
		fields = append(fields, "subscriptions")
	}
	for _, g := range st.Grants {
		if !g.Granted(st.ARN) {
			fields = append(fields, "queuePolicies")
			break
		}
	}
	p.AddFields(fields, func(ctx context.Context) error { return d.deliver(ctx, st, subs) })
}

// deliver adds the statements that let the topic send to the queues it subscribes where they
// are missing, then turns the subscriptions into the spec's (see subscriptions.Plan.Apply). It
// returns a waiting error, last, while a subscribed queue of the topic's account and region
// does not exist.
func (d *driver) deliver(ctx context.Context, st *State, subs subscriptions.Plan) error {
	var missing []string
	for _, queueARN := range slices.Sorted(maps.Keys(st.Grants)) {
		g := st.Grants[queueARN]
		switch {
		case g.Granted(st.ARN):
		case g.URL == "":
			missing = append(missing, queueARN)
		default:
			if err := queuepolicy.Allow(ctx, d.sqs, st.ARN, g); err != nil {
				return err
			}
		}
	}
	if err := subs.Apply(ctx, d.sns, d.sqs, st.ARN); err != nil {
		return err
	}
	if len(missing) > 0 {
		return &managed.WaitingError{Reason: condition.ReasonEndpointQueueNotFound, After: queueRetry,
			Message: fmt.Sprintf("the subscribed SQS queues %v do not exist; the topic cannot deliver to them", missing)}
	}
	return nil
}

// tagCalls changes the tags of the topic arn: TagResource, then UntagResource.
func (d *driver) tagCalls(arn string) func(ctx context.Context, set map[string]string, remove []string) error {
	return managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.sns.TagResource(ctx, &sns.TagResourceInput{ResourceArn: aws.String(arn), Tags: tagList(set)})
		return managed.Wrap(err, "tag topic %s", arn)
	}, func(ctx context.Context, remove []string) error {
		_, err := d.sns.UntagResource(ctx, &sns.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: remove})
		return managed.Wrap(err, "untag topic %s", arn)
	})
}

// tagList returns tags as an SNS tag list, sorted by key.
func tagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}
