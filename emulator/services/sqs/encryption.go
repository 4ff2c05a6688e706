package sqs

import (
	"time"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// kmsErrors are the SQS errors that stand for KMS's answers when SQS asks KMS for a data key or
// to decrypt one (SendMessage and ReceiveMessage model them; their awsQuery codes are
// KMS.NotFoundException and the like).
var kmsErrors = map[string]string{
	"NotFoundException":        "KmsNotFound",
	"DisabledException":        "KmsDisabled",
	"KMSInvalidStateException": "KmsInvalidState",
	"InvalidKeyUsageException": "KmsInvalidKeyUsage",
}

// kmsError turns KMS's answer about a queue's key into SQS's error, keeping KMS's message.
func kmsError(err error) error {
	code, message, ok := core.KeyError(err)
	if !ok {
		return err
	}
	if sqsCode, known := kmsErrors[code]; known {
		return &core.APIError{Code: sqsCode, Message: message}
	}
	return err
}

// encryptionKey returns the ARN of the KMS key that encrypts a message sent to q now, or ""
// when q is not encrypted with a KMS key. SQS asks KMS for a data key when it encrypts, so a
// key that could not encrypt now refuses the message with KMS's reason; the queue itself was
// created with the key unchecked, as on AWS. The caller holds b.mu.
func (b *Backend) encryptionKey(scope core.Scope, q *queue) (string, error) {
	id := q.attrs["KmsMasterKeyId"]
	if id == "" {
		return "", nil
	}
	if err := b.keys.Usable(scope, id); err != nil {
		return "", kmsError(err)
	}
	arn, err := b.keys.KeyARN(scope, id)
	if err != nil {
		return "", kmsError(err)
	}
	return arn, nil
}

// checkDecryptable returns KMS's reason, as SQS's error, when a message that ReceiveMessage could
// return now was encrypted with a key that could not decrypt it now (disabled, pending deletion
// or deleted since). The caller holds b.mu.
func (b *Backend) checkDecryptable(scope core.Scope, q *queue, now time.Time) error {
	for _, m := range q.messages {
		if m.key == "" || now.Before(m.delayedUntil) || now.Before(m.invisibleUntil) {
			continue
		}
		if err := b.keys.Usable(scope, m.key); err != nil {
			return kmsError(err)
		}
	}
	return nil
}
