package emulator_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
)

// TestKMSEncryptDecrypt checks that Decrypt finds the key from the ciphertext blob alone, that
// the encryption context binds the ciphertext, and AWS's errors for ciphertexts and keys that
// cannot decrypt.
func TestKMSEncryptDecrypt(t *testing.T) {
	e, c := kmsClient(t)
	ctx := context.Background()
	m := newKey(t, c, nil)
	if _, err := c.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/secrets"), TargetKeyId: m.KeyId}); err != nil {
		t.Fatal(err)
	}
	context1 := map[string]string{"tenant": "a", "purpose": "test"}
	enc, err := c.Encrypt(ctx, &kms.EncryptInput{KeyId: aws.String("alias/secrets"), Plaintext: []byte("hunter2"), EncryptionContext: context1})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(enc.KeyId) != aws.ToString(m.Arn) || enc.EncryptionAlgorithm != kmstypes.EncryptionAlgorithmSpecSymmetricDefault {
		t.Errorf("Encrypt answered key %s, algorithm %s; want the key ARN and SYMMETRIC_DEFAULT", aws.ToString(enc.KeyId), enc.EncryptionAlgorithm)
	}
	dec, err := c.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob, EncryptionContext: context1})
	if err != nil {
		t.Fatal(err)
	}
	if string(dec.Plaintext) != "hunter2" || aws.ToString(dec.KeyId) != aws.ToString(m.Arn) || aws.ToString(dec.KeyMaterialId) != aws.ToString(m.CurrentKeyMaterialId) {
		t.Errorf("Decrypt = %q with key %s material %s", dec.Plaintext, aws.ToString(dec.KeyId), aws.ToString(dec.KeyMaterialId))
	}
	other := newKey(t, c, nil)
	tampered := bytes.Clone(enc.CiphertextBlob)
	tampered[len(tampered)-1] ^= 1
	cases := map[string]struct {
		in   kms.DecryptInput
		want string
	}{
		"WithKeyID":      {kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob, EncryptionContext: context1, KeyId: m.KeyId}, ""},
		"WithAlias":      {kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob, EncryptionContext: context1, KeyId: aws.String("alias/secrets")}, ""},
		"WrongKey":       {kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob, EncryptionContext: context1, KeyId: other.KeyId}, "IncorrectKeyException"},
		"UnknownKey":     {kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob, EncryptionContext: context1, KeyId: aws.String("alias/none")}, "NotFoundException"},
		"NoContext":      {kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob}, "InvalidCiphertextException"},
		"OtherContext":   {kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob, EncryptionContext: map[string]string{"tenant": "b", "purpose": "test"}}, "InvalidCiphertextException"},
		"Tampered":       {kms.DecryptInput{CiphertextBlob: tampered, EncryptionContext: context1}, "InvalidCiphertextException"},
		"NotACiphertext": {kms.DecryptInput{CiphertextBlob: []byte("definitely not a ciphertext blob")}, "InvalidCiphertextException"},
		"Algorithm":      {kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob, EncryptionContext: context1, EncryptionAlgorithm: kmstypes.EncryptionAlgorithmSpecRsaesOaepSha256}, "InvalidKeyUsageException"},
		"DryRun":         {kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob, EncryptionContext: context1, DryRun: aws.Bool(true)}, "DryRunOperationException"},
	}
	for name, tc := range cases {
		if _, err := c.Decrypt(ctx, &tc.in); errorCode(err) != tc.want {
			t.Errorf("Decrypt %s: %v, want %q", name, err, tc.want)
		}
	}
	sign := newKey(t, c, &kms.CreateKeyInput{KeySpec: kmstypes.KeySpecEccNistP256, KeyUsage: kmstypes.KeyUsageTypeSignVerify})
	rsa := newKey(t, c, &kms.CreateKeyInput{KeySpec: kmstypes.KeySpecRsa2048, KeyUsage: kmstypes.KeyUsageTypeEncryptDecrypt})
	encrypt := map[string]struct {
		in   kms.EncryptInput
		want string
	}{
		"Empty":       {kms.EncryptInput{KeyId: m.KeyId, Plaintext: []byte{}}, "ValidationException"},
		"TooLong":     {kms.EncryptInput{KeyId: m.KeyId, Plaintext: make([]byte, 4097)}, "ValidationException"},
		"Longest":     {kms.EncryptInput{KeyId: m.KeyId, Plaintext: make([]byte, 4096)}, ""},
		"SigningKey":  {kms.EncryptInput{KeyId: sign.KeyId, Plaintext: []byte("x")}, "InvalidKeyUsageException"},
		"RSAKey":      {kms.EncryptInput{KeyId: rsa.KeyId, Plaintext: []byte("x"), EncryptionAlgorithm: kmstypes.EncryptionAlgorithmSpecRsaesOaepSha256}, "UnsupportedOperationException"},
		"UnknownKey":  {kms.EncryptInput{KeyId: aws.String("alias/none"), Plaintext: []byte("x")}, "NotFoundException"},
		"DryRun":      {kms.EncryptInput{KeyId: m.KeyId, Plaintext: []byte("x"), DryRun: aws.Bool(true)}, "DryRunOperationException"},
		"RSAAlgoSymm": {kms.EncryptInput{KeyId: m.KeyId, Plaintext: []byte("x"), EncryptionAlgorithm: kmstypes.EncryptionAlgorithmSpecRsaesOaepSha1}, "InvalidKeyUsageException"},
	}
	for name, tc := range encrypt {
		if _, err := c.Encrypt(ctx, &tc.in); errorCode(err) != tc.want {
			t.Errorf("Encrypt %s: %v, want %q", name, err, tc.want)
		}
	}
	if _, err := c.DisableKey(ctx, &kms.DisableKeyInput{KeyId: m.KeyId}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob, EncryptionContext: context1}); errorCode(err) != "DisabledException" {
		t.Errorf("decrypting under a disabled key: %v, want DisabledException", err)
	}
	if _, err := c.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: m.KeyId, PendingWindowInDays: aws.Int32(7)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob, EncryptionContext: context1}); errorCode(err) != "KMSInvalidStateException" {
		t.Errorf("decrypting under a key pending deletion: %v, want KMSInvalidStateException", err)
	}
	e.Clock.Advance(7 * 24 * time.Hour)
	if _, err := c.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: enc.CiphertextBlob, EncryptionContext: context1}); errorCode(err) != "AccessDeniedException" {
		t.Errorf("decrypting under a deleted key: %v, want AccessDeniedException", err)
	}
}

// TestKMSGenerateDataKey checks data keys: their length by KeySpec or NumberOfBytes, a
// ciphertext Decrypt opens to the same plaintext, and the keys that cannot make them.
func TestKMSGenerateDataKey(t *testing.T) {
	_, c := kmsClient(t)
	ctx := context.Background()
	m := newKey(t, c, nil)
	for name, tc := range map[string]struct {
		spec   kmstypes.DataKeySpec
		number *int32
		length int
	}{
		"AES256": {kmstypes.DataKeySpecAes256, nil, 32},
		"AES128": {kmstypes.DataKeySpecAes128, nil, 16},
		"Bytes":  {"", aws.Int32(64), 64},
	} {
		out, err := c.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{KeyId: m.Arn, KeySpec: tc.spec, NumberOfBytes: tc.number,
			EncryptionContext: map[string]string{"bucket": "b"}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(out.Plaintext) != tc.length || aws.ToString(out.KeyId) != aws.ToString(m.Arn) {
			t.Errorf("%s: a data key of %d bytes under %s, want %d bytes under the key ARN", name, len(out.Plaintext), aws.ToString(out.KeyId), tc.length)
		}
		dec, err := c.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: out.CiphertextBlob, EncryptionContext: map[string]string{"bucket": "b"}})
		if err != nil || !bytes.Equal(dec.Plaintext, out.Plaintext) {
			t.Errorf("%s: decrypting the data key = %v, %v; want the plaintext data key", name, dec, err)
		}
	}
	without, err := c.GenerateDataKeyWithoutPlaintext(ctx, &kms.GenerateDataKeyWithoutPlaintextInput{KeyId: m.KeyId, KeySpec: kmstypes.DataKeySpecAes256})
	if err != nil {
		t.Fatal(err)
	}
	if dec, err := c.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: without.CiphertextBlob}); err != nil || len(dec.Plaintext) != 32 {
		t.Errorf("decrypting a data key made without plaintext = %v, %v", dec, err)
	}
	rsa := newKey(t, c, &kms.CreateKeyInput{KeySpec: kmstypes.KeySpecRsa2048, KeyUsage: kmstypes.KeyUsageTypeEncryptDecrypt})
	hmac := newKey(t, c, &kms.CreateKeyInput{KeySpec: kmstypes.KeySpecHmac224, KeyUsage: kmstypes.KeyUsageTypeGenerateVerifyMac})
	for name, tc := range map[string]struct {
		in   kms.GenerateDataKeyInput
		want string
	}{
		"Neither":   {kms.GenerateDataKeyInput{KeyId: m.KeyId}, "ValidationException"},
		"Both":      {kms.GenerateDataKeyInput{KeyId: m.KeyId, KeySpec: kmstypes.DataKeySpecAes256, NumberOfBytes: aws.Int32(32)}, "ValidationException"},
		"TooMany":   {kms.GenerateDataKeyInput{KeyId: m.KeyId, NumberOfBytes: aws.Int32(1025)}, "ValidationException"},
		"Zero":      {kms.GenerateDataKeyInput{KeyId: m.KeyId, NumberOfBytes: aws.Int32(0)}, "ValidationException"},
		"BadSpec":   {kms.GenerateDataKeyInput{KeyId: m.KeyId, KeySpec: "AES_512"}, "ValidationException"},
		"RSAKey":    {kms.GenerateDataKeyInput{KeyId: rsa.KeyId, KeySpec: kmstypes.DataKeySpecAes256}, "InvalidKeyUsageException"},
		"HMACKey":   {kms.GenerateDataKeyInput{KeyId: hmac.KeyId, KeySpec: kmstypes.DataKeySpecAes256}, "InvalidKeyUsageException"},
		"DryRun":    {kms.GenerateDataKeyInput{KeyId: m.KeyId, KeySpec: kmstypes.DataKeySpecAes256, DryRun: aws.Bool(true)}, "DryRunOperationException"},
		"NoSuchKey": {kms.GenerateDataKeyInput{KeyId: aws.String("alias/none"), KeySpec: kmstypes.DataKeySpecAes256}, "NotFoundException"},
	} {
		if _, err := c.GenerateDataKey(ctx, &tc.in); errorCode(err) != tc.want {
			t.Errorf("GenerateDataKey %s: %v, want %q", name, err, tc.want)
		}
	}
}
