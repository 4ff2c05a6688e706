package rds

import (
	"crypto/rand"
	"encoding/json"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Secrets is what RDS needs of the emulated Secrets Manager to keep the master passwords it
// manages (ManageMasterUserPassword): creating a secret it owns, and deleting it (the Secrets
// Manager backend implements it).
type Secrets interface {
	CreateServiceSecret(scope core.Scope, name, description, kmsKey, value string) (string, error)
	DeleteServiceSecret(scope core.Scope, arn string)
}

// KeepSecretsIn makes RDS keep the master passwords of the DB clusters that manage theirs in
// secrets of the emulated Secrets Manager, as AWS does: a secret named rds!cluster-<id> whose
// value is {"username": ..., "password": ...}, deleted with the cluster or when the cluster stops
// managing its password. Without it MasterUserSecret names a secret that does not exist. The
// server calls it once, before serving.
func (b *Backend) KeepSecretsIn(s Secrets) { b.secrets = s }

// passwordChars are the characters of the master passwords RDS generates.
const passwordChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+,-.:;<=>?[]^_{|}~"

// generatedPassword returns a random 28-character master password of the characters RDS allows.
func generatedPassword() string {
	b := make([]byte, 28)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = passwordChars[int(b[i])%len(passwordChars)]
	}
	return string(b)
}

// createClusterSecret creates the secret of a cluster that manages its master password and
// records its ARN in the cluster (the cluster keeps its computed ARN when no Secrets Manager is
// connected).
func (b *Backend) createClusterSecret(scope core.Scope, c *cluster) error {
	if b.secrets == nil || c.secret == "" {
		return nil
	}
	value, _ := json.Marshal(map[string]string{"username": c.masterUsername, "password": generatedPassword()})
	arn, err := b.secrets.CreateServiceSecret(scope, "rds!cluster-"+stableUUID(c.resourceID, "secret"), "Secret associated with primary RDS DB cluster: "+c.arn,
		managedKeyOrNone(scope, c.secretKMS), string(value))
	if err != nil {
		return err
	}
	c.secret = arn
	return nil
}

// deleteSecret deletes a secret RDS managed, when a Secrets Manager is connected.
func (b *Backend) deleteSecret(scope core.Scope, arn string) {
	if b.secrets != nil && arn != "" {
		b.secrets.DeleteServiceSecret(scope, arn)
	}
}

// managedKeyOrNone returns "" for the account's aws/secretsmanager key, which Secrets Manager
// leaves unnamed, and key otherwise.
func managedKeyOrNone(scope core.Scope, key string) string {
	if key == kmsKeyARN(scope, "", "aws/secretsmanager") {
		return ""
	}
	return key
}
