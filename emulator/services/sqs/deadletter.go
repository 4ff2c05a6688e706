package sqs

import (
	"sort"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// listDeadLetterSourceQueues lists the URLs of the caller's queues in the region whose
// RedrivePolicy names the queue as their dead-letter queue, in URL order, up to MaxResults
// (1 to 1000) a page with a NextToken when MaxResults is given, as ListQueues pages.
func (b *Backend) listDeadLetterSourceQueues(call *core.Call, in *sqs.ListDeadLetterSourceQueuesInput) (*sqs.ListDeadLetterSourceQueuesOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	dlq, err := b.lookup(call, in.QueueUrl)
	if err != nil {
		return nil, err
	}
	urls := []string{}
	for _, q := range b.regions.Of(call).queues {
		if v, ok := q.attrs["RedrivePolicy"]; ok {
			if p, err := parseRedrivePolicy(v); err == nil && p.DeadLetterTargetArn == dlq.arn {
				urls = append(urls, q.url)
			}
		}
	}
	sort.Strings(urls)
	limit := len(urls)
	if in.MaxResults != nil {
		if *in.MaxResults < 1 || *in.MaxResults > 1000 {
			return nil, core.Errorf("InvalidParameterValue", "Value for parameter MaxResults is invalid. Reason: must be between 1 and 1000.")
		}
		limit = int(*in.MaxResults)
	}
	start := 0
	if tok := aws.ToString(in.NextToken); tok != "" {
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 || n > len(urls) {
			return nil, core.Errorf("InvalidParameterValue", "Invalid NextToken value.")
		}
		start = n
	}
	end := min(start+limit, len(urls))
	out := &sqs.ListDeadLetterSourceQueuesOutput{QueueUrls: urls[start:end]}
	if end < len(urls) {
		out.NextToken = aws.String(strconv.Itoa(end))
	}
	return out, nil
}
