package dynamodb

import (
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// awsManagedKey is the KMS key DynamoDB encrypts with when SSE is enabled without a key: the AWS
// managed key of DynamoDB, which KMS makes on first use.
const awsManagedKey = "alias/aws/dynamodb"

// sseDescription returns what SSESpecification s makes of a table's encryption: nil for the AWS
// owned key (Enabled false), or SSE-KMS with the key ARN of its KMS key (the AWS managed key
// aws/dynamodb when it names none). DynamoDB creates a grant on the key before it accepts
// CreateTable or UpdateTable, so a key that could not encrypt now refuses the call with
// DynamoDB's wrapping of KMS's answer (kmsError).
func (b *Backend) sseDescription(call *core.Call, s *types.SSESpecification) (*types.SSEDescription, error) {
	if !aws.ToBool(s.Enabled) {
		return nil, nil
	}
	key := aws.ToString(s.KMSMasterKeyId)
	if key == "" {
		key = awsManagedKey
	}
	if err := b.keys.Usable(call.Scope(), key); err != nil {
		return nil, kmsError(call, err)
	}
	arn, err := b.keys.KeyARN(call.Scope(), key)
	if err != nil {
		return nil, kmsError(call, err)
	}
	return &types.SSEDescription{Status: types.SSEStatusEnabled, SSEType: types.SSETypeKms, KMSMasterKeyArn: aws.String(arn)}, nil
}

// kmsError is DynamoDB's answer when KMS refuses a table's key, as observed on AWS: a
// ValidationException whose message quotes KMS's Java exception ("KMS key disabled error: ...
// DisabledException: <key ARN> is disabled. (Service: AWSKMS; ...)", "KMS validation error: ...
// NotFoundException: Key '<key ARN>' does not exist (...)", the same for KMSInvalidStateException),
// and an InternalServerError (HTTP 500) for a key that is no symmetric encryption key, on which
// KMS refuses the grant's encryption context.
func kmsError(call *core.Call, err error) error {
	code, message, ok := core.KeyError(err)
	if !ok {
		return err
	}
	// kms quotes an exception of KMS's Java model as DynamoDB does.
	kms := func(exception, message, errorCode string) string {
		return fmt.Sprintf("com.amazonaws.services.kms.model.%s: %s (Service: AWSKMS; Status Code: 400; Error Code: %s; Request ID: %s; Proxy: null)",
			exception, message, errorCode, call.RequestID)
	}
	switch code {
	case "InvalidKeyUsageException":
		return &core.APIError{Code: "InternalServerError", Status: http.StatusInternalServerError, Server: true,
			Message: "KMS internal error: " + kms("AWSKMSException",
				"EncryptionContext is supported only when creating a grant for a symmetric encryption KMS key.", "ValidationException")}
	case "DisabledException":
		return validation("KMS key disabled error: %s", kms(code, message, code))
	}
	return validation("KMS validation error: %s", kms(code, message, code))
}
