package differential

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// keyring is one side's KMS clients (us-east-1, and eu-west-1 for replicas) and the keys its
// steps created: a symmetric encryption key, a multi-Region key, and a ciphertext.
type keyring struct {
	kms, west  *kms.Client
	key, multi *string
	ciphertext []byte
}

var (
	uuidKeyID  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	multiKeyID = regexp.MustCompile(`^mrk-[0-9a-f]{32}$`)
)

// keyIDForm names the form of a key ID: uuid, mrk (multi-Region) or other.
func keyIDForm(id string) string {
	switch {
	case uuidKeyID.MatchString(id):
		return "uuid"
	case multiKeyID.MatchString(id):
		return "mrk"
	}
	return "other"
}

// keyFields are what the steps compare of a key's metadata; identifiers by their form, as the
// two sides make different ones in different accounts.
func keyFields(m *types.KeyMetadata) map[string]string {
	f := map[string]string{
		"id": keyIDForm(aws.ToString(m.KeyId)), "state": string(m.KeyState), "enabled": strconv.FormatBool(m.Enabled),
		"spec": string(m.KeySpec), "usage": string(m.KeyUsage), "manager": string(m.KeyManager), "origin": string(m.Origin),
		"description": aws.ToString(m.Description), "multiRegion": strconv.FormatBool(aws.ToBool(m.MultiRegion)),
		"arn":        accountPart.ReplaceAllString(strings.TrimSuffix(aws.ToString(m.Arn), aws.ToString(m.KeyId)), ":<account>:"),
		"encryption": strconv.Itoa(len(m.EncryptionAlgorithms)), "signing": strconv.Itoa(len(m.SigningAlgorithms)),
	}
	if cfg := m.MultiRegionConfiguration; cfg != nil {
		f["multiRegionType"] = string(cfg.MultiRegionKeyType)
		f["replicas"] = strconv.Itoa(len(cfg.ReplicaKeys))
	}
	return f
}

// keyringSteps is the sequence both sides run: keys of several specs and the validation of
// CreateKey, the key state machine, policies, rotation, tags, aliases, encryption and data keys,
// and a multi-Region replica.
func keyringSteps() []step[*keyring] {
	ctx := context.Background()
	create := func(in *kms.CreateKeyInput) func(c *keyring) outcome {
		return func(c *keyring) outcome {
			out, err := c.kms.CreateKey(ctx, in)
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, keyFields(out.KeyMetadata))
		}
	}
	describe := func(ref func(c *keyring) *string) func(c *keyring) outcome {
		return func(c *keyring) outcome {
			out, err := c.kms.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: ref(c)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, keyFields(out.KeyMetadata))
		}
	}
	key := func(c *keyring) *string { return c.key }
	call := func(run func(c *keyring) error) func(c *keyring) outcome {
		return func(c *keyring) outcome { return observe(run(c), nil) }
	}
	tagCount := func(c *keyring) outcome {
		out, err := c.kms.ListResourceTags(ctx, &kms.ListResourceTagsInput{KeyId: c.key})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, map[string]string{"tags": strconv.Itoa(len(out.Tags))})
	}
	tags := func(first, n int) []types.Tag {
		out := make([]types.Tag, n)
		for i := range out {
			out[i] = types.Tag{TagKey: aws.String("key" + strconv.Itoa(first+i)), TagValue: aws.String("value")}
		}
		return out
	}
	policy := `{"Version":"2012-10-17","Statement":[{"Sid":"all","Effect":"Allow","Principal":{"AWS":"*"},"Action":"kms:*","Resource":"*"}]}`
	return []step[*keyring]{
		{"CreateKeyWithDefaults", create(&kms.CreateKeyInput{})},
		{"CreateKey", func(c *keyring) outcome {
			out, err := c.kms.CreateKey(ctx, &kms.CreateKeyInput{Description: aws.String("orders"), KeyUsage: types.KeyUsageTypeEncryptDecrypt, Tags: tags(0, 2)})
			if err != nil {
				return observe(err, nil)
			}
			c.key = out.KeyMetadata.KeyId
			return observe(nil, keyFields(out.KeyMetadata))
		}},
		{"CreateHMACKey", create(&kms.CreateKeyInput{KeySpec: types.KeySpecHmac256, KeyUsage: types.KeyUsageTypeGenerateVerifyMac})},
		{"CreateRSASigningKey", create(&kms.CreateKeyInput{KeySpec: types.KeySpecRsa2048, KeyUsage: types.KeyUsageTypeSignVerify})},
		{"CreateECCSigningKey", create(&kms.CreateKeyInput{KeySpec: types.KeySpecEccNistP256, KeyUsage: types.KeyUsageTypeSignVerify})},
		{"CreateHMACKeyWithoutUsage", create(&kms.CreateKeyInput{KeySpec: types.KeySpecHmac256})},
		{"CreateECCEncryptionKey", create(&kms.CreateKeyInput{KeySpec: types.KeySpecEccNistP256, KeyUsage: types.KeyUsageTypeEncryptDecrypt})},
		{"CreateUnknownSpec", create(&kms.CreateKeyInput{KeySpec: "AES_256"})},
		{"CreateMalformedPolicy", create(&kms.CreateKeyInput{Policy: aws.String(`{"Statement":`)})},
		{"CreateReservedTag", create(&kms.CreateKeyInput{Tags: []types.Tag{{TagKey: aws.String("aws:owner"), TagValue: aws.String("x")}}})},
		{"CreateFiftyOneTags", create(&kms.CreateKeyInput{Tags: tags(0, 51)})},
		{"CreateMultiRegionKey", func(c *keyring) outcome {
			out, err := c.kms.CreateKey(ctx, &kms.CreateKeyInput{MultiRegion: aws.Bool(true), KeyUsage: types.KeyUsageTypeEncryptDecrypt})
			if err != nil {
				return observe(err, nil)
			}
			c.multi = out.KeyMetadata.KeyId
			return observe(nil, keyFields(out.KeyMetadata))
		}},
		{"DescribeKey", describe(key)},
		{"DescribeByARN", describe(func(c *keyring) *string {
			out, err := c.kms.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: c.key})
			if err != nil {
				return c.key
			}
			return out.KeyMetadata.Arn
		})},
		{"DescribeUnknownKey", describe(func(*keyring) *string { return aws.String("0b0e2f9e-1c3a-4f5b-8d7e-123456789abc") })},
		{"DescribeMalformedKeyID", describe(func(*keyring) *string { return aws.String("orders") })},
		{"CreateAlias", call(func(c *keyring) error {
			_, err := c.kms.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/orders"), TargetKeyId: c.key})
			return err
		})},
		{"DescribeByAlias", describe(func(*keyring) *string { return aws.String("alias/orders") })},
		{"DescribeUnknownAlias", describe(func(*keyring) *string { return aws.String("alias/none") })},
		{"CreateAliasAgain", call(func(c *keyring) error {
			_, err := c.kms.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/orders"), TargetKeyId: c.key})
			return err
		})},
		{"CreateAliasWithoutPrefix", call(func(c *keyring) error {
			_, err := c.kms.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("orders"), TargetKeyId: c.key})
			return err
		})},
		{"CreateAliasReserved", call(func(c *keyring) error {
			_, err := c.kms.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/aws/s3"), TargetKeyId: c.key})
			return err
		})},
		{"CreateAliasToAlias", call(func(c *keyring) error {
			_, err := c.kms.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String("alias/other"), TargetKeyId: aws.String("alias/orders")})
			return err
		})},
		{"UpdateAlias", call(func(c *keyring) error {
			_, err := c.kms.UpdateAlias(ctx, &kms.UpdateAliasInput{AliasName: aws.String("alias/orders"), TargetKeyId: c.key})
			return err
		})},
		{"ListAliasesOfKey", func(c *keyring) outcome {
			out, err := c.kms.ListAliases(ctx, &kms.ListAliasesInput{KeyId: c.key})
			if err != nil {
				return observe(err, nil)
			}
			var names []string
			for _, a := range out.Aliases {
				names = append(names, aws.ToString(a.AliasName))
			}
			return observe(nil, map[string]string{"aliases": strings.Join(names, ",")})
		}},
		{"ListAllAliases", func(c *keyring) outcome {
			out, err := c.kms.ListAliases(ctx, &kms.ListAliasesInput{})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"aliases": strconv.Itoa(len(out.Aliases))})
		}},
		{"DeleteAlias", call(func(c *keyring) error {
			_, err := c.kms.DeleteAlias(ctx, &kms.DeleteAliasInput{AliasName: aws.String("alias/orders")})
			return err
		})},
		{"DeleteAliasAgain", call(func(c *keyring) error {
			_, err := c.kms.DeleteAlias(ctx, &kms.DeleteAliasInput{AliasName: aws.String("alias/orders")})
			return err
		})},
		{"UpdateKeyDescription", call(func(c *keyring) error {
			_, err := c.kms.UpdateKeyDescription(ctx, &kms.UpdateKeyDescriptionInput{KeyId: c.key, Description: aws.String("orders v2")})
			return err
		})},
		{"DisableKey", call(func(c *keyring) error {
			_, err := c.kms.DisableKey(ctx, &kms.DisableKeyInput{KeyId: c.key})
			return err
		})},
		{"DescribeDisabled", describe(key)},
		{"EncryptWithDisabledKey", call(func(c *keyring) error {
			_, err := c.kms.Encrypt(ctx, &kms.EncryptInput{KeyId: c.key, Plaintext: []byte("x")})
			return err
		})},
		{"EnableKey", call(func(c *keyring) error { _, err := c.kms.EnableKey(ctx, &kms.EnableKeyInput{KeyId: c.key}); return err })},
		{"GetDefaultKeyPolicy", func(c *keyring) outcome {
			out, err := c.kms.GetKeyPolicy(ctx, &kms.GetKeyPolicyInput{KeyId: c.key, PolicyName: aws.String("default")})
			if err != nil {
				return observe(err, nil)
			}
			var doc struct {
				Statement []struct {
					Sid       string
					Principal struct{ AWS string }
					Action    string
				}
			}
			if err := json.Unmarshal([]byte(aws.ToString(out.Policy)), &doc); err != nil || len(doc.Statement) != 1 {
				return observe(nil, map[string]string{"policy": "unexpected: " + aws.ToString(out.Policy)})
			}
			s := doc.Statement[0]
			return observe(nil, map[string]string{"sid": s.Sid, "principal": accountPart.ReplaceAllString(s.Principal.AWS, ":<account>:"), "action": s.Action})
		}},
		{"PutKeyPolicy", call(func(c *keyring) error {
			_, err := c.kms.PutKeyPolicy(ctx, &kms.PutKeyPolicyInput{KeyId: c.key, PolicyName: aws.String("default"), Policy: aws.String(policy)})
			return err
		})},
		{"GetPutKeyPolicy", func(c *keyring) outcome {
			out, err := c.kms.GetKeyPolicy(ctx, &kms.GetKeyPolicyInput{KeyId: c.key, PolicyName: aws.String("default")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"same": strconv.FormatBool(aws.ToString(out.Policy) == policy)})
		}},
		{"PutMalformedKeyPolicy", call(func(c *keyring) error {
			_, err := c.kms.PutKeyPolicy(ctx, &kms.PutKeyPolicyInput{KeyId: c.key, PolicyName: aws.String("default"), Policy: aws.String("not json")})
			return err
		})},
		{"GetOtherKeyPolicy", call(func(c *keyring) error {
			_, err := c.kms.GetKeyPolicy(ctx, &kms.GetKeyPolicyInput{KeyId: c.key, PolicyName: aws.String("other")})
			return err
		})},
		{"ListKeyPolicies", func(c *keyring) outcome {
			out, err := c.kms.ListKeyPolicies(ctx, &kms.ListKeyPoliciesInput{KeyId: c.key})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"names": strings.Join(out.PolicyNames, ",")})
		}},
		{"EnableKeyRotation", call(func(c *keyring) error {
			_, err := c.kms.EnableKeyRotation(ctx, &kms.EnableKeyRotationInput{KeyId: c.key})
			return err
		})},
		{"GetKeyRotationStatus", func(c *keyring) outcome {
			out, err := c.kms.GetKeyRotationStatus(ctx, &kms.GetKeyRotationStatusInput{KeyId: c.key})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"enabled": strconv.FormatBool(out.KeyRotationEnabled)})
		}},
		{"EnableKeyRotationShortPeriod", call(func(c *keyring) error {
			_, err := c.kms.EnableKeyRotation(ctx, &kms.EnableKeyRotationInput{KeyId: c.key, RotationPeriodInDays: aws.Int32(30)})
			return err
		})},
		{"DisableKeyRotation", call(func(c *keyring) error {
			_, err := c.kms.DisableKeyRotation(ctx, &kms.DisableKeyRotationInput{KeyId: c.key})
			return err
		})},
		{"TagResource", call(func(c *keyring) error {
			_, err := c.kms.TagResource(ctx, &kms.TagResourceInput{KeyId: c.key, Tags: tags(1, 3)})
			return err
		})},
		{"ListResourceTags", tagCount},
		{"TagReservedKey", call(func(c *keyring) error {
			_, err := c.kms.TagResource(ctx, &kms.TagResourceInput{KeyId: c.key, Tags: []types.Tag{{TagKey: aws.String("aws:team"), TagValue: aws.String("x")}}})
			return err
		})},
		{"TagBeyondFifty", call(func(c *keyring) error {
			_, err := c.kms.TagResource(ctx, &kms.TagResourceInput{KeyId: c.key, Tags: tags(10, 47)})
			return err
		})},
		{"UntagResource", call(func(c *keyring) error {
			_, err := c.kms.UntagResource(ctx, &kms.UntagResourceInput{KeyId: c.key, TagKeys: []string{"key0", "absent"}})
			return err
		})},
		{"ListTagsAfterUntag", tagCount},
		{"Encrypt", func(c *keyring) outcome {
			out, err := c.kms.Encrypt(ctx, &kms.EncryptInput{KeyId: c.key, Plaintext: []byte("hunter2"), EncryptionContext: map[string]string{"app": "orders"}})
			if err != nil {
				return observe(err, nil)
			}
			c.ciphertext = out.CiphertextBlob
			return observe(nil, map[string]string{"keyArn": strconv.FormatBool(strings.HasSuffix(aws.ToString(out.KeyId), ":key/"+aws.ToString(c.key)))})
		}},
		{"Decrypt", func(c *keyring) outcome {
			out, err := c.kms.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: c.ciphertext, EncryptionContext: map[string]string{"app": "orders"}})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"plaintext": string(out.Plaintext),
				"keyArn": strconv.FormatBool(strings.HasSuffix(aws.ToString(out.KeyId), ":key/"+aws.ToString(c.key)))})
		}},
		{"DecryptOtherContext", call(func(c *keyring) error {
			_, err := c.kms.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: c.ciphertext, EncryptionContext: map[string]string{"app": "billing"}})
			return err
		})},
		{"EncryptEmptyPlaintext", call(func(c *keyring) error {
			_, err := c.kms.Encrypt(ctx, &kms.EncryptInput{KeyId: c.key, Plaintext: []byte{}})
			return err
		})},
		{"GenerateDataKey", func(c *keyring) outcome {
			out, err := c.kms.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{KeyId: c.key, KeySpec: types.DataKeySpecAes256})
			if err != nil {
				return observe(err, nil)
			}
			dec, err := c.kms.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: out.CiphertextBlob})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"bytes": strconv.Itoa(len(out.Plaintext)), "roundTrip": strconv.FormatBool(bytes.Equal(dec.Plaintext, out.Plaintext))})
		}},
		{"GenerateDataKeyWithoutSize", call(func(c *keyring) error {
			_, err := c.kms.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{KeyId: c.key})
			return err
		})},
		{"GenerateDataKeyTooLarge", call(func(c *keyring) error {
			_, err := c.kms.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{KeyId: c.key, NumberOfBytes: aws.Int32(1025)})
			return err
		})},
		{"GenerateDataKeyWithoutPlaintext", func(c *keyring) outcome {
			out, err := c.kms.GenerateDataKeyWithoutPlaintext(ctx, &kms.GenerateDataKeyWithoutPlaintextInput{KeyId: c.key, NumberOfBytes: aws.Int32(16)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"ciphertext": strconv.FormatBool(len(out.CiphertextBlob) > 16)})
		}},
		{"ListKeysFirstPage", func(c *keyring) outcome {
			out, err := c.kms.ListKeys(ctx, &kms.ListKeysInput{Limit: aws.Int32(2)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"keys": strconv.Itoa(len(out.Keys)), "truncated": strconv.FormatBool(out.Truncated)})
		}},
		{"ReplicateKey", func(c *keyring) outcome {
			out, err := c.kms.ReplicateKey(ctx, &kms.ReplicateKeyInput{KeyId: c.multi, ReplicaRegion: aws.String("eu-west-1")})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, keyFields(out.ReplicaKeyMetadata))
		}},
		{"DescribeReplica", func(c *keyring) outcome {
			out, err := c.west.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: c.multi})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, keyFields(out.KeyMetadata))
		}},
		{"ReplicateSingleRegionKey", call(func(c *keyring) error {
			_, err := c.kms.ReplicateKey(ctx, &kms.ReplicateKeyInput{KeyId: c.key, ReplicaRegion: aws.String("eu-west-1")})
			return err
		})},
		{"ScheduleShortDeletion", call(func(c *keyring) error {
			_, err := c.kms.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: c.key, PendingWindowInDays: aws.Int32(6)})
			return err
		})},
		{"CancelDeletionNotScheduled", call(func(c *keyring) error {
			_, err := c.kms.CancelKeyDeletion(ctx, &kms.CancelKeyDeletionInput{KeyId: c.key})
			return err
		})},
		{"ScheduleKeyDeletion", func(c *keyring) outcome {
			out, err := c.kms.ScheduleKeyDeletion(ctx, &kms.ScheduleKeyDeletionInput{KeyId: c.key, PendingWindowInDays: aws.Int32(7)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"deletionDate": strconv.FormatBool(out.DeletionDate != nil)})
		}},
		{"DescribePendingDeletion", describe(key)},
		{"EncryptPendingDeletion", call(func(c *keyring) error {
			_, err := c.kms.Encrypt(ctx, &kms.EncryptInput{KeyId: c.key, Plaintext: []byte("x")})
			return err
		})},
		{"EnablePendingDeletion", call(func(c *keyring) error { _, err := c.kms.EnableKey(ctx, &kms.EnableKeyInput{KeyId: c.key}); return err })},
		{"CancelKeyDeletion", call(func(c *keyring) error {
			_, err := c.kms.CancelKeyDeletion(ctx, &kms.CancelKeyDeletionInput{KeyId: c.key})
			return err
		})},
		{"DescribeCanceled", describe(key)},
	}
}

// TestKMSAgainstMoto compares KMS with moto's KMS.
func TestKMSAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	side := func(url string) *keyring {
		cfg := sdkConfig(t, url)
		return &keyring{kms: kms.NewFromConfig(cfg), west: kms.NewFromConfig(cfg, func(o *kms.Options) { o.Region = "eu-west-1" })}
	}
	// moto validates no key state: AWS's key state table (Key states of AWS KMS keys) refuses
	// cryptographic operations on a disabled key with DisabledException and most operations on
	// a key pending deletion with KMSInvalidStateException.
	const noStates = "moto does not check key states; AWS's key state table refuses it"
	// moto keeps no tag rules; AWS allows 50 tags a key and no aws: prefix (Tagging keys) and
	// answers TagException.
	const noTagRules = "moto keeps no tag limits; AWS allows 50 tags a key, none beginning with aws:, and answers TagException"
	// moto makes multi-Region key IDs of mrk- and a dashed UUID; AWS's are mrk- and 32
	// hexadecimal digits (Multi-Region key IDs, e.g. mrk-1234abcd12ab34cd56ef1234567890ab).
	const mrkID = "moto's multi-Region key IDs are mrk- and a dashed UUID; AWS's are mrk- and 32 hexadecimal digits"
	compare(t, side(emu.URL), side(peerURL), "moto "+motoVersion, keyringSteps(), map[string]string{
		"CreateKeyWithDefaults":        "moto leaves KeyUsage empty when the request omits it; AWS defaults it to ENCRYPT_DECRYPT (CreateKey, KeyUsage)",
		"CreateHMACKey":                "moto lists RSA encryption algorithms for an HMAC key; AWS lists EncryptionAlgorithms for ENCRYPT_DECRYPT keys only (KeyMetadata)",
		"CreateHMACKeyWithoutUsage":    "moto accepts an HMAC key without KeyUsage; AWS requires KeyUsage for every key but symmetric encryption keys and answers ValidationException",
		"CreateECCEncryptionKey":       "moto accepts any KeyUsage with any KeySpec; AWS allows ECC_NIST keys SIGN_VERIFY or KEY_AGREEMENT only (CreateKey, KeyUsage) and answers ValidationException",
		"CreateMalformedPolicy":        "moto accepts any key policy; AWS answers MalformedPolicyDocumentException for one that is not a policy document",
		"PutMalformedKeyPolicy":        "moto accepts any key policy; AWS answers MalformedPolicyDocumentException for one that is not a policy document",
		"CreateReservedTag":            noTagRules,
		"CreateFiftyOneTags":           noTagRules,
		"TagReservedKey":               noTagRules,
		"TagBeyondFifty":               noTagRules,
		"ListTagsAfterUntag":           noTagRules + ", so moto lists the tags beyond 50 too",
		"CreateMultiRegionKey":         mrkID,
		"DescribeReplica":              mrkID,
		"ReplicateKey":                 mrkID + "; and moto's ReplicateKey answers the replica as a PRIMARY key, AWS as a REPLICA (ReplicateKey, ReplicaKeyMetadata)",
		"ReplicateSingleRegionKey":     "moto fails with HTTP 500 replicating a single-Region key; AWS replicates multi-Region primary keys only and answers UnsupportedOperationException",
		"CreateAliasReserved":          "moto answers NotAuthorizedException, a code KMS does not model; the emulator answers InvalidAliasNameException, KMS's error for an alias name that is not valid (CreateAlias: the alias/aws/ prefix is reserved)",
		"ListAllAliases":               "both list the predefined alias/aws/ aliases AWS documents (ListAliases), moto those of 14 services, the emulator those of 20",
		"EncryptWithDisabledKey":       noStates + " with DisabledException",
		"EncryptPendingDeletion":       noStates + " with KMSInvalidStateException",
		"EnablePendingDeletion":        noStates + " with KMSInvalidStateException",
		"CancelDeletionNotScheduled":   noStates + ": canceling the deletion of a key not pending deletion is KMSInvalidStateException",
		"DescribeCanceled":             "follows from EnablePendingDeletion: moto enabled the key pending deletion; AWS leaves a canceled key Disabled and not enabled",
		"ScheduleShortDeletion":        "moto accepts a waiting period of 6 days (and schedules nothing); AWS allows 7 to 30 days and answers ValidationException",
		"EnableKeyRotationShortPeriod": "moto ignores RotationPeriodInDays; AWS allows 90 to 2560 days and answers ValidationException",
		"ListKeysFirstPage":            "moto ignores Limit and lists every key; AWS pages by Limit and answers Truncated with a NextMarker",
	})
}
