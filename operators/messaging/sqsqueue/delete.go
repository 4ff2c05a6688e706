package sqsqueue

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the queue and the messages in it. SQS deletes a queue that other queues use
// as their dead-letter queue, as it is asked; those queues keep their redrive policy and keep
// messages they cannot move.
func (d *driver) Delete(ctx context.Context, q *v1alpha1.SQSQueue, obs managed.Observation[State]) error {
	if _, err := d.api.DeleteQueue(ctx, &sqs.DeleteQueueInput{QueueUrl: aws.String(obs.State.URL)}); err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("delete queue %s: %w", managed.ExternalName(q), err)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags, for deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, q *v1alpha1.SQSQueue, obs managed.Observation[State]) error {
	if _, err := d.api.UntagQueue(ctx, &sqs.UntagQueueInput{QueueUrl: aws.String(obs.State.URL), TagKeys: managed.OwnershipTagKeys()}); err != nil {
		return fmt.Errorf("remove the ownership tags of queue %s: %w", managed.ExternalName(q), err)
	}
	return nil
}
