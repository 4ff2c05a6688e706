package sns

import (
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// kmsErrors are the SNS errors that stand for KMS's answers when SNS asks KMS for a data key to
// encrypt a message (Publish models them). SNS models no error for a key that is no symmetric
// encryption key; the emulator answers KMSInvalidState for it, the closest one.
var kmsErrors = map[string]string{
	"NotFoundException":        "KMSNotFound",
	"DisabledException":        "KMSDisabled",
	"KMSInvalidStateException": "KMSInvalidState",
	"InvalidKeyUsageException": "KMSInvalidState",
}

// checkEncryptionKey returns SNS's KMS error, with KMS's message, when t is encrypted with a KMS
// key that could not encrypt a message now. SNS asks KMS only when it publishes: the topic was
// created or changed with the key unchecked, as on AWS. The caller holds b.mu.
func (b *Backend) checkEncryptionKey(t *topic) error {
	id := t.attrs["KmsMasterKeyId"]
	if id == "" {
		return nil
	}
	err := b.keys.Usable(topicScope(t.arn), id)
	code, message, ok := core.KeyError(err)
	if !ok {
		return err
	}
	if snsCode, known := kmsErrors[code]; known {
		return core.Errorf(snsCode, "%s", message)
	}
	return err
}

// topicScope returns the account and Region of a topic ARN
// (arn:aws:sns:Region:account:name).
func topicScope(arn string) core.Scope {
	parts := strings.SplitN(arn, ":", 6)
	return core.Scope{Region: parts[3], Account: parts[4]}
}
