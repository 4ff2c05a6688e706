package kms

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/kms/types"
)

// The key usages, key spec, key states and key managers the emulator refers to by name.
const (
	usageEncrypt  = types.KeyUsageTypeEncryptDecrypt
	usageSign     = types.KeyUsageTypeSignVerify
	usageMAC      = types.KeyUsageTypeGenerateVerifyMac
	usageAgree    = types.KeyUsageTypeKeyAgreement
	usageEncap    = types.KeyUsageTypeEncapsulateDecapsulate
	specSymmetric = types.KeySpecSymmetricDefault

	stateEnabled         = types.KeyStateEnabled
	stateDisabled        = types.KeyStateDisabled
	statePendingDeletion = types.KeyStatePendingDeletion
	stateReplicaDeletion = types.KeyStatePendingReplicaDeletion

	managerAWS      = types.KeyManagerTypeAws
	managerCustomer = types.KeyManagerTypeCustomer
)

// algorithms are the cryptographic algorithms a key of one spec and usage supports, as
// DescribeKey reports them.
type algorithms struct {
	// encryption are the EncryptionAlgorithms of ENCRYPT_DECRYPT keys.
	encryption []types.EncryptionAlgorithmSpec
	// signing are the SigningAlgorithms of SIGN_VERIFY keys.
	signing []types.SigningAlgorithmSpec
	// mac are the MacAlgorithms of GENERATE_VERIFY_MAC keys.
	mac []types.MacAlgorithmSpec
	// agreement are the KeyAgreementAlgorithms of KEY_AGREEMENT keys.
	agreement []types.KeyAgreementAlgorithmSpec
	// encapsulation are the EncapsulationAlgorithms of ENCAPSULATE_DECAPSULATE keys.
	encapsulation []types.EncapsulationAlgorithmSpec
}

// specUsages lists, for every key spec, the key usages AWS allows with it (CreateKey, KeyUsage;
// Key spec reference in the AWS KMS Developer Guide): symmetric encryption keys encrypt, HMAC
// keys make MACs, RSA keys encrypt or sign, NIST elliptic curve keys sign or agree keys,
// secp256k1, Ed25519 and ML-DSA keys sign, ML-KEM keys encapsulate, and SM2 keys (China Regions
// only) encrypt, sign or agree keys.
var specUsages = map[types.KeySpec][]types.KeyUsageType{
	types.KeySpecSymmetricDefault:    {usageEncrypt},
	types.KeySpecHmac224:             {usageMAC},
	types.KeySpecHmac256:             {usageMAC},
	types.KeySpecHmac384:             {usageMAC},
	types.KeySpecHmac512:             {usageMAC},
	types.KeySpecRsa2048:             {usageEncrypt, usageSign},
	types.KeySpecRsa3072:             {usageEncrypt, usageSign},
	types.KeySpecRsa4096:             {usageEncrypt, usageSign},
	types.KeySpecEccNistP256:         {usageSign, usageAgree},
	types.KeySpecEccNistP384:         {usageSign, usageAgree},
	types.KeySpecEccNistP521:         {usageSign, usageAgree},
	types.KeySpecEccSecgP256k1:       {usageSign},
	types.KeySpecEccNistEdwards25519: {usageSign},
	types.KeySpecMlDsa44:             {usageSign},
	types.KeySpecMlDsa65:             {usageSign},
	types.KeySpecMlDsa87:             {usageSign},
	types.KeySpecMlKem512:            {usageEncap},
	types.KeySpecMlKem768:            {usageEncap},
	types.KeySpecMlKem1024:           {usageEncap},
	types.KeySpecSm2:                 {usageEncrypt, usageSign, usageAgree},
}

// checkSpecUsage returns the key usage a CreateKey request gets for spec (ENCRYPT_DECRYPT when
// it names none for a symmetric encryption key), or AWS's ValidationException when it names
// none for another spec or one the spec does not allow.
func checkSpecUsage(spec types.KeySpec, usage types.KeyUsageType) (types.KeyUsageType, error) {
	if usage == "" {
		if spec != specSymmetric {
			return "", validation("You must specify a KeyUsage value for all KMS keys except for symmetric encryption keys.")
		}
		return usageEncrypt, nil
	}
	for _, u := range specUsages[spec] {
		if u == usage {
			return usage, nil
		}
	}
	return "", validation("KeyUsage %s is not compatible with KeySpec %s", usage, spec)
}

// algorithmsOf returns the algorithms a key of spec and usage supports (DescribeKey,
// KeyMetadata; Key spec reference).
func algorithmsOf(spec types.KeySpec, usage types.KeyUsageType) algorithms {
	var a algorithms
	s := string(spec)
	switch usage {
	case usageEncrypt:
		switch {
		case spec == specSymmetric:
			a.encryption = []types.EncryptionAlgorithmSpec{types.EncryptionAlgorithmSpecSymmetricDefault}
		case spec == types.KeySpecSm2:
			a.encryption = []types.EncryptionAlgorithmSpec{types.EncryptionAlgorithmSpecSm2pke}
		default:
			a.encryption = []types.EncryptionAlgorithmSpec{types.EncryptionAlgorithmSpecRsaesOaepSha1, types.EncryptionAlgorithmSpecRsaesOaepSha256}
		}
	case usageSign:
		switch {
		case strings.HasPrefix(s, "RSA_"):
			a.signing = []types.SigningAlgorithmSpec{
				types.SigningAlgorithmSpecRsassaPkcs1V15Sha256, types.SigningAlgorithmSpecRsassaPkcs1V15Sha384,
				types.SigningAlgorithmSpecRsassaPkcs1V15Sha512, types.SigningAlgorithmSpecRsassaPssSha256,
				types.SigningAlgorithmSpecRsassaPssSha384, types.SigningAlgorithmSpecRsassaPssSha512}
		case spec == types.KeySpecEccNistP384:
			a.signing = []types.SigningAlgorithmSpec{types.SigningAlgorithmSpecEcdsaSha384}
		case spec == types.KeySpecEccNistP521:
			a.signing = []types.SigningAlgorithmSpec{types.SigningAlgorithmSpecEcdsaSha512}
		case spec == types.KeySpecEccNistP256 || spec == types.KeySpecEccSecgP256k1:
			a.signing = []types.SigningAlgorithmSpec{types.SigningAlgorithmSpecEcdsaSha256}
		case spec == types.KeySpecEccNistEdwards25519:
			a.signing = []types.SigningAlgorithmSpec{types.SigningAlgorithmSpecEd25519Sha512, types.SigningAlgorithmSpecEd25519PhSha512}
		case strings.HasPrefix(s, "ML_DSA_"):
			a.signing = []types.SigningAlgorithmSpec{types.SigningAlgorithmSpecMlDsaShake256}
		case spec == types.KeySpecSm2:
			a.signing = []types.SigningAlgorithmSpec{types.SigningAlgorithmSpecSm2dsa}
		}
	case usageMAC:
		a.mac = []types.MacAlgorithmSpec{types.MacAlgorithmSpec("HMAC_SHA_" + strings.TrimPrefix(s, "HMAC_"))}
	case usageAgree:
		a.agreement = []types.KeyAgreementAlgorithmSpec{types.KeyAgreementAlgorithmSpecEcdh}
	case usageEncap:
		a.encapsulation = []types.EncapsulationAlgorithmSpec{types.EncapsulationAlgorithmSpecMlKem}
	}
	return a
}

// keySpecs returns every key spec AWS knows, for the ValidationException of an unknown one.
func keySpecs() []string {
	out := make([]string, 0, len(specUsages))
	for _, s := range types.KeySpec("").Values() {
		out = append(out, string(s))
	}
	return out
}

// keyUsages returns every key usage AWS knows.
func keyUsages() []string {
	var out []string
	for _, u := range types.KeyUsageType("").Values() {
		out = append(out, string(u))
	}
	return out
}

// symmetricEncryption reports whether k is a symmetric encryption key, the only kind the
// emulator encrypts with and the only kind with automatic rotation.
func (k *key) symmetricEncryption() bool { return k.spec == specSymmetric && k.usage == usageEncrypt }
