package sns

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sns/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

func (b *Backend) publish(call *core.Call, in *sns.PublishInput) (*sns.PublishOutput, error) {
	msg := aws.ToString(in.Message)
	if msg == "" {
		return nil, errInvalid("Empty message")
	}
	if len(msg) > 256*1024 {
		return nil, errInvalid("Message too long")
	}
	arn := aws.ToString(in.TopicArn)
	if arn == "" {
		arn = aws.ToString(in.TargetArn)
	}
	b.mu.Lock()
	t, err := b.topicFor(call, &arn)
	if err != nil {
		b.mu.Unlock()
		return nil, err
	}
	group := aws.ToString(in.MessageGroupId)
	if t.fifo && group == "" {
		b.mu.Unlock()
		return nil, errInvalid("The MessageGroupId parameter is required for FIFO topics")
	}
	if !t.fifo && in.MessageDeduplicationId != nil {
		b.mu.Unlock()
		return nil, errInvalid("MessageDeduplicationId Reason: The request includes MessageDeduplicationId parameter that is not valid for this topic type")
	}
	if err := b.checkEncryptionKey(t); err != nil {
		b.mu.Unlock()
		return nil, err
	}
	id := b.nextMessageID()
	targets := b.subscribersOf(t)
	b.mu.Unlock()
	b.fanOut(t, targets, id, aws.ToString(in.Subject), msg, in.MessageAttributes, group, call.Now)
	out := &sns.PublishOutput{MessageId: aws.String(id)}
	if t.fifo {
		out.SequenceNumber = aws.String(fmt.Sprintf("%020d", b.seq))
	}
	return out, nil
}

// nextMessageID returns the id of a new message. The caller holds b.mu.
func (b *Backend) nextMessageID() string {
	b.seq++
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", b.seq, b.seq)
}

// subscribersOf returns copies of the topic's confirmed SQS subscriptions, the ones the emulator
// delivers to. The caller holds b.mu.
func (b *Backend) subscribersOf(t *topic) []subscription {
	var targets []subscription
	for _, s := range b.subs {
		if s.topicARN == t.arn && s.confirmed && s.protocol == "sqs" {
			targets = append(targets, *s)
		}
	}
	return targets
}

// fanOut delivers a message published to topic t to the subscriptions targets whose filter
// policies accept it, without b.mu held. As on AWS, a delivery that fails (a missing queue, a
// policy that refuses the topic) is not reported to the publisher; the state dump counts it.
func (b *Backend) fanOut(t *topic, targets []subscription, id, subject, msg string, attrs map[string]types.MessageAttributeValue, group string, now time.Time) {
	for _, s := range targets {
		ok, err := matchesFilter(s.attrs["FilterPolicy"], s.attrs["FilterPolicyScope"], msg, attrs)
		if err != nil || !ok {
			continue
		}
		body := msg
		if s.attrs["RawMessageDelivery"] != "true" {
			body = envelope(id, t.arn, subject, msg, now, attrs)
		}
		if err := b.queues.DeliverFromService(s.endpoint, "sns.amazonaws.com", t.arn, t.owner, body, group); err != nil {
			b.mu.Lock()
			b.failed[s.arn+": "+err.Error()]++
			b.mu.Unlock()
		}
	}
}

// envelope is the JSON document SNS delivers when raw message delivery is off.
func envelope(id, topicARN, subject, msg string, now time.Time, attrs map[string]types.MessageAttributeValue) string {
	doc := map[string]any{
		"Type": "Notification", "MessageId": id, "TopicArn": topicARN, "Message": msg,
		"Timestamp": now.UTC().Format("2006-01-02T15:04:05.000Z"), "SignatureVersion": "1", "Signature": "EMULATED",
		"SigningCertURL": "https://sns.emulator.invalid/cert.pem",
		"UnsubscribeURL": "https://sns.emulator.invalid/?Action=Unsubscribe",
	}
	if subject != "" {
		doc["Subject"] = subject
	}
	if len(attrs) > 0 {
		ma := map[string]map[string]string{}
		for k, v := range attrs {
			ma[k] = map[string]string{"Type": aws.ToString(v.DataType), "Value": aws.ToString(v.StringValue)}
		}
		doc["MessageAttributes"] = ma
	}
	b, _ := json.Marshal(doc)
	return string(b)
}
