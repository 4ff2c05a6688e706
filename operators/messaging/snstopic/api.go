package snstopic

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/operators/messaging/internal/queuepolicy"
	"github.com/runner-codes/infra-operator/operators/messaging/internal/subscriptions"
)

// topicAPI is the part of the SNS API the driver uses.
type topicAPI interface {
	subscriptions.API
	CreateTopic(ctx context.Context, in *sns.CreateTopicInput, opts ...func(*sns.Options)) (*sns.CreateTopicOutput, error)
	GetTopicAttributes(ctx context.Context, in *sns.GetTopicAttributesInput, opts ...func(*sns.Options)) (*sns.GetTopicAttributesOutput, error)
	SetTopicAttributes(ctx context.Context, in *sns.SetTopicAttributesInput, opts ...func(*sns.Options)) (*sns.SetTopicAttributesOutput, error)
	ListTopics(ctx context.Context, in *sns.ListTopicsInput, opts ...func(*sns.Options)) (*sns.ListTopicsOutput, error)
	DeleteTopic(ctx context.Context, in *sns.DeleteTopicInput, opts ...func(*sns.Options)) (*sns.DeleteTopicOutput, error)
	ListTagsForResource(ctx context.Context, in *sns.ListTagsForResourceInput, opts ...func(*sns.Options)) (*sns.ListTagsForResourceOutput, error)
	TagResource(ctx context.Context, in *sns.TagResourceInput, opts ...func(*sns.Options)) (*sns.TagResourceOutput, error)
	UntagResource(ctx context.Context, in *sns.UntagResourceInput, opts ...func(*sns.Options)) (*sns.UntagResourceOutput, error)
}

var _ topicAPI = (*sns.Client)(nil)

// queueAPI is the part of the SQS API the driver uses: the subscribed queues' policies, and
// their tags, which say whether the topic may write into a queue's policy.
type queueAPI interface {
	queuepolicy.API
	ListQueueTags(ctx context.Context, in *sqs.ListQueueTagsInput, opts ...func(*sqs.Options)) (*sqs.ListQueueTagsOutput, error)
}

var _ queueAPI = (*sqs.Client)(nil)
