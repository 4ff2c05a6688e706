package kms

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// Usable returns nil when the KMS key keyID names in scope (a key ID, key ARN, alias name or
// alias ARN, as services that take a KmsKeyId accept) could encrypt now, as another AWS service
// checks the key it is given: a symmetric encryption key that is enabled. Otherwise it returns
// the *core.APIError that Encrypt would answer: NotFoundException for a key or alias that does
// not exist, DisabledException for a disabled key, KMSInvalidStateException for one scheduled
// for deletion, InvalidKeyUsageException for a key that is not a symmetric encryption key.
// Naming an AWS managed key's alias (alias/aws/s3) makes the key on first use, as on AWS.
func (b *Backend) Usable(scope core.Scope, keyID string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	k, err := b.given(scope, keyID)
	if err != nil {
		return err
	}
	if err := k.usable(); err != nil {
		return err
	}
	if !k.symmetricEncryption() {
		return invalidKeyUsage(k, "Encrypt")
	}
	return nil
}

// KeyARN returns the key ARN of the KMS key keyID names in scope (a key ID, key ARN, alias name
// or alias ARN), whatever its state, for services that report the key they were given by its
// ARN; it answers NotFoundException as DescribeKey does.
func (b *Backend) KeyARN(scope core.Scope, keyID string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	k, err := b.given(scope, keyID)
	if err != nil {
		return "", err
	}
	return k.arn, nil
}

// given returns the key keyID names in scope (a key ID, key ARN, alias name or alias ARN) as
// another service gives it, with every key's deletion settled on the clock. The caller holds
// b.mu.
func (b *Backend) given(scope core.Scope, keyID string) (*key, error) {
	now := b.clock.Now()
	b.settle(now)
	return b.resolve(b.regions.For(scope), now, keyID, true)
}
