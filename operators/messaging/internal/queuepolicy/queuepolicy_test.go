package queuepolicy

import (
	"strings"
	"testing"

	"github.com/runner-codes/infra-operator/shared/policy"
)

const (
	topicARN = "arn:aws:sns:us-east-1:123456789012:events"
	queueARN = "arn:aws:sqs:us-east-1:123456789012:inbox"
)

// TestTopicStatement checks the statement a topic keeps in a queue's policy: its Sid is
// reserved, one per topic, and a document holding it is found to grant the topic.
func TestTopicStatement(t *testing.T) {
	st := TopicStatement(topicARN, queueARN)
	if !policy.HasSidPrefix(st, policy.ReservedSidPrefix) || !strings.HasPrefix(Sid(topicARN), SidPrefix) {
		t.Errorf("Sid %s does not start with the reserved prefixes %s and %s", Sid(topicARN), policy.ReservedSidPrefix, SidPrefix)
	}
	if Sid(topicARN) == Sid(topicARN+"-other") {
		t.Errorf("two topics share the Sid %s", Sid(topicARN))
	}
	g := Grant{QueueARN: queueARN, Readable: true, URL: "https://sqs/inbox", Policy: policy.Document{}.With(st)}
	if !g.Granted(topicARN) {
		t.Errorf("a queue policy holding the topic's statement does not grant it: %s", g.Policy)
	}
	if g.Granted(topicARN + "-other") {
		t.Errorf("the statement of one topic grants another: %s", g.Policy)
	}
}
