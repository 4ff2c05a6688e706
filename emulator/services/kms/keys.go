package kms

import (
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxDescription is the longest key description, in characters (CreateKey, Description).
const maxDescription = 8192

// checkDescription returns AWS's ValidationException for a description that is too long.
func checkDescription(description string) error {
	if utf8.RuneCountInString(description) > maxDescription {
		return validation("1 validation error detected: Value at 'description' failed to satisfy constraint: Member must have length less than or equal to %d", maxDescription)
	}
	return nil
}

// createSpec returns the key spec and key usage of a CreateKey request, checked as AWS checks
// them: a known spec (KeySpec, or the deprecated CustomerMasterKeySpec, which must agree with
// it), SM2 in the China Regions only, and a usage the spec allows.
func createSpec(call *core.Call, in *kms.CreateKeyInput) (types.KeySpec, types.KeyUsageType, error) {
	spec := in.KeySpec
	if legacy := types.KeySpec(in.CustomerMasterKeySpec); legacy != "" {
		if spec != "" && spec != legacy {
			return "", "", validation("KeySpec %s and CustomerMasterKeySpec %s differ; specify the key spec in KeySpec only", spec, legacy)
		}
		spec = legacy
	}
	if spec == "" {
		spec = specSymmetric
	}
	if _, ok := specUsages[spec]; !ok {
		return "", "", enumError("keySpec", string(spec), keySpecs())
	}
	if spec == types.KeySpecSm2 && !strings.HasPrefix(call.Region, "cn-") {
		return "", "", unsupported("KeySpec SM2 is supported only in the China Regions.")
	}
	if in.KeyUsage != "" {
		known := false
		for _, u := range keyUsages() {
			known = known || u == string(in.KeyUsage)
		}
		if !known {
			return "", "", enumError("keyUsage", string(in.KeyUsage), keyUsages())
		}
	}
	usage, err := checkSpecUsage(spec, in.KeyUsage)
	return spec, usage, err
}

// checkOrigin returns the answer to an Origin or key store the emulator does not offer: it
// makes AWS_KMS keys only, and has no custom key stores.
func checkOrigin(in *kms.CreateKeyInput) error {
	switch in.Origin {
	case "", types.OriginTypeAwsKms:
	case types.OriginTypeExternal, types.OriginTypeAwsCloudhsm, types.OriginTypeExternalKeyStore:
		return unsupported("The emulator creates KMS keys with Origin AWS_KMS only, not %s.", in.Origin)
	default:
		var origins []string
		for _, o := range types.OriginType("").Values() {
			origins = append(origins, string(o))
		}
		return enumError("origin", string(in.Origin), origins)
	}
	if id := aws.ToString(in.CustomKeyStoreId); id != "" {
		return core.Errorf("CustomKeyStoreNotFoundException", "Custom key store %s does not exist.", id)
	}
	return nil
}

// createKey makes a customer managed key, Enabled (CreateKey).
func (b *Backend) createKey(call *core.Call, in *kms.CreateKeyInput) (*kms.CreateKeyOutput, error) {
	spec, usage, err := createSpec(call, in)
	if err != nil {
		return nil, err
	}
	if err := checkOrigin(in); err != nil {
		return nil, err
	}
	if err := checkDescription(aws.ToString(in.Description)); err != nil {
		return nil, err
	}
	policy := defaultPolicy(call.Scope())
	if in.Policy != nil {
		if err := checkPolicy(*in.Policy); err != nil {
			return nil, err
		}
		policy = *in.Policy
	}
	tags, err := core.RequestTags(tagRules, in.Tags, tagPair)
	if err != nil {
		return nil, err
	}
	return inRegion(b, call, func(r *region) (*kms.CreateKeyOutput, error) {
		multi := aws.ToBool(in.MultiRegion)
		id := newKeyID(multi)
		if err := r.tags.Replace(id, tags); err != nil {
			return nil, err
		}
		k := &key{
			id: id, arn: keyARN(r.scope, id), scope: r.scope, description: aws.ToString(in.Description),
			spec: spec, usage: usage, manager: managerCustomer, policy: policy, created: call.Now,
			state: stateEnabled, material: newMaterial(),
		}
		if multi {
			k.primary = r.scope.Region
		}
		r.keys[id] = k
		return &kms.CreateKeyOutput{KeyMetadata: b.describe(k)}, nil
	})
}

// describeKey answers a key's metadata, naming the key by key ID, key ARN, alias name or alias ARN (DescribeKey).
func (b *Backend) describeKey(call *core.Call, in *kms.DescribeKeyInput) (*kms.DescribeKeyOutput, error) {
	return withKey(b, call, in.KeyId, true, func(k *key) (*kms.DescribeKeyOutput, error) {
		return &kms.DescribeKeyOutput{KeyMetadata: b.describe(k)}, nil
	})
}

// listKeys lists the keys of the account and Region by key ID, in every key state (ListKeys).
func (b *Backend) listKeys(call *core.Call, in *kms.ListKeysInput) (*kms.ListKeysOutput, error) {
	limit, err := pageLimit(in.Limit, 1000, 100)
	if err != nil {
		return nil, err
	}
	return inRegion(b, call, func(r *region) (*kms.ListKeysOutput, error) {
		ids := core.SortedKeys(r.keys)
		ids, next, err := page(ids, func(id string) string { return id }, aws.ToString(in.Marker), limit)
		if err != nil {
			return nil, err
		}
		out := &kms.ListKeysOutput{Keys: []types.KeyListEntry{}, NextMarker: next, Truncated: next != nil}
		for _, id := range ids {
			out.Keys = append(out.Keys, types.KeyListEntry{KeyId: aws.String(id), KeyArn: aws.String(r.keys[id].arn)})
		}
		return out, nil
	})
}

// manage returns the customer managed key a key management operation names by key ID or key
// ARN, when its state lets the operation change it. The caller holds b.mu.
func (b *Backend) manage(call *core.Call, ref, operation string) (*region, *key, error) {
	r, k, err := b.lookup(call, ref, false)
	if err != nil {
		return nil, nil, err
	}
	if err := customerOnly(call, k, operation); err != nil {
		return nil, nil, err
	}
	return r, k, k.managed()
}

// enableKey makes a key Enabled (EnableKey).
func (b *Backend) enableKey(call *core.Call, in *kms.EnableKeyInput) (*kms.EnableKeyOutput, error) {
	return withManaged(b, call, in.KeyId, "EnableKey", func(k *key) (*kms.EnableKeyOutput, error) {
		k.state = stateEnabled
		return &kms.EnableKeyOutput{}, nil
	})
}

// disableKey makes a key Disabled, so that cryptographic operations refuse it (DisableKey).
func (b *Backend) disableKey(call *core.Call, in *kms.DisableKeyInput) (*kms.DisableKeyOutput, error) {
	return withManaged(b, call, in.KeyId, "DisableKey", func(k *key) (*kms.DisableKeyOutput, error) {
		k.state = stateDisabled
		return &kms.DisableKeyOutput{}, nil
	})
}

// updateKeyDescription replaces a key's description (UpdateKeyDescription).
func (b *Backend) updateKeyDescription(call *core.Call, in *kms.UpdateKeyDescriptionInput) (*kms.UpdateKeyDescriptionOutput, error) {
	if in.Description == nil {
		return nil, missing("description")
	}
	if err := checkDescription(*in.Description); err != nil {
		return nil, err
	}
	return withManaged(b, call, in.KeyId, "UpdateKeyDescription", func(k *key) (*kms.UpdateKeyDescriptionOutput, error) {
		k.description = *in.Description
		return &kms.UpdateKeyDescriptionOutput{}, nil
	})
}
