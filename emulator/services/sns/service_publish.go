package sns

import (
	"errors"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The errors of PublishFromService.
var (
	// ErrNoSuchTopic says no topic has the ARN.
	ErrNoSuchTopic = errors.New("no topic has this ARN")
	// ErrPublishDenied says the topic's policy does not let the service publish.
	ErrPublishDenied = errors.New("the topic policy does not allow the sender")
	// ErrFIFOTopic says the topic is a FIFO topic, which services that publish events (S3)
	// cannot publish to.
	ErrFIFOTopic = errors.New("the topic is a FIFO topic")
)

// PublishFromService publishes message to the topic topicARN on behalf of an AWS service (service
// principal, such as "s3.amazonaws.com") acting for sourceARN of account sourceAccount, as S3
// does for its event notifications, and delivers it to the topic's subscriptions as Publish
// does. As on AWS, the topic's policy must allow the service sns:Publish (a new topic's
// default policy does not: it allows only its owner's principals), and the KMS key of an
// encrypted topic must be usable.
func (b *Backend) PublishFromService(topicARN, service, sourceARN, sourceAccount, subject, message string) error {
	b.mu.Lock()
	t, ok := b.topics[topicARN]
	if !ok {
		b.mu.Unlock()
		return ErrNoSuchTopic
	}
	policy, ok := t.attrs["Policy"]
	if !ok {
		policy = defaultTopicPolicy(t)
	}
	var err error
	switch {
	case t.fifo:
		err = ErrFIFOTopic
	case !core.ServiceAllowed(policy, service, "sns:Publish", t.arn, sourceARN, sourceAccount):
		err = ErrPublishDenied
	default:
		err = b.checkEncryptionKey(t)
	}
	if err != nil {
		b.mu.Unlock()
		return err
	}
	id := b.nextMessageID()
	targets := b.subscribersOf(t)
	now := b.clock.Now()
	b.mu.Unlock()
	b.fanOut(t, targets, id, subject, message, nil, "", now)
	return nil
}
