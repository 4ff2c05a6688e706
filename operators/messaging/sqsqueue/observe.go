package sqsqueue

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/operators/messaging/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what AWS said about a queue.
type State struct {
	// URL is the queue's URL.
	URL string
	// Attributes are every attribute of the queue.
	Attributes map[string]string
	// Tags are the queue's tags.
	Tags map[string]string
}

// Observe reads the queue (GetQueueAttributes and ListQueueTags; GetQueueUrl first when the
// status does not know the URL yet), fills the status and, unless the queue is being deleted,
// plans one SetQueueAttributes call with every attribute that differs from the spec, then the
// tag change. A queue is usable as soon as it exists.
func (d *driver) Observe(ctx context.Context, q *v1alpha1.SQSQueue, req managed.Request) (managed.Observation[State], error) {
	if !req.Deleting {
		if err := checkDeadLetterType(q); err != nil {
			return managed.Observation[State]{}, err
		}
	}
	name := managed.ExternalName(q)
	if name == "" {
		name = q.Spec.QueueName
	}
	url := q.Status.QueueURL
	if !strings.HasSuffix(url, "/"+name) {
		out, err := d.api.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String(name)})
		if awserr.IsNotFound(err) {
			return managed.Observation[State]{}, nil
		}
		if err != nil {
			return managed.Observation[State]{}, fmt.Errorf("get the URL of queue %s: %w", name, err)
		}
		url = aws.ToString(out.QueueUrl)
	}
	attrs, err := d.api.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(url),
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameAll}})
	if awserr.IsNotFound(err) {
		q.Status.QueueURL = ""
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("get the attributes of queue %s: %w", name, err)
	}
	tags, err := d.api.ListQueueTags(ctx, &sqs.ListQueueTagsInput{QueueUrl: aws.String(url)})
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("list the tags of queue %s: %w", name, err)
	}
	st := &State{URL: url, Attributes: attrs.Attributes, Tags: tags.Tags}
	if st.Tags == nil {
		st.Tags = map[string]string{}
	}
	if err := managed.Claim(q, "SQS queue", name, st.Tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(q, name, st)
	obs := managed.Observation[State]{Exists: true, Ready: true, State: st, Tags: st.Tags}
	if !req.Deleting {
		if err := d.plan(&obs.Changes, q, st, req.Tags); err != nil {
			return managed.Observation[State]{}, err
		}
	}
	return obs, nil
}

// fillStatus copies what the status shows from the queue's attributes.
func fillStatus(q *v1alpha1.SQSQueue, name string, st *State) {
	q.Status.QueueName = name
	q.Status.QueueURL = st.URL
	q.Status.QueueARN = st.Attributes[attrQueueARN]
	q.Status.ApproximateNumberOfMessages, _ = strconv.ParseInt(st.Attributes[attrMessages], 10, 64)
	q.Status.DeadLetterQueueARN = ""
	if dlq := q.Spec.DeadLetterQueue; dlq != nil {
		q.Status.DeadLetterQueueARN = dlq.QueueARN
	}
}
