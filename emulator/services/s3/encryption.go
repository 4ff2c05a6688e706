package s3

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// awsManagedKey is the KMS key S3 encrypts with under aws:kms when no key is named: the AWS
// managed key of S3, which KMS makes on first use.
const awsManagedKey = "alias/aws/s3"

// isKMS reports whether an algorithm encrypts with a KMS key (SSE-KMS or DSSE-KMS).
func isKMS(a types.ServerSideEncryption) bool {
	return a == types.ServerSideEncryptionAwsKms || a == types.ServerSideEncryptionAwsKmsDsse
}

// encryption is how one object is encrypted: its algorithm and, under SSE-KMS, the ARN of its
// KMS key.
type encryption struct {
	algorithm types.ServerSideEncryption
	keyARN    string
}

// objectEncryption decides how PutObject encrypts an object in bk, as S3 does: by the request's
// x-amz-server-side-encryption headers, or else by the bucket's default encryption (SSE-S3 for
// a bucket without one). Under SSE-KMS, S3 asks KMS for a data key when it stores the object
// (PutBucketEncryption does not check the key), so a key that could not encrypt now refuses
// the object with KMS's error code behind "KMS." and KMS's message. The caller holds b.mu.
func (b *Backend) objectEncryption(bk *bucket, in *s3.PutObjectInput) (encryption, error) {
	algorithm, key := in.ServerSideEncryption, aws.ToString(in.SSEKMSKeyId)
	switch {
	case key != "" && !isKMS(algorithm):
		return encryption{}, core.Errorf("InvalidArgument",
			"Server Side Encryption with AWS KMS managed key requires HTTP header x-amz-server-side-encryption : aws:kms")
	case algorithm == "":
		rule := defaultEncryption()
		if bk.encryption != nil {
			rule = bk.encryption
		}
		d := rule.Rules[0].ApplyServerSideEncryptionByDefault
		algorithm, key = d.SSEAlgorithm, aws.ToString(d.KMSMasterKeyID)
	case algorithm != types.ServerSideEncryptionAes256 && !isKMS(algorithm):
		return encryption{}, core.Errorf("InvalidArgument", "The encryption method specified is not supported")
	}
	if !isKMS(algorithm) {
		return encryption{algorithm: algorithm}, nil
	}
	if key == "" {
		key = awsManagedKey
	}
	scope := core.Scope{Account: bk.owner, Region: bk.region}
	if err := b.keys.Usable(scope, key); err != nil {
		return encryption{}, kmsError(err)
	}
	arn, err := b.keys.KeyARN(scope, key)
	if err != nil {
		return encryption{}, kmsError(err)
	}
	return encryption{algorithm: algorithm, keyARN: arn}, nil
}

// kmsError is S3's error for KMS's answer about a key: KMS's code behind "KMS." (for example
// KMS.DisabledException), with KMS's message.
func kmsError(err error) error {
	code, message, ok := core.KeyError(err)
	if !ok {
		return err
	}
	return core.Errorf("KMS."+code, "%s", message)
}

// optional returns s as an optional string: nil when it is empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}
