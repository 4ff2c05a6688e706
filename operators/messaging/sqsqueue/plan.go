package sqsqueue

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// plan plans what makes the queue match the spec: one SetQueueAttributes call with every
// attribute that differs, then the tag change (TagQueue, UntagQueue).
func (d *driver) plan(p *managed.Plan, q *v1alpha1.SQSQueue, st *State, tags map[string]string) error {
	name := q.Spec.QueueName
	changes, err := attributeChanges(&q.Spec, st.Attributes)
	if err != nil {
		return err
	}
	p.AddAttributes(changes, st.Attributes, func(ctx context.Context) error {
		if _, err := d.api.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: aws.String(st.URL), Attributes: changes}); err != nil {
			return fmt.Errorf("set the attributes of queue %s: %w", name, err)
		}
		return nil
	})
	p.AddTags(tags, st.Tags, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagQueue(ctx, &sqs.TagQueueInput{QueueUrl: aws.String(st.URL), Tags: set})
		return managed.Wrap(err, "tag queue %s", name)
	}, func(ctx context.Context, remove []string) error {
		_, err := d.api.UntagQueue(ctx, &sqs.UntagQueueInput{QueueUrl: aws.String(st.URL), TagKeys: remove})
		return managed.Wrap(err, "untag queue %s", name)
	}))
	return nil
}
