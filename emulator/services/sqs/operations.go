package sqs

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are SQS's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateQueue":                core.Op(b.createQueue),
		"GetQueueUrl":                core.Op(b.getQueueURL),
		"GetQueueAttributes":         core.Op(b.getQueueAttributes),
		"SetQueueAttributes":         core.Op(b.setQueueAttributes),
		"DeleteQueue":                core.Op(b.deleteQueue),
		"ListQueues":                 core.Op(b.listQueues),
		"SendMessage":                core.Op(b.sendMessage),
		"ReceiveMessage":             core.Op(b.receiveMessage),
		"DeleteMessage":              core.Op(b.deleteMessage),
		"PurgeQueue":                 core.Op(b.purgeQueue),
		"ListDeadLetterSourceQueues": core.Op(b.listDeadLetterSourceQueues),
	}
}
