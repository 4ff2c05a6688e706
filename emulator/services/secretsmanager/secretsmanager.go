// Package secretsmanager emulates AWS Secrets Manager over its JSON protocol: secrets whose
// string or binary values are kept as versions with staging labels (AWSCURRENT, AWSPREVIOUS,
// AWSPENDING and labels of the caller's own), ClientRequestToken idempotency, descriptions, KMS
// key ids, tags, listing with filters and paging, deletion after a recovery window on the
// simulation clock (or at once), restore, rotation settings, replication to other regions of
// the account, and random passwords.
//
// The emulator cannot invoke Lambda functions. RotateSecret records the rotation function and
// schedule and, when it rotates immediately, leaves what a successful rotation leaves: a new
// version with the current value, staged AWSPENDING and then made AWSCURRENT (the version it
// replaces becomes AWSPREVIOUS), and LastRotatedDate set to the time of the call. Scheduled
// rotations do not happen by themselves. Neither the rotation function nor the KMS key is
// checked, and nothing is encrypted. Resource policies are kept (valid JSON with a Statement,
// at most 20,480 characters; BlockPublicPolicy refuses one that allows everyone, as
// core.PublicPolicy decides it) but not enforced. BatchGetSecretValue, ValidateResourcePolicy,
// StopReplicationToReplica and managed external secrets are not emulated.
package secretsmanager

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Backend holds the secrets of every account and region.
type Backend struct {
	clock   *core.Clock
	mu      sync.Mutex
	secrets *core.Regions[map[string]*secret] // by name
	tags    *core.Tags                        // by the ARN of the primary secret
}

// New returns an empty Secrets Manager backend on clock.
func New(clock *core.Clock) *Backend {
	return &Backend{clock: clock, tags: core.NewTags(tagRules),
		secrets: core.NewRegions(func(core.Scope) map[string]*secret { return map[string]*secret{} })}
}

// Service describes Secrets Manager to the router.
func (b *Backend) Service() *core.Service {
	s := core.JSONService("secretsmanager", "SecretsManager", "secretsmanager")
	return s.Declare(0, b.dump, b.operations(), b.tagOperations())
}

// arnPrefix returns the ARN of the secrets of scope up to the secret's name,
// "arn:aws:secretsmanager:<region>:<account>:secret:".
func arnPrefix(scope core.Scope) string { return scope.ARN("secretsmanager", "secret:") }

// purge forgets the secrets of scope whose recovery window has ended. The caller holds b.mu.
func (b *Backend) purge(scope core.Scope, now time.Time) {
	secrets := b.secrets.For(scope)
	for name, s := range secrets {
		if s.primaryRegion == scope.Region && s.deletion != nil && !now.Before(*s.deletion) {
			delete(secrets, name)
			b.tags.Delete(s.primaryARN)
		}
	}
}

// find returns the secret that id names in the call's region, by name, by full ARN, or by ARN
// without the random suffix (a partial ARN), including one scheduled for deletion. The caller
// holds b.mu.
func (b *Backend) find(call *core.Call, id *string) (*secret, error) {
	b.purge(call.Scope(), call.Now)
	secrets := b.secrets.Of(call)
	key := aws.ToString(id)
	if s, ok := secrets[key]; ok {
		return s, nil
	}
	for _, s := range secrets {
		if s.arn == key {
			return s, nil
		}
	}
	if name, ok := strings.CutPrefix(key, arnPrefix(call.Scope())); ok {
		if s, ok := secrets[name]; ok {
			return s, nil
		}
	}
	return nil, notFound()
}

// live is find for operations that refuse a secret scheduled for deletion.
func (b *Backend) live(call *core.Call, id *string) (*secret, error) {
	s, err := b.find(call, id)
	if err != nil {
		return nil, err
	}
	if s.deletion != nil {
		return nil, markedForDeletion()
	}
	return s, nil
}

// withSecret runs f, holding b.mu, on the secret that find (b.find, b.live or b.primary) returns
// for id, and returns f's answer or find's error.
func withSecret[O any](b *Backend, call *core.Call, find func(*core.Call, *string) (*secret, error), id *string, f func(*secret) (*O, error)) (*O, error) {
	return core.Holding(&b.mu, func() (*secret, error) { return find(call, id) }, f)
}

// primary is live for operations that change a secret, which its replicas refuse.
func (b *Backend) primary(call *core.Call, id *string) (*secret, error) {
	s, err := b.live(call, id)
	if err != nil {
		return nil, err
	}
	if s.isReplica() {
		return nil, onReplica()
	}
	return s, nil
}

// dump returns the state of every secret, for debugging.
func (b *Backend) dump() any {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]any{}
	now := b.clock.Now()
	var scopes []core.Scope
	for scope := range b.secrets.All() {
		scopes = append(scopes, scope)
	}
	for _, scope := range scopes {
		b.purge(scope, now)
		secrets := b.secrets.For(scope)
		for _, name := range core.SortedKeys(secrets) {
			out[fmt.Sprintf("%s/%s/%s", scope.Account, scope.Region, name)] = b.describe(secrets[name])
		}
	}
	return out
}
