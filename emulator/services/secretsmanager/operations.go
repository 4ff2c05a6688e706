package secretsmanager

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are Secrets Manager's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateSecret":                 core.Op(b.createSecret),
		"DescribeSecret":               core.Op(b.describeSecret),
		"GetSecretValue":               core.Op(b.getSecretValue),
		"PutSecretValue":               core.Op(b.putSecretValue),
		"UpdateSecret":                 core.Op(b.updateSecret),
		"UpdateSecretVersionStage":     core.Op(b.updateSecretVersionStage),
		"ListSecretVersionIds":         core.Op(b.listSecretVersionIds),
		"ListSecrets":                  core.Op(b.listSecrets),
		"DeleteSecret":                 core.Op(b.deleteSecret),
		"RestoreSecret":                core.Op(b.restoreSecret),
		"RotateSecret":                 core.Op(b.rotateSecret),
		"CancelRotateSecret":           core.Op(b.cancelRotateSecret),
		"ReplicateSecretToRegions":     core.Op(b.replicateSecretToRegions),
		"RemoveRegionsFromReplication": core.Op(b.removeRegionsFromReplication),
		"GetRandomPassword":            core.Op(b.getRandomPassword),
		"GetResourcePolicy":            core.Op(b.getResourcePolicy),
		"PutResourcePolicy":            core.Op(b.putResourcePolicy),
		"DeleteResourcePolicy":         core.Op(b.deleteResourcePolicy),
	}
}
