package sqs

import (
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// listDeadLetterSourceQueues lists the URLs of the caller's queues in the region whose
// RedrivePolicy names the queue as their dead-letter queue, in URL order, up to MaxResults
// (1 to 1000) a page with a NextToken when MaxResults is given, as ListQueues pages.
func (b *Backend) listDeadLetterSourceQueues(call *core.Call, in *sqs.ListDeadLetterSourceQueuesInput) (*sqs.ListDeadLetterSourceQueuesOutput, error) {
	return withQueue(b, call, in.QueueUrl, func(dlq *queue) (*sqs.ListDeadLetterSourceQueuesOutput, error) {
		urls := []string{}
		for _, q := range b.regions.Of(call).queues {
			if v, ok := q.attrs["RedrivePolicy"]; ok {
				if p, err := parseRedrivePolicy(v); err == nil && p.DeadLetterTargetArn == dlq.arn {
					urls = append(urls, q.url)
				}
			}
		}
		page, next, err := pageOf(urls, in.MaxResults, in.NextToken)
		return &sqs.ListDeadLetterSourceQueuesOutput{QueueUrls: page, NextToken: next}, err
	})
}
