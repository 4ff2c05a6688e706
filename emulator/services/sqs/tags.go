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
	Invalid: core.InvalidTag("InvalidParameterValue", "%s"),
}

// tagOperations are SQS's tag operations, TagQueue, UntagQueue and ListQueueTags, on the queue a
// request names by QueueUrl.
func (b *Backend) tagOperations() map[string]core.Operation {
	return core.TagOperations(b.tagging(), "QueueUrl", (*sqs.Client).TagQueue, (*sqs.Client).UntagQueue, (*sqs.Client).ListQueueTags)
}

// tagging serves the tag operations on the queues of the caller's region, by URL.
func (b *Backend) tagging() core.Tagging[*string, struct{}] {
	return core.Tagging[*string, struct{}]{Lock: &b.mu,
		Find: func(call *core.Call, url *string) (core.TagTarget, error) {
			q, err := b.lookup(call, url)
			if err != nil {
				return core.TagTarget{}, err
			}
			return core.TagTarget{Tags: b.regions.Of(call).tags, ID: q.name}, nil
		},
	}
}
