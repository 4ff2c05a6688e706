package sqsqueue

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Update sets every attribute that differs in one SetQueueAttributes call, and adds, changes
// and removes tags.
func (d *driver) Update(ctx context.Context, q *v1alpha1.SQSQueue, obs managed.Observation[State]) error {
	st := obs.State
	changes, err := attributeChanges(&q.Spec, st.Attributes)
	if err != nil {
		return err
	}
	if len(changes) > 0 {
		if _, err := d.api.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: aws.String(st.URL), Attributes: changes}); err != nil {
			return fmt.Errorf("set the attributes of queue %s: %w", q.Spec.QueueName, err)
		}
	}
	set, remove := managed.TagChanges(managed.DesiredTags(q, d.defaultTags), st.Tags)
	if len(set) > 0 {
		if _, err := d.api.TagQueue(ctx, &sqs.TagQueueInput{QueueUrl: aws.String(st.URL), Tags: set}); err != nil {
			return fmt.Errorf("tag queue %s: %w", q.Spec.QueueName, err)
		}
	}
	if len(remove) > 0 {
		if _, err := d.api.UntagQueue(ctx, &sqs.UntagQueueInput{QueueUrl: aws.String(st.URL), TagKeys: remove}); err != nil {
			return fmt.Errorf("untag queue %s: %w", q.Spec.QueueName, err)
		}
	}
	return nil
}
