package sqs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// message is one message in a queue.
type message struct {
	id, body, receipt string
	groupID           string
	dedupID, sequence string // FIFO queues only
	sender            string // the sending account, SenderId
	traceHeader       string // the AWSTraceHeader system attribute, if sent
	deadLetterSource  string // the ARN of the queue it was moved from as a dead letter
	attrs             map[string]types.MessageAttributeValue
	key               string // the ARN of the KMS key that encrypted it, or ""
	sent              time.Time
	delayedUntil      time.Time
	invisibleUntil    time.Time
	firstReceive      time.Time
	receives          int
}

// ErrDeliveryDenied is returned by DeliverFromService when the queue's policy does not let the
// service send.
var ErrDeliveryDenied = errors.New("the queue policy does not allow the sender")

// ErrNoSuchQueue is returned by DeliverFromService when no queue has the ARN.
var ErrNoSuchQueue = errors.New("no queue has this ARN")

// DeliverFromService puts a message into the queue with queueARN on behalf of an AWS service
// (service principal, for example "sns.amazonaws.com") acting for sourceARN of account
// sourceAccount (the account of the topic, the owner of the bucket), as SNS does for
// its SQS subscriptions. As on AWS, the queue's policy must allow it, and the KMS key of an
// encrypted queue must be usable (the error is then SQS's KMS error).
func (b *Backend) DeliverFromService(queueARN, service, sourceARN, sourceAccount, body, groupID string) error {
	parts := strings.Split(queueARN, ":")
	if len(parts) != 6 {
		return ErrNoSuchQueue
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	q, ok := b.regions.For(core.Scope{Account: parts[4], Region: parts[3]}).queues[parts[5]]
	if !ok {
		return ErrNoSuchQueue
	}
	if !core.ServiceAllowed(q.attrs["Policy"], service, "sqs:SendMessage", queueARN, sourceARN, sourceAccount) {
		return ErrDeliveryDenied
	}
	key, err := b.encryptionKey(core.Scope{Account: parts[4], Region: parts[3]}, q)
	if err != nil {
		return err
	}
	now := b.clock.Now()
	q.messages = append(q.messages, &message{id: b.nextID(), body: body, groupID: groupID, sender: sourceAccount, key: key, sent: now, delayedUntil: now})
	return nil
}

func (b *Backend) sendMessage(call *core.Call, in *sqs.SendMessageInput) (*sqs.SendMessageOutput, error) {
	return withQueue(b, call, in.QueueUrl, func(q *queue) (*sqs.SendMessageOutput, error) {
		body := aws.ToString(in.MessageBody)
		if body == "" {
			return nil, &core.APIError{Code: "MissingParameter", Message: "The request must contain the parameter MessageBody."}
		}
		if err := checkMessageAttributes(in.MessageAttributes); err != nil {
			return nil, err
		}
		maxSize, _ := strconv.Atoi(q.value("MaximumMessageSize"))
		if len(body)+attributesSize(in.MessageAttributes) > maxSize {
			return nil, core.Errorf("InvalidParameterValue", "One or more parameters are invalid. Reason: Message must be shorter than %d bytes.", maxSize)
		}
		delay, _ := strconv.Atoi(q.value("DelaySeconds"))
		if in.DelaySeconds != 0 {
			if q.fifo {
				return nil, core.Errorf("InvalidParameterValue", "Value %d for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.", in.DelaySeconds)
			}
			delay = int(in.DelaySeconds)
		}
		key, err := b.encryptionKey(call.Scope(), q)
		if err != nil {
			return nil, err
		}
		out := &sqs.SendMessageOutput{MD5OfMessageBody: aws.String(md5Hex(body)), MD5OfMessageAttributes: optional(attributesMD5(in.MessageAttributes))}
		m := &message{body: body, attrs: in.MessageAttributes, sender: call.Account, key: key, sent: call.Now, delayedUntil: call.Now}
		if trace, ok := in.MessageSystemAttributes["AWSTraceHeader"]; ok {
			m.traceHeader = aws.ToString(trace.StringValue)
		}
		if q.fifo {
			group := aws.ToString(in.MessageGroupId)
			if group == "" {
				return nil, &core.APIError{Code: "MissingParameter", Message: "The request must contain the parameter MessageGroupId."}
			}
			dedup := aws.ToString(in.MessageDeduplicationId)
			if dedup == "" {
				if q.value("ContentBasedDeduplication") != "true" {
					return nil, core.Errorf("InvalidParameterValue",
						"The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly")
				}
				// AWS derives the ID from the body's SHA-256 digest.
				sum := sha256.Sum256([]byte(body))
				dedup = hex.EncodeToString(sum[:])
			}
			if at, ok := q.dedup[dedup]; ok && call.Now.Sub(at) < 5*time.Minute {
				out.MessageId = aws.String(b.nextID())
				return out, nil
			}
			q.dedup[dedup] = call.Now
			b.seq++
			m.groupID, m.dedupID, m.sequence = group, dedup, fmt.Sprintf("%020d", b.seq)
			out.SequenceNumber = aws.String(m.sequence)
		} else {
			m.delayedUntil = call.Now.Add(time.Duration(delay) * time.Second)
		}
		m.id = b.nextID()
		q.messages = append(q.messages, m)
		out.MessageId = aws.String(m.id)
		return out, nil
	})
}

func (b *Backend) receiveMessage(call *core.Call, in *sqs.ReceiveMessageInput) (*sqs.ReceiveMessageOutput, error) {
	return withQueue(b, call, in.QueueUrl, func(q *queue) (*sqs.ReceiveMessageOutput, error) {
		limit := 1
		if in.MaxNumberOfMessages != 0 {
			if in.MaxNumberOfMessages < 1 || in.MaxNumberOfMessages > 10 {
				return nil, core.Errorf("InvalidParameterValue", "Value %d for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.", in.MaxNumberOfMessages)
			}
			limit = int(in.MaxNumberOfMessages)
		}
		visibility, _ := strconv.Atoi(q.value("VisibilityTimeout"))
		if in.VisibilityTimeout != 0 {
			visibility = int(in.VisibilityTimeout)
		}
		b.expire(q, call.Now)
		if err := b.checkDecryptable(call.Scope(), q, call.Now); err != nil {
			return nil, err
		}
		redrive, hasRedrive := redrivePolicy{}, false
		if v, ok := q.attrs["RedrivePolicy"]; ok {
			redrive, _ = parseRedrivePolicy(v)
			hasRedrive = true
		}
		systemNames := make([]string, 0, len(in.MessageSystemAttributeNames)+len(in.AttributeNames))
		for _, n := range in.MessageSystemAttributeNames {
			systemNames = append(systemNames, string(n))
		}
		for _, n := range in.AttributeNames {
			systemNames = append(systemNames, string(n))
		}
		out := &sqs.ReceiveMessageOutput{}
		busyGroups := map[string]bool{}
		for _, m := range q.messages {
			if m.groupID != "" && call.Now.Before(m.invisibleUntil) {
				busyGroups[m.groupID] = true
			}
		}
		var kept []*message
		for _, m := range q.messages {
			if len(out.Messages) >= limit || call.Now.Before(m.delayedUntil) || call.Now.Before(m.invisibleUntil) || busyGroups[m.groupID] {
				kept = append(kept, m)
				continue
			}
			if hasRedrive && m.receives >= redrive.MaxReceiveCount && b.moveToDeadLetter(call, q, redrive.DeadLetterTargetArn, m) {
				continue
			}
			m.receives++
			if m.receives == 1 {
				m.firstReceive = call.Now
			}
			m.invisibleUntil = call.Now.Add(time.Duration(visibility) * time.Second)
			m.receipt = b.nextID() + "-" + m.id
			attrs := selectAttributes(m.attrs, in.MessageAttributeNames)
			out.Messages = append(out.Messages, types.Message{
				MessageId: aws.String(m.id), Body: aws.String(m.body), ReceiptHandle: aws.String(m.receipt),
				MD5OfBody: aws.String(md5Hex(m.body)), Attributes: systemAttributes(m, systemNames),
				MessageAttributes: attrs, MD5OfMessageAttributes: optional(attributesMD5(attrs)),
			})
			kept = append(kept, m)
		}
		q.messages = kept
		return out, nil
	})
}

// moveToDeadLetter moves m from source to the dead-letter queue with arn, if it exists in the
// caller's region. The caller holds b.mu.
func (b *Backend) moveToDeadLetter(call *core.Call, source *queue, arn string, m *message) bool {
	for _, dlq := range b.regions.Of(call).queues {
		if dlq.arn == arn {
			m.invisibleUntil, m.receipt, m.deadLetterSource = time.Time{}, "", source.arn
			dlq.messages = append(dlq.messages, m)
			return true
		}
	}
	return false
}

// expire drops messages older than the queue's retention period. The caller holds b.mu.
func (b *Backend) expire(q *queue, now time.Time) {
	retention, _ := strconv.Atoi(q.value("MessageRetentionPeriod"))
	kept := q.messages[:0]
	for _, m := range q.messages {
		if now.Sub(m.sent) < time.Duration(retention)*time.Second {
			kept = append(kept, m)
		}
	}
	q.messages = kept
}

func (b *Backend) deleteMessage(call *core.Call, in *sqs.DeleteMessageInput) (*sqs.DeleteMessageOutput, error) {
	return withQueue(b, call, in.QueueUrl, func(q *queue) (*sqs.DeleteMessageOutput, error) {
		handle := aws.ToString(in.ReceiptHandle)
		for i, m := range q.messages {
			if m.receipt != "" && m.receipt == handle {
				q.messages = append(q.messages[:i], q.messages[i+1:]...)
				return &sqs.DeleteMessageOutput{}, nil
			}
		}
		return nil, &core.APIError{Code: "ReceiptHandleIsInvalid",
			Message: "The input receipt handle \"" + handle + "\" is not a valid receipt handle."}
	})
}

func (b *Backend) purgeQueue(call *core.Call, in *sqs.PurgeQueueInput) (*sqs.PurgeQueueOutput, error) {
	return withQueue(b, call, in.QueueUrl, func(q *queue) (*sqs.PurgeQueueOutput, error) {
		q.messages = nil
		return &sqs.PurgeQueueOutput{}, nil
	})
}

// QueueByARN reports whether a queue has queueARN, and whether it is a FIFO queue, for the
// services that read queues (Lambda's event source mappings).
func (b *Backend) QueueByARN(queueARN string) (fifo, ok bool) {
	parts := strings.Split(queueARN, ":")
	if len(parts) != 6 || parts[2] != "sqs" {
		return false, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	q, ok := b.regions.For(core.Scope{Account: parts[4], Region: parts[3]}).queues[parts[5]]
	if !ok {
		return false, false
	}
	return q.fifo, true
}
