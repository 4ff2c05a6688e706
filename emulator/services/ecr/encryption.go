package ecr

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// encryption returns the encryption configuration a repository is created with: AES256 when the
// request gives none; for KMS and KMS_DSSE, the key it names, checked against the emulated KMS
// and kept as its key ARN, or no key (AWS's managed key aws/ecr, which the emulator does not
// name) when it names none.
func (b *Backend) encryption(call *core.Call, in *types.EncryptionConfiguration) (types.EncryptionConfiguration, error) {
	if in == nil {
		return types.EncryptionConfiguration{EncryptionType: types.EncryptionTypeAes256}, nil
	}
	t := in.EncryptionType
	if !slices.Contains(t.Values(), t) {
		return types.EncryptionConfiguration{}, invalidParameter("encryptionConfiguration.encryptionType",
			"must be one of "+strings.Join(enumStrings(t.Values()), ", "))
	}
	if in.KmsKey == nil {
		return types.EncryptionConfiguration{EncryptionType: t}, nil
	}
	if t == types.EncryptionTypeAes256 {
		return types.EncryptionConfiguration{}, invalidParameter("encryptionConfiguration.kmsKey",
			"kmsKey can only be specified when encryptionType is KMS or KMS_DSSE")
	}
	key := aws.ToString(in.KmsKey)
	if err := b.keys.Usable(call.Scope(), key); err != nil {
		return types.EncryptionConfiguration{}, kmsError(err)
	}
	arn, err := b.keys.KeyARN(call.Scope(), key)
	if err != nil {
		return types.EncryptionConfiguration{}, kmsError(err)
	}
	return types.EncryptionConfiguration{EncryptionType: t, KmsKey: aws.String(arn)}, nil
}

// kmsError is ECR's KmsException wrapping what KMS answered about a key.
func kmsError(err error) error {
	code, message, ok := core.KeyError(err)
	if !ok {
		return err
	}
	return core.Errorf("KmsException", "The operation failed due to a KMS exception: %s: %s", code, message)
}
