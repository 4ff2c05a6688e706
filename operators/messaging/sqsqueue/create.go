package sqsqueue

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/smithy-go"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the queue with its attributes, policy and tags in one call.
func (d *driver) Create(ctx context.Context, q *v1alpha1.SQSQueue, req managed.Request) error {
	s := &q.Spec
	out, err := d.api.CreateQueue(ctx, &sqs.CreateQueueInput{
		QueueName:  aws.String(s.QueueName),
		Attributes: createAttributes(s),
		Tags:       req.Tags,
	})
	if isDeletedRecently(err) {
		return managed.Waiting(condition.ReasonQueueDeletedRecently, "SQS refuses the name %s for 60 seconds after a queue of that name was deleted", s.QueueName)
	}
	if err != nil {
		return fmt.Errorf("create queue %s: %w", s.QueueName, err)
	}
	managed.SetExternalName(q, s.QueueName)
	q.Status.QueueURL = aws.ToString(out.QueueUrl)
	return nil
}

// isDeletedRecently reports whether err is SQS's refusal of a name deleted moments ago.
func isDeletedRecently(err error) bool {
	var api smithy.APIError
	if !errors.As(err, &api) {
		return false
	}
	return api.ErrorCode() == "QueueDeletedRecently" || api.ErrorCode() == "AWS.SimpleQueueService.QueueDeletedRecently"
}
