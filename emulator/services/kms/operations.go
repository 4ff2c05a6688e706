package kms

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are KMS's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateKey":                       core.Op(b.createKey),
		"DescribeKey":                     core.Op(b.describeKey),
		"ListKeys":                        core.Op(b.listKeys),
		"EnableKey":                       core.Op(b.enableKey),
		"DisableKey":                      core.Op(b.disableKey),
		"ScheduleKeyDeletion":             core.Op(b.scheduleKeyDeletion),
		"CancelKeyDeletion":               core.Op(b.cancelKeyDeletion),
		"UpdateKeyDescription":            core.Op(b.updateKeyDescription),
		"GetKeyPolicy":                    core.Op(b.getKeyPolicy),
		"PutKeyPolicy":                    core.Op(b.putKeyPolicy),
		"ListKeyPolicies":                 core.Op(b.listKeyPolicies),
		"EnableKeyRotation":               core.Op(b.enableKeyRotation),
		"DisableKeyRotation":              core.Op(b.disableKeyRotation),
		"GetKeyRotationStatus":            core.Op(b.getKeyRotationStatus),
		"ReplicateKey":                    core.Op(b.replicateKey),
		"ListResourceTags":                core.Op(b.listResourceTags),
		"CreateAlias":                     core.Op(b.createAlias),
		"UpdateAlias":                     core.Op(b.updateAlias),
		"DeleteAlias":                     core.Op(b.deleteAlias),
		"ListAliases":                     core.Op(b.listAliases),
		"Encrypt":                         core.Op(b.encrypt),
		"Decrypt":                         core.Op(b.decrypt),
		"GenerateDataKey":                 core.Op(b.generateDataKey),
		"GenerateDataKeyWithoutPlaintext": core.Op(b.generateDataKeyWithoutPlaintext),
	}
}
