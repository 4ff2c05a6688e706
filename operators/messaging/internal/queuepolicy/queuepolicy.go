// Package queuepolicy reads and writes SQS queue policies shared by two owners: the SQSQueue,
// whose spec.policy gives the user's statements, and the SNSTopics that subscribe the queue,
// each of which keeps one statement (its Sid starts with SidPrefix) that lets the topic send.
// The policy document itself is package policy's Document.
package queuepolicy

import (
	"github.com/runner-codes/infra-operator/shared/policy"
)

// SidPrefix starts the Sid of every statement an SNSTopic keeps in a queue's policy; it begins
// with the prefix every operator-granted statement has.
const SidPrefix = policy.SNSSidPrefix

// Sid returns the Sid of the statement that lets the topic with topicARN send to a queue.
func Sid(topicARN string) string { return policy.SNSSendSid(topicARN) }

// TopicStatement returns the statement that lets the topic with topicARN send to the queue
// with queueARN, and nothing else (policy.SNSSendStatement).
func TopicStatement(topicARN, queueARN string) map[string]any {
	return policy.SNSSendStatement(topicARN, queueARN)
}
