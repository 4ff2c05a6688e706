package sqsqueue

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/operators/messaging/internal/queuepolicy"
)

// queueAPI is the part of the SQS API the driver uses.
type queueAPI interface {
	queuepolicy.API
	CreateQueue(ctx context.Context, in *sqs.CreateQueueInput, opts ...func(*sqs.Options)) (*sqs.CreateQueueOutput, error)
	DeleteQueue(ctx context.Context, in *sqs.DeleteQueueInput, opts ...func(*sqs.Options)) (*sqs.DeleteQueueOutput, error)
	ListQueueTags(ctx context.Context, in *sqs.ListQueueTagsInput, opts ...func(*sqs.Options)) (*sqs.ListQueueTagsOutput, error)
	TagQueue(ctx context.Context, in *sqs.TagQueueInput, opts ...func(*sqs.Options)) (*sqs.TagQueueOutput, error)
	UntagQueue(ctx context.Context, in *sqs.UntagQueueInput, opts ...func(*sqs.Options)) (*sqs.UntagQueueOutput, error)
}

var _ queueAPI = (*sqs.Client)(nil)
