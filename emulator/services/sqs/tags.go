package sqs

import (
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// tagRules are SQS's limits on queue tags: 50 a queue (Amazon SQS Developer Guide, Amazon SQS
// queue quotas, Queue tag). SQS models no error of its own for them: it answers with its common
// InvalidParameterValue (Amazon SQS API Reference, Common Errors).
var tagRules = core.TagRules{
	MaxTags: 50,
	TooMany: core.Errorf("InvalidParameterValue", "Too many tags: a queue can have at most 50."),
	Invalid: func(problem string) *core.APIError { return core.Errorf("InvalidParameterValue", "%s", problem) },
}

func (b *Backend) tagQueue(call *core.Call, in *sqs.TagQueueInput) (*sqs.TagQueueOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, err := b.lookup(call, in.QueueUrl)
	if err != nil {
		return nil, err
	}
	return &sqs.TagQueueOutput{}, b.regions.Of(call).tags.Merge(in.Tags, q.name)
}

func (b *Backend) untagQueue(call *core.Call, in *sqs.UntagQueueInput) (*sqs.UntagQueueOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, err := b.lookup(call, in.QueueUrl)
	if err != nil {
		return nil, err
	}
	b.regions.Of(call).tags.Remove(q.name, in.TagKeys...)
	return &sqs.UntagQueueOutput{}, nil
}

func (b *Backend) listQueueTags(call *core.Call, in *sqs.ListQueueTagsInput) (*sqs.ListQueueTagsOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, err := b.lookup(call, in.QueueUrl)
	if err != nil {
		return nil, err
	}
	return &sqs.ListQueueTagsOutput{Tags: b.regions.Of(call).tags.Map(q.name)}, nil
}
