package lambda

import (
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Roles is what Lambda needs of IAM for event source mappings: what a function's execution role
// may do with the mapping's source.
type Roles interface {
	// RolePermits reports whether the role roleARN is known in the call's account and, when it
	// is, the first of actions its policies do not allow on resource ("" when all are allowed).
	RolePermits(call *core.Call, roleARN, resource string, actions ...string) (known bool, refused string)
}

// streamActions are the actions Lambda needs on a stream to read it, in the order its refusal
// names them, by source kind.
var streamActions = map[string][]string{
	"dynamodb": {"GetRecords", "GetShardIterator", "DescribeStream", "ListStreams"},
	"kinesis":  {"GetRecords", "GetShardIterator", "DescribeStream", "ListShards", "ListStreams"},
}

// queueActions are the actions Lambda needs on an SQS queue to read it, in the order it checks
// them.
var queueActions = []string{"ReceiveMessage", "DeleteMessage", "GetQueueAttributes"}

// checkSourceAccess returns the InvalidParameterValueException Lambda answers when a function's
// execution role may not read a mapping's source of kind sqs, dynamodb or kinesis: for a queue,
// "The provided execution role does not have permissions to call ReceiveMessage on SQS" with the
// first of ReceiveMessage, DeleteMessage and GetQueueAttributes it lacks; for a stream, "Cannot
// access stream <arn>. Please ensure the role can perform the GetRecords, GetShardIterator,
// DescribeStream, and ListStreams Actions on your stream in IAM." (ListShards too for Kinesis).
// A role the emulated IAM does not know, of another account or made outside it, is not checked,
// nor are Kafka and Amazon MQ sources.
func (b *Backend) checkSourceAccess(call *core.Call, role, kind, source string) error {
	actions := queueActions
	if kind != "sqs" {
		actions = streamActions[kind]
	}
	if len(actions) == 0 {
		return nil
	}
	qualified := make([]string, len(actions))
	for i, a := range actions {
		qualified[i] = kind + ":" + a
	}
	known, refused := b.sources.roles.RolePermits(call, role, source, qualified...)
	switch {
	case !known || refused == "":
		return nil
	case kind == "sqs":
		return invalidParameter("The provided execution role does not have permissions to call %s on SQS", strings.TrimPrefix(refused, "sqs:"))
	}
	return invalidParameter("Cannot access stream %s. Please ensure the role can perform the %s, and %s Actions on your stream in IAM.",
		source, strings.Join(actions[:len(actions)-1], ", "), actions[len(actions)-1])
}
