// Package queuepolicy reads and writes SQS queue policies shared by two owners: the SQSQueue,
// whose spec.policy gives the user's statements, and the SNSTopics that subscribe the queue,
// each of which keeps one statement (its Sid starts with SidPrefix) that lets the topic send.
// The policy document itself is package policy's Document.
package queuepolicy

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/runner-codes/infra-operator/shared/policy"
)

// SidPrefix starts the Sid of every statement an SNSTopic keeps in a queue's policy; it begins
// with the prefix every operator-granted statement has.
const SidPrefix = policy.ReservedSidPrefix + "SNS"

// Sid returns the Sid of the statement that lets the topic with topicARN send to a queue.
func Sid(topicARN string) string {
	sum := sha256.Sum256([]byte(topicARN))
	return SidPrefix + hex.EncodeToString(sum[:8])
}

// TopicStatement returns the statement that lets the topic with topicARN send to the queue
// with queueARN, and nothing else.
func TopicStatement(topicARN, queueARN string) map[string]any {
	// Built as JSON values so that it compares equal to the same statement read back.
	return map[string]any{
		"Sid":       Sid(topicARN),
		"Effect":    "Allow",
		"Principal": map[string]any{"Service": "sns.amazonaws.com"},
		"Action":    "sqs:SendMessage",
		"Resource":  queueARN,
		"Condition": map[string]any{"ArnEquals": map[string]any{"aws:SourceArn": topicARN}},
	}
}
