package secretsmanager

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// CreateServiceSecret creates in scope a secret that another service manages for one of its
// resources, as RDS keeps a master user password (a secret named rds!cluster-<id> or
// rds!db-<id>): described by description, in the KMS key kmsKey ("" or the alias
// aws/secretsmanager for the AWS managed key), with value as its current version. It returns the
// secret's ARN.
func (b *Backend) CreateServiceSecret(scope core.Scope, name, description, kmsKey, value string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	b.purge(scope, now)
	secrets := b.secrets.For(scope)
	if _, ok := secrets[name]; ok {
		return "", resourceExists("The operation failed because the secret %s already exists.", name)
	}
	arn := arnPrefix(scope) + name + randomSuffix()
	st := &state{name: name, primaryARN: arn, primaryRegion: scope.Region, description: description,
		kmsKeyID: storedKey(kmsKey), created: now, changed: now}
	st.putValue(versionID(nil), &value, nil, nil, now)
	secrets[name] = &secret{state: st, arn: arn, region: scope.Region}
	return arn, nil
}

// DeleteServiceSecret deletes at once the secret arn of scope that a service managed, as RDS
// does when it stops managing a password or deletes the resource; a secret already gone is no
// error.
func (b *Backend) DeleteServiceSecret(scope core.Scope, arn string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	secrets := b.secrets.For(scope)
	for name, s := range secrets {
		if s.arn == arn {
			delete(secrets, name)
			b.tags.Delete(s.primaryARN)
		}
	}
}
