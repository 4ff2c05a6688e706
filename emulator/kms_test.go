package emulator_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// kmsClient starts an emulator with a frozen clock and returns it with a KMS client in
// us-east-1.
func kmsClient(t *testing.T) (*emulator.Server, *kms.Client) {
	t.Helper()
	e, url := start(t, emulator.Options{})
	e.Clock.Freeze()
	return e, kms.NewFromConfig(sdkConfig(t, url, "AKIDKMS", 1))
}

// inRegion returns a copy of the client that calls another Region.
func inRegion(c *kms.Client, region string) *kms.Client {
	return kms.New(c.Options(), func(o *kms.Options) { o.Region = region })
}

// newKey creates a key with the given input (nil for a symmetric encryption key) and returns
// its metadata.
func newKey(t *testing.T, c *kms.Client, in *kms.CreateKeyInput) *kmstypes.KeyMetadata {
	t.Helper()
	if in == nil {
		in = &kms.CreateKeyInput{}
	}
	out, err := c.CreateKey(context.Background(), in)
	if err != nil {
		t.Fatalf("CreateKey: %v", err)
	}
	return out.KeyMetadata
}

// kmsTags returns n tags key<first>=value<first> and on.
func kmsTags(first, n int) []kmstypes.Tag {
	return numbered(first, n, func(k, v string) kmstypes.Tag { return kmstypes.Tag{TagKey: aws.String(k), TagValue: aws.String(v)} })
}

// TestKMSCreateKeyValidation checks CreateKey's validation: the key specs and usages AWS
// allows together, the key policy, tags, description, origin and key stores.
func TestKMSCreateKeyValidation(t *testing.T) {
	_, c := kmsClient(t)
	ctx := context.Background()
	cases := map[string]struct {
		reason string
		in     kms.CreateKeyInput
		want   string
	}{
		"Default":            {"A symmetric encryption key needs no parameters.", kms.CreateKeyInput{}, ""},
		"SymmetricSign":      {"Symmetric encryption keys only encrypt.", kms.CreateKeyInput{KeyUsage: kmstypes.KeyUsageTypeSignVerify}, "ValidationException"},
		"HMACWithoutUsage":   {"Keys other than symmetric encryption keys need a KeyUsage.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecHmac256}, "ValidationException"},
		"HMAC":               {"HMAC keys make MACs.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecHmac256, KeyUsage: kmstypes.KeyUsageTypeGenerateVerifyMac}, ""},
		"HMACEncrypt":        {"HMAC keys do not encrypt.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecHmac512, KeyUsage: kmstypes.KeyUsageTypeEncryptDecrypt}, "ValidationException"},
		"RSAEncrypt":         {"RSA keys encrypt.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecRsa2048, KeyUsage: kmstypes.KeyUsageTypeEncryptDecrypt}, ""},
		"RSASign":            {"RSA keys sign.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecRsa4096, KeyUsage: kmstypes.KeyUsageTypeSignVerify}, ""},
		"RSAMAC":             {"RSA keys make no MACs.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecRsa3072, KeyUsage: kmstypes.KeyUsageTypeGenerateVerifyMac}, "ValidationException"},
		"RSAWithoutUsage":    {"Asymmetric keys need a KeyUsage.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecRsa2048}, "ValidationException"},
		"ECCSign":            {"NIST curves sign.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecEccNistP256, KeyUsage: kmstypes.KeyUsageTypeSignVerify}, ""},
		"ECCAgreement":       {"NIST curves agree keys.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecEccNistP384, KeyUsage: kmstypes.KeyUsageTypeKeyAgreement}, ""},
		"ECCEncrypt":         {"Elliptic curve keys do not encrypt.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecEccNistP256, KeyUsage: kmstypes.KeyUsageTypeEncryptDecrypt}, "ValidationException"},
		"Secp256k1Agreement": {"secp256k1 keys only sign.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecEccSecgP256k1, KeyUsage: kmstypes.KeyUsageTypeKeyAgreement}, "ValidationException"},
		"MLKEM":              {"ML-KEM keys encapsulate.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecMlKem768, KeyUsage: kmstypes.KeyUsageTypeEncapsulateDecapsulate}, ""},
		"UnknownSpec":        {"Key specs come from AWS's list.", kms.CreateKeyInput{KeySpec: "AES_256"}, "ValidationException"},
		"UnknownUsage":       {"Key usages come from AWS's list.", kms.CreateKeyInput{KeyUsage: "WRAP"}, "ValidationException"},
		"SM2OutsideChina":    {"SM2 keys exist in the China Regions only.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecSm2, KeyUsage: kmstypes.KeyUsageTypeSignVerify}, "UnsupportedOperationException"},
		"LegacySpec":         {"CustomerMasterKeySpec still works.", kms.CreateKeyInput{CustomerMasterKeySpec: kmstypes.CustomerMasterKeySpecEccNistP521, KeyUsage: kmstypes.KeyUsageTypeSignVerify}, ""},
		"ConflictingSpecs":   {"KeySpec and CustomerMasterKeySpec must agree.", kms.CreateKeyInput{KeySpec: kmstypes.KeySpecSymmetricDefault, CustomerMasterKeySpec: kmstypes.CustomerMasterKeySpecRsa2048}, "ValidationException"},
		"Policy":             {"A valid key policy is kept.", kms.CreateKeyInput{Policy: aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"*"},"Action":"kms:*","Resource":"*"}]}`)}, ""},
		"PolicyNotJSON":      {"A key policy is a JSON document.", kms.CreateKeyInput{Policy: aws.String(`{"Version":`)}, "MalformedPolicyDocumentException"},
		"PolicyNoStatement":  {"A key policy has statements.", kms.CreateKeyInput{Policy: aws.String(`{"Version":"2012-10-17"}`)}, "MalformedPolicyDocumentException"},
		"PolicyNoPrincipal":  {"Every statement names principals.", kms.CreateKeyInput{Policy: aws.String(`{"Statement":[{"Effect":"Allow","Action":"kms:*","Resource":"*"}]}`)}, "MalformedPolicyDocumentException"},
		"PolicyBadEffect":    {"Effect is Allow or Deny.", kms.CreateKeyInput{Policy: aws.String(`{"Statement":[{"Effect":"Permit","Principal":"*","Action":"kms:*"}]}`)}, "MalformedPolicyDocumentException"},
		"PolicyTooLong": {"A key policy is at most 32 KB.", kms.CreateKeyInput{Policy: aws.String(`{"Statement":[{"Effect":"Allow","Principal":"*","Sid":"` +
			strings.Repeat("x", 32768) + `"}]}`)}, "LimitExceededException"},
		"FiftyTags":       {"A key has up to 50 tags.", kms.CreateKeyInput{Tags: kmsTags(0, 50)}, ""},
		"FiftyOneTags":    {"A key has at most 50 tags.", kms.CreateKeyInput{Tags: kmsTags(0, 51)}, "TagException"},
		"ReservedTag":     {"aws: is AWS's prefix.", kms.CreateKeyInput{Tags: []kmstypes.Tag{{TagKey: aws.String("aws:owner"), TagValue: aws.String("x")}}}, "TagException"},
		"DuplicateTag":    {"A tag key is given once.", kms.CreateKeyInput{Tags: append(kmsTags(0, 1), kmsTags(0, 1)...)}, "TagException"},
		"LongDescription": {"A description is at most 8192 characters.", kms.CreateKeyInput{Description: aws.String(strings.Repeat("d", 8193))}, "ValidationException"},
		"ExternalOrigin":  {"The emulator makes AWS_KMS keys only.", kms.CreateKeyInput{Origin: kmstypes.OriginTypeExternal}, "UnsupportedOperationException"},
		"UnknownOrigin":   {"Origins come from AWS's list.", kms.CreateKeyInput{Origin: "ELSEWHERE"}, "ValidationException"},
		"KeyStore":        {"There are no custom key stores.", kms.CreateKeyInput{CustomKeyStoreId: aws.String("cks-1234567890abcdef0")}, "CustomKeyStoreNotFoundException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.CreateKey(ctx, &tc.in)
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s (%v)", tc.reason, diff, err)
			}
		})
	}
}

// TestKMSKeyMetadata checks what CreateKey and DescribeKey report of new keys: identifiers,
// state, the algorithms of each key spec, and the multi-Region key ID.
func TestKMSKeyMetadata(t *testing.T) {
	e, c := kmsClient(t)
	ctx := context.Background()
	now := e.Clock.Now()
	m := newKey(t, c, &kms.CreateKeyInput{Description: aws.String("orders")})
	id := aws.ToString(m.KeyId)
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(id) {
		t.Errorf("KeyId %q is not a UUID", id)
	}
	want := &kmstypes.KeyMetadata{
		AWSAccountId: aws.String(emulator.DefaultAccount), KeyId: aws.String(id), Arn: aws.String("arn:aws:kms:us-east-1:000000000000:key/" + id),
		CreationDate: aws.Time(now), Description: aws.String("orders"), Enabled: true, KeyState: kmstypes.KeyStateEnabled,
		KeyUsage: kmstypes.KeyUsageTypeEncryptDecrypt, KeySpec: kmstypes.KeySpecSymmetricDefault, CustomerMasterKeySpec: kmstypes.CustomerMasterKeySpecSymmetricDefault,
		KeyManager: kmstypes.KeyManagerTypeCustomer, Origin: kmstypes.OriginTypeAwsKms, MultiRegion: aws.Bool(false),
		EncryptionAlgorithms: []kmstypes.EncryptionAlgorithmSpec{kmstypes.EncryptionAlgorithmSpecSymmetricDefault},
		CurrentKeyMaterialId: m.CurrentKeyMaterialId,
	}
	opts := cmp.Options{cmp.AllowUnexported(kmstypes.KeyMetadata{}), cmp.Comparer(sameTime)}
	if diff := cmp.Diff(want, m, opts); diff != "" {
		t.Errorf("CreateKey metadata\n-want +got:\n%s", diff)
	}
	if len(aws.ToString(m.CurrentKeyMaterialId)) != 64 {
		t.Errorf("CurrentKeyMaterialId = %q, want 64 hexadecimal digits", aws.ToString(m.CurrentKeyMaterialId))
	}
	described, err := c.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: m.Arn})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, described.KeyMetadata, opts); diff != "" {
		t.Errorf("DescribeKey by ARN\n-want +got:\n%s", diff)
	}
	algorithms := map[string]struct {
		in   kms.CreateKeyInput
		want func(*kmstypes.KeyMetadata) []string
		list []string
	}{
		"RSASign": {kms.CreateKeyInput{KeySpec: kmstypes.KeySpecRsa2048, KeyUsage: kmstypes.KeyUsageTypeSignVerify},
			func(m *kmstypes.KeyMetadata) []string { return enumStrings(m.SigningAlgorithms) },
			[]string{"RSASSA_PKCS1_V1_5_SHA_256", "RSASSA_PKCS1_V1_5_SHA_384", "RSASSA_PKCS1_V1_5_SHA_512", "RSASSA_PSS_SHA_256", "RSASSA_PSS_SHA_384", "RSASSA_PSS_SHA_512"}},
		"RSAEncrypt": {kms.CreateKeyInput{KeySpec: kmstypes.KeySpecRsa3072, KeyUsage: kmstypes.KeyUsageTypeEncryptDecrypt},
			func(m *kmstypes.KeyMetadata) []string { return enumStrings(m.EncryptionAlgorithms) }, []string{"RSAES_OAEP_SHA_1", "RSAES_OAEP_SHA_256"}},
		"P384": {kms.CreateKeyInput{KeySpec: kmstypes.KeySpecEccNistP384, KeyUsage: kmstypes.KeyUsageTypeSignVerify},
			func(m *kmstypes.KeyMetadata) []string { return enumStrings(m.SigningAlgorithms) }, []string{"ECDSA_SHA_384"}},
		"HMAC384": {kms.CreateKeyInput{KeySpec: kmstypes.KeySpecHmac384, KeyUsage: kmstypes.KeyUsageTypeGenerateVerifyMac},
			func(m *kmstypes.KeyMetadata) []string { return enumStrings(m.MacAlgorithms) }, []string{"HMAC_SHA_384"}},
		"Agreement": {kms.CreateKeyInput{KeySpec: kmstypes.KeySpecEccNistP256, KeyUsage: kmstypes.KeyUsageTypeKeyAgreement},
			func(m *kmstypes.KeyMetadata) []string { return enumStrings(m.KeyAgreementAlgorithms) }, []string{"ECDH"}},
	}
	for name, tc := range algorithms {
		t.Run(name, func(t *testing.T) {
			m := newKey(t, c, &tc.in)
			if diff := cmp.Diff(tc.list, tc.want(m)); diff != "" {
				t.Errorf("algorithms\n-want +got:\n%s", diff)
			}
			if m.CurrentKeyMaterialId != nil {
				t.Errorf("a %s key reports CurrentKeyMaterialId %s; AWS reports it for symmetric encryption keys only", m.KeySpec, aws.ToString(m.CurrentKeyMaterialId))
			}
		})
	}
	for _, svc := range e.Services() {
		if svc.ID == "KMS" {
			if _, err := json.Marshal(svc.Dump()); err != nil {
				t.Errorf("the KMS state dump does not marshal: %v", err)
			}
		}
	}
	multi := newKey(t, c, &kms.CreateKeyInput{MultiRegion: aws.Bool(true)})
	if !regexp.MustCompile(`^mrk-[0-9a-f]{32}$`).MatchString(aws.ToString(multi.KeyId)) {
		t.Errorf("multi-Region KeyId %q, want mrk- and 32 hexadecimal digits", aws.ToString(multi.KeyId))
	}
	cfg := multi.MultiRegionConfiguration
	if !aws.ToBool(multi.MultiRegion) || cfg == nil || cfg.MultiRegionKeyType != kmstypes.MultiRegionKeyTypePrimary ||
		aws.ToString(cfg.PrimaryKey.Arn) != aws.ToString(multi.Arn) || aws.ToString(cfg.PrimaryKey.Region) != "us-east-1" || len(cfg.ReplicaKeys) != 0 {
		t.Errorf("multi-Region metadata %+v, want a primary key in us-east-1 without replicas", cfg)
	}
}

// sameTime reports whether two times agree to the millisecond, as the wire carries them.
func sameTime(a, b time.Time) bool { return a.Sub(b).Abs() < time.Millisecond }

// enumStrings returns the values of a list of SDK enums as strings.
func enumStrings[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}

// TestKMSKeyLookup checks the identifiers DescribeKey and the key management operations take,
// and the NotFoundException AWS answers for the rest.
func TestKMSKeyLookup(t *testing.T) {
	_, c := kmsClient(t)
	ctx := context.Background()
	m := newKey(t, c, nil)
	if _, err := c.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/orders"), TargetKeyId: m.KeyId}); err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(m.KeyId)
	cases := map[string]struct {
		ref, describe, enable string
	}{
		"KeyID":        {id, "", ""},
		"KeyARN":       {aws.ToString(m.Arn), "", ""},
		"AliasName":    {"alias/orders", "", "NotFoundException"},
		"AliasARN":     {"arn:aws:kms:us-east-1:000000000000:alias/orders", "", "NotFoundException"},
		"UnknownKey":   {"0b0e2f9e-1c3a-4f5b-8d7e-123456789abc", "NotFoundException", "NotFoundException"},
		"UnknownAlias": {"alias/none", "NotFoundException", "NotFoundException"},
		"Malformed":    {"orders", "NotFoundException", "NotFoundException"},
		"OtherRegion":  {"arn:aws:kms:eu-west-1:000000000000:key/" + id, "NotFoundException", "NotFoundException"},
		"OtherAccount": {"arn:aws:kms:us-east-1:111111111111:key/" + id, "NotFoundException", "NotFoundException"},
		"NotKMS":       {"arn:aws:sqs:us-east-1:000000000000:orders", "NotFoundException", "NotFoundException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := c.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String(tc.ref)})
			if got := errorCode(err); got != tc.describe {
				t.Errorf("DescribeKey(%s): %q, want %q", tc.ref, got, tc.describe)
			} else if err == nil && aws.ToString(out.KeyMetadata.KeyId) != id {
				t.Errorf("DescribeKey(%s) found %s, want %s", tc.ref, aws.ToString(out.KeyMetadata.KeyId), id)
			}
			_, err = c.EnableKey(ctx, &kms.EnableKeyInput{KeyId: aws.String(tc.ref)})
			if got := errorCode(err); got != tc.enable {
				t.Errorf("EnableKey(%s), which takes key IDs and key ARNs only: %q, want %q", tc.ref, got, tc.enable)
			}
		})
	}
}

// TestKMSDeletionLifecycle follows a key through the state machine of AWS's key state table:
// disabling and enabling, deletion scheduled and canceled (leaving the key Disabled), and
// deletion when the waiting period passes on the simulation clock, with the key's aliases.
func TestKMSDeletionLifecycle(t *testing.T) {
	e, c := kmsClient(t)
	ctx := context.Background()
	m := newKey(t, c, &kms.CreateKeyInput{Tags: kmsTags(0, 2)})
	id := m.KeyId
	state := func() *kmstypes.KeyMetadata {
		t.Helper()
		out, err := c.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: id})
		if err != nil {
			t.Fatal(err)
		}
		return out.KeyMetadata
	}
	if _, err := c.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/doomed"), TargetKeyId: id}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DisableKey(ctx, &kms.DisableKeyInput{KeyId: id}); err != nil {
		t.Fatal(err)
	}
	if got := state(); got.KeyState != kmstypes.KeyStateDisabled || got.Enabled {
		t.Errorf("after DisableKey: %s, enabled %v", got.KeyState, got.Enabled)
	}
	if _, err := c.EnableKey(ctx, &kms.EnableKeyInput{KeyId: id}); err != nil {
		t.Fatal(err)
	}
	if got := state(); got.KeyState != kmstypes.KeyStateEnabled || !got.Enabled {
		t.Errorf("after EnableKey: %s, enabled %v", got.KeyState, got.Enabled)
	}
	for _, days := range []int32{0, 6, 31, 366} {
		if _, err := c.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: id, PendingWindowInDays: aws.Int32(days)}); errorCode(err) != "ValidationException" {
			t.Errorf("a waiting period of %d days: %v, want ValidationException (7 to 30)", days, err)
		}
	}
	if _, err := c.CancelKeyDeletion(ctx, &kms.CancelKeyDeletionInput{KeyId: id}); errorCode(err) != "KMSInvalidStateException" {
		t.Errorf("canceling the deletion of an enabled key: %v, want KMSInvalidStateException", err)
	}
	scheduled, err := c.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: id})
	if err != nil {
		t.Fatal(err)
	}
	deletion := e.Clock.Now().Add(30 * 24 * time.Hour)
	if aws.ToString(scheduled.KeyId) != aws.ToString(m.Arn) || scheduled.KeyState != kmstypes.KeyStatePendingDeletion ||
		aws.ToInt32(scheduled.PendingWindowInDays) != 30 || !sameTime(aws.ToTime(scheduled.DeletionDate), deletion) {
		t.Errorf("ScheduleKeyDeletion = %s %s %d %v; want the key ARN, PendingDeletion, the default 30 days, %v",
			aws.ToString(scheduled.KeyId), scheduled.KeyState, aws.ToInt32(scheduled.PendingWindowInDays), aws.ToTime(scheduled.DeletionDate), deletion)
	}
	if got := state(); got.KeyState != kmstypes.KeyStatePendingDeletion || got.Enabled || !sameTime(aws.ToTime(got.DeletionDate), deletion) || got.PendingDeletionWindowInDays != nil {
		t.Errorf("DescribeKey while pending deletion: %s, enabled %v, deletion %v, window %v", got.KeyState, got.Enabled, got.DeletionDate, got.PendingDeletionWindowInDays)
	}
	if _, err := c.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: id}); errorCode(err) != "KMSInvalidStateException" {
		t.Errorf("scheduling twice: %v, want KMSInvalidStateException", err)
	}
	canceled, err := c.CancelKeyDeletion(ctx, &kms.CancelKeyDeletionInput{KeyId: id})
	if err != nil || aws.ToString(canceled.KeyId) != aws.ToString(m.Arn) {
		t.Fatalf("CancelKeyDeletion = %v, %v", canceled, err)
	}
	if got := state(); got.KeyState != kmstypes.KeyStateDisabled || got.DeletionDate != nil {
		t.Errorf("after CancelKeyDeletion: %s, deletion %v; want Disabled, as AWS leaves it", got.KeyState, got.DeletionDate)
	}
	if _, err := c.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: id, PendingWindowInDays: aws.Int32(7)}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(7*24*time.Hour - time.Second)
	if got := state(); got.KeyState != kmstypes.KeyStatePendingDeletion {
		t.Errorf("a second before the end of the waiting period: %s", got.KeyState)
	}
	e.Clock.Advance(time.Second)
	for name, call := range map[string]func() error{
		"DescribeKey": func() error { _, err := c.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: id}); return err },
		"CancelKeyDeletion": func() error {
			_, err := c.CancelKeyDeletion(ctx, &kms.CancelKeyDeletionInput{KeyId: id})
			return err
		},
		"ListResourceTags": func() error { _, err := c.ListResourceTags(ctx, &kms.ListResourceTagsInput{KeyId: id}); return err },
		"DescribeByAlias": func() error {
			_, err := c.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String("alias/doomed")})
			return err
		},
	} {
		if err := call(); errorCode(err) != "NotFoundException" {
			t.Errorf("%s after the key was deleted: %v, want NotFoundException", name, err)
		}
	}
	keys, err := c.ListKeys(ctx, &kms.ListKeysInput{})
	if err != nil || len(keys.Keys) != 0 {
		t.Errorf("ListKeys after the deletion = %v, %v; want none", keys, err)
	}
	aliases, err := c.ListAliases(ctx, &kms.ListAliasesInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range aliases.Aliases {
		if !strings.HasPrefix(aws.ToString(a.AliasName), "alias/aws/") || a.TargetKeyId != nil {
			t.Errorf("ListAliases after the deletion lists %s for %s; want only the unused predefined AWS aliases", aws.ToString(a.AliasName), aws.ToString(a.TargetKeyId))
		}
	}
}

// TestKMSKeyStateTable checks, for a key in each state, the outcome of every operation on it
// that AWS's key state table lists: cryptographic operations need an enabled key
// (DisabledException for a disabled one), and a key pending deletion can only be described,
// read, have its policy put, be listed and have its deletion canceled (KMSInvalidStateException
// for the rest).
func TestKMSKeyStateTable(t *testing.T) {
	_, c := kmsClient(t)
	ctx := context.Background()
	const disabled, invalid = "DisabledException", "KMSInvalidStateException"
	ops := []struct {
		name                             string
		enabled, disabledKey, pendingKey string
		run                              func(id *string) error
	}{
		{"Encrypt", "", disabled, invalid, func(id *string) error {
			_, err := c.Encrypt(ctx, &kms.EncryptInput{KeyId: id, Plaintext: []byte("x")})
			return err
		}},
		{"GenerateDataKey", "", disabled, invalid, func(id *string) error {
			_, err := c.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{KeyId: id, KeySpec: kmstypes.DataKeySpecAes256})
			return err
		}},
		{"GenerateDataKeyWithoutPlaintext", "", disabled, invalid, func(id *string) error {
			_, err := c.GenerateDataKeyWithoutPlaintext(ctx, &kms.GenerateDataKeyWithoutPlaintextInput{KeyId: id, NumberOfBytes: aws.Int32(16)})
			return err
		}},
		{"EnableKeyRotation", "", disabled, invalid, func(id *string) error {
			_, err := c.EnableKeyRotation(ctx, &kms.EnableKeyRotationInput{KeyId: id})
			return err
		}},
		{"DisableKeyRotation", "", disabled, invalid, func(id *string) error {
			_, err := c.DisableKeyRotation(ctx, &kms.DisableKeyRotationInput{KeyId: id})
			return err
		}},
		{"GetKeyRotationStatus", "", "", "", func(id *string) error {
			_, err := c.GetKeyRotationStatus(ctx, &kms.GetKeyRotationStatusInput{KeyId: id})
			return err
		}},
		{"UpdateKeyDescription", "", "", invalid, func(id *string) error {
			_, err := c.UpdateKeyDescription(ctx, &kms.UpdateKeyDescriptionInput{KeyId: id, Description: aws.String("new")})
			return err
		}},
		{"TagResource", "", "", invalid, func(id *string) error {
			_, err := c.TagResource(ctx, &kms.TagResourceInput{KeyId: id, Tags: kmsTags(0, 1)})
			return err
		}},
		{"UntagResource", "", "", invalid, func(id *string) error {
			_, err := c.UntagResource(ctx, &kms.UntagResourceInput{KeyId: id, TagKeys: []string{"key0"}})
			return err
		}},
		{"ListResourceTags", "", "", "", func(id *string) error {
			_, err := c.ListResourceTags(ctx, &kms.ListResourceTagsInput{KeyId: id})
			return err
		}},
		{"GetKeyPolicy", "", "", "", func(id *string) error {
			_, err := c.GetKeyPolicy(ctx, &kms.GetKeyPolicyInput{KeyId: id})
			return err
		}},
		{"PutKeyPolicy", "", "", "", func(id *string) error {
			out, err := c.GetKeyPolicy(ctx, &kms.GetKeyPolicyInput{KeyId: id})
			if err != nil {
				return err
			}
			_, err = c.PutKeyPolicy(ctx, &kms.PutKeyPolicyInput{KeyId: id, Policy: out.Policy})
			return err
		}},
		{"ListKeyPolicies", "", "", "", func(id *string) error {
			_, err := c.ListKeyPolicies(ctx, &kms.ListKeyPoliciesInput{KeyId: id})
			return err
		}},
		{"CreateAlias", "", "", invalid, func(id *string) error {
			_, err := c.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/state-" + aws.ToString(id)), TargetKeyId: id})
			return err
		}},
		{"DescribeKey", "", "", "", func(id *string) error {
			_, err := c.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: id})
			return err
		}},
		{"DisableKey", "", "", invalid, func(id *string) error {
			_, err := c.DisableKey(ctx, &kms.DisableKeyInput{KeyId: id})
			return err
		}},
		{"EnableKey", "", "", invalid, func(id *string) error {
			_, err := c.EnableKey(ctx, &kms.EnableKeyInput{KeyId: id})
			return err
		}},
	}
	// fresh returns a new key in the state, made again for every operation so that operations
	// that change the state do not affect the next.
	fresh := func(state string) *string {
		id := newKey(t, c, nil).KeyId
		switch state {
		case "Disabled":
			if _, err := c.DisableKey(ctx, &kms.DisableKeyInput{KeyId: id}); err != nil {
				t.Fatal(err)
			}
		case "PendingDeletion":
			if _, err := c.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: id, PendingWindowInDays: aws.Int32(7)}); err != nil {
				t.Fatal(err)
			}
		}
		return id
	}
	for _, op := range ops {
		for state, want := range map[string]string{"Enabled": op.enabled, "Disabled": op.disabledKey, "PendingDeletion": op.pendingKey} {
			if got := errorCode(op.run(fresh(state))); got != want {
				t.Errorf("%s on a key %s: %q, want %q", op.name, state, got, want)
			}
		}
	}
}

// TestKMSListKeysPaging checks ListKeys' pages, markers and limits.
func TestKMSListKeysPaging(t *testing.T) {
	_, c := kmsClient(t)
	ctx := context.Background()
	want := map[string]bool{}
	for range 5 {
		want[aws.ToString(newKey(t, c, nil).KeyId)] = true
	}
	seen := map[string]bool{}
	var marker *string
	pages := 0
	for {
		out, err := c.ListKeys(ctx, &kms.ListKeysInput{Limit: aws.Int32(2), Marker: marker})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, k := range out.Keys {
			if seen[aws.ToString(k.KeyId)] {
				t.Errorf("key %s listed twice", aws.ToString(k.KeyId))
			}
			seen[aws.ToString(k.KeyId)] = true
			if aws.ToString(k.KeyArn) != "arn:aws:kms:us-east-1:000000000000:key/"+aws.ToString(k.KeyId) {
				t.Errorf("KeyArn %s of %s", aws.ToString(k.KeyArn), aws.ToString(k.KeyId))
			}
		}
		if out.Truncated != (out.NextMarker != nil) {
			t.Errorf("Truncated %v with NextMarker %v", out.Truncated, out.NextMarker)
		}
		if !out.Truncated {
			break
		}
		marker = out.NextMarker
	}
	if pages != 3 || len(seen) != len(want) {
		t.Errorf("listed %d keys in %d pages, want %d in 3", len(seen), pages, len(want))
	}
	for name, tc := range map[string]struct {
		in   kms.ListKeysInput
		want string
	}{
		"LimitZero":  {kms.ListKeysInput{Limit: aws.Int32(0)}, "ValidationException"},
		"LimitLarge": {kms.ListKeysInput{Limit: aws.Int32(1001)}, "ValidationException"},
		"BadMarker":  {kms.ListKeysInput{Marker: aws.String("not base64!")}, "InvalidMarkerException"},
	} {
		if _, err := c.ListKeys(ctx, &tc.in); errorCode(err) != tc.want {
			t.Errorf("%s: %v, want %s", name, err, tc.want)
		}
	}
}
