package kms

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"sort"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Limits of the cryptographic operations (API reference: Encrypt, Plaintext; Decrypt,
// CiphertextBlob; GenerateDataKey, NumberOfBytes).
const (
	maxPlaintext  = 4096
	maxCiphertext = 6144
	maxDataKey    = 1024
)

// blobMagic begins every ciphertext blob the emulator makes, so that Decrypt recognizes its
// own. AWS's symmetric ciphertext blobs are opaque too, and carry the key ID the same way: the
// emulator's blob is blobMagic, the length and bytes of the key ID, a 12-byte nonce and the
// AES-256-GCM sealed plaintext, whose additional data binds the key ID and the encryption
// context.
var blobMagic = []byte("EKMS")

// errBlob is what a ciphertext blob that is not one of the emulator's parses to.
var errBlob = errors.New("not a ciphertext blob of the emulator")

// blob is a parsed ciphertext blob.
type blob struct {
	// keyID is the key ID of the key that sealed the blob.
	keyID string
	// nonce is the AES-GCM nonce.
	nonce []byte
	// sealed is the ciphertext with its authentication tag.
	sealed []byte
}

// parseBlob splits a ciphertext blob into its parts.
func parseBlob(b []byte) (blob, error) {
	if !bytes.HasPrefix(b, blobMagic) || len(b) < len(blobMagic)+1 {
		return blob{}, errBlob
	}
	b = b[len(blobMagic):]
	n := int(b[0])
	if len(b) < 1+n+12+16 {
		return blob{}, errBlob
	}
	return blob{keyID: string(b[1 : 1+n]), nonce: b[1+n : 1+n+12], sealed: b[1+n+12:]}, nil
}

// additionalData returns the additional authenticated data of a ciphertext: the key ID and the
// encryption context, its pairs sorted by key, every string preceded by its length.
func additionalData(keyID string, context map[string]string) []byte {
	var b bytes.Buffer
	put := func(s string) {
		b.Write(binary.AppendUvarint(nil, uint64(len(s))))
		b.WriteString(s)
	}
	put(keyID)
	keys := make([]string, 0, len(context))
	for k := range context {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		put(k)
		put(context[k])
	}
	return b.Bytes()
}

// aead returns the AES-256-GCM cipher of a key's material.
func (m *material) aead() cipher.AEAD {
	block, err := aes.NewCipher(m.secret)
	if err != nil {
		panic(err) // the secret is always 32 bytes
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return gcm
}

// seal encrypts plaintext under k with an encryption context and returns the ciphertext blob.
func (k *key) seal(plaintext []byte, context map[string]string) []byte {
	nonce := make([]byte, 12)
	_, _ = rand.Read(nonce)
	out := append(append(append([]byte{}, blobMagic...), byte(len(k.id))), k.id...)
	out = append(out, nonce...)
	return k.material.aead().Seal(out, nonce, plaintext, additionalData(k.id, context))
}

// open decrypts a parsed ciphertext blob of k, or answers InvalidCiphertextException when the
// blob or the encryption context is not the one it was sealed with.
func (k *key) open(b blob, context map[string]string) ([]byte, error) {
	plaintext, err := k.material.aead().Open(nil, b.nonce, b.sealed, additionalData(k.id, context))
	if err != nil {
		return nil, invalidCiphertext()
	}
	return plaintext, nil
}

// invalidCiphertext is KMS's InvalidCiphertextException, which it answers without saying more
// about the ciphertext.
func invalidCiphertext() *core.APIError {
	return core.Errorf("InvalidCiphertextException", "")
}

// noSuchCiphertextKey is AWS's answer to a ciphertext whose key does not exist in the caller's
// account and Region.
func noSuchCiphertextKey() *core.APIError {
	return core.Errorf("AccessDeniedException",
		"The ciphertext refers to a customer master key that does not exist, does not exist in this region, or you are not allowed to access.")
}

// dryRun is KMS's answer to a request with DryRun set that would have succeeded.
func dryRun(on *bool) error {
	if aws.ToBool(on) {
		return core.Errorf("DryRunOperationException", "The request would have succeeded, but the DryRun option is set.")
	}
	return nil
}

// encryptsWith returns nil when a cryptographic operation may use k: a key whose state allows
// it (DisabledException, KMSInvalidStateException otherwise), whose key usage is
// ENCRYPT_DECRYPT (InvalidKeyUsageException otherwise) and which is a symmetric encryption key,
// the only kind the emulator encrypts with. Data keys need a symmetric encryption key on AWS too
// (GenerateDataKey), so for those an asymmetric key answers InvalidKeyUsageException.
func (k *key) encryptsWith(operation string) error {
	if err := k.usable(); err != nil {
		return err
	}
	switch {
	case k.usage != usageEncrypt:
		return invalidKeyUsage(k, operation)
	case k.symmetricEncryption():
		return nil
	case operation == "Encrypt" || operation == "Decrypt":
		return unsupported("The emulator encrypts with symmetric encryption KMS keys only; %s is a %s key.", k.arn, k.spec)
	}
	return invalidKeyUsage(k, operation)
}

// checkAlgorithm returns the error for an EncryptionAlgorithm a symmetric encryption key does
// not support.
func checkAlgorithm(algorithm types.EncryptionAlgorithmSpec, k *key) error {
	if algorithm == "" || algorithm == types.EncryptionAlgorithmSpecSymmetricDefault {
		return nil
	}
	var known []string
	for _, a := range types.EncryptionAlgorithmSpec("").Values() {
		known = append(known, string(a))
		if a == algorithm {
			return core.Errorf("InvalidKeyUsageException", "Algorithm %s is incompatible with key spec %s.", algorithm, k.spec)
		}
	}
	return enumError("encryptionAlgorithm", string(algorithm), known)
}

// checkBlob returns the ValidationException KMS answers a binary parameter (member) that is
// empty or longer than max bytes.
func checkBlob(member string, blob []byte, max int) error {
	switch n := len(blob); {
	case n == 0:
		return validation("1 validation error detected: Value at '%s' failed to satisfy constraint: Member must have length greater than or equal to 1", member)
	case n > max:
		return validation("1 validation error detected: Value at '%s' failed to satisfy constraint: Member must have length less than or equal to %d", member, max)
	}
	return nil
}

// encrypt encrypts up to 4096 bytes under a symmetric encryption key (Encrypt).
func (b *Backend) encrypt(call *core.Call, in *kms.EncryptInput) (*kms.EncryptOutput, error) {
	if err := checkBlob("plaintext", in.Plaintext, maxPlaintext); err != nil {
		return nil, err
	}
	return withKey(b, call, in.KeyId, true, func(k *key) (*kms.EncryptOutput, error) {
		if err := k.encryptsWith("Encrypt"); err != nil {
			return nil, err
		}
		if err := checkAlgorithm(in.EncryptionAlgorithm, k); err != nil {
			return nil, err
		}
		if err := dryRun(in.DryRun); err != nil {
			return nil, err
		}
		return &kms.EncryptOutput{CiphertextBlob: k.seal(in.Plaintext, in.EncryptionContext), KeyId: aws.String(k.arn),
			EncryptionAlgorithm: types.EncryptionAlgorithmSpecSymmetricDefault}, nil
	})
}

// decrypt decrypts a ciphertext blob of Encrypt or GenerateDataKey, finding the key from the blob (Decrypt).
func (b *Backend) decrypt(call *core.Call, in *kms.DecryptInput) (*kms.DecryptOutput, error) {
	if err := checkBlob("ciphertextBlob", in.CiphertextBlob, maxCiphertext); err != nil {
		return nil, err
	}
	return inRegion(b, call, func(r *region) (*kms.DecryptOutput, error) {
		var named *key
		if in.KeyId != nil {
			k, err := b.resolve(r, call.Now, *in.KeyId, true)
			if err != nil {
				return nil, err
			}
			named = k
		}
		parsed, err := parseBlob(in.CiphertextBlob)
		if err != nil {
			return nil, invalidCiphertext()
		}
		k, ok := r.keys[parsed.keyID]
		switch {
		case named != nil && (!ok || named != k):
			return nil, core.Errorf("IncorrectKeyException", "The key ID in the request does not identify a KMS key that can perform this operation.")
		case !ok:
			return nil, noSuchCiphertextKey()
		}
		if err := k.encryptsWith("Decrypt"); err != nil {
			return nil, err
		}
		if err := checkAlgorithm(in.EncryptionAlgorithm, k); err != nil {
			return nil, err
		}
		plaintext, err := k.open(parsed, in.EncryptionContext)
		if err != nil {
			return nil, err
		}
		if err := dryRun(in.DryRun); err != nil {
			return nil, err
		}
		return &kms.DecryptOutput{Plaintext: plaintext, KeyId: aws.String(k.arn), KeyMaterialId: aws.String(k.material.id),
			EncryptionAlgorithm: types.EncryptionAlgorithmSpecSymmetricDefault}, nil
	})
}

// dataKeyLength returns the length in bytes of the data key a GenerateDataKey request asks
// for: by KeySpec (AES_128, AES_256) or NumberOfBytes (1 to 1024), exactly one of them.
func dataKeyLength(spec types.DataKeySpec, number *int32) (int, error) {
	switch {
	case spec != "" && number != nil, spec == "" && number == nil:
		return 0, validation("Please specify either number of bytes or key spec.")
	case number != nil && *number < 1:
		return 0, tooSmall("numberOfBytes", *number, 1)
	case number != nil && *number > maxDataKey:
		return 0, tooLarge("numberOfBytes", *number, maxDataKey)
	case number != nil:
		return int(*number), nil
	case spec == types.DataKeySpecAes128:
		return 16, nil
	case spec == types.DataKeySpecAes256:
		return 32, nil
	}
	return 0, enumError("keySpec", string(spec), []string{string(types.DataKeySpecAes256), string(types.DataKeySpecAes128)})
}

// dataKey makes a data key under the key ref names, holding b.mu, and answers it as
// GenerateDataKey does: in plaintext and encrypted under the key.
func (b *Backend) dataKey(call *core.Call, ref string, spec types.DataKeySpec, length *int32, context map[string]string, dry *bool, operation string) (*kms.GenerateDataKeyOutput, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := dataKeyLength(spec, length)
	if err != nil {
		return nil, err
	}
	_, k, err := b.lookup(call, ref, true)
	if err != nil {
		return nil, err
	}
	if err := k.encryptsWith(operation); err != nil {
		return nil, err
	}
	if err := dryRun(dry); err != nil {
		return nil, err
	}
	plaintext := make([]byte, n)
	_, _ = rand.Read(plaintext)
	return &kms.GenerateDataKeyOutput{Plaintext: plaintext, CiphertextBlob: k.seal(plaintext, context), KeyId: aws.String(k.arn), KeyMaterialId: aws.String(k.material.id)}, nil
}

// generateDataKey makes a data key and answers it in plaintext and encrypted under a key (GenerateDataKey).
func (b *Backend) generateDataKey(call *core.Call, in *kms.GenerateDataKeyInput) (*kms.GenerateDataKeyOutput, error) {
	return b.dataKey(call, aws.ToString(in.KeyId), in.KeySpec, in.NumberOfBytes, in.EncryptionContext, in.DryRun, "GenerateDataKey")
}

// generateDataKeyWithoutPlaintext makes a data key and answers it encrypted under a key only (GenerateDataKeyWithoutPlaintext).
func (b *Backend) generateDataKeyWithoutPlaintext(call *core.Call, in *kms.GenerateDataKeyWithoutPlaintextInput) (*kms.GenerateDataKeyWithoutPlaintextOutput, error) {
	d, err := b.dataKey(call, aws.ToString(in.KeyId), in.KeySpec, in.NumberOfBytes, in.EncryptionContext, in.DryRun, "GenerateDataKeyWithoutPlaintext")
	if err != nil {
		return nil, err
	}
	return &kms.GenerateDataKeyWithoutPlaintextOutput{CiphertextBlob: d.CiphertextBlob, KeyId: d.KeyId, KeyMaterialId: d.KeyMaterialId}, nil
}
