// Package kms emulates AWS Key Management Service over its JSON 1.1 protocol (target prefix
// TrentService): customer managed KMS keys of every key spec with AWS's spec and usage rules,
// key policies, automatic rotation settings, tags, multi-Region keys and their replicas,
// aliases, and symmetric encryption good enough for other services to check that a key is
// usable.
//
// Key states follow the key state table of the AWS KMS Developer Guide (Key states of AWS KMS
// keys): a key is created Enabled; DisableKey and EnableKey move it between Enabled and
// Disabled; ScheduleKeyDeletion makes it PendingDeletion for a waiting period of 7 to 30 days on
// the simulation clock (a multi-Region primary key with replicas is PendingReplicaDeletion until
// its last replica is deleted, and its waiting period starts then), after which the key, its
// aliases and its tags are gone and every operation answers NotFoundException;
// CancelKeyDeletion leaves it Disabled, as AWS does. Cryptographic operations answer
// DisabledException for a disabled key and KMSInvalidStateException for one scheduled for
// deletion; management operations answer KMSInvalidStateException for one scheduled for
// deletion.
//
// Encrypt, Decrypt, GenerateDataKey and GenerateDataKeyWithoutPlaintext work with symmetric
// encryption keys: the ciphertext blob is AES-256-GCM under the key's material, with the
// encryption context as additional data, and carries the key ID, so that Decrypt finds the key
// as it does on AWS. Backend.Usable lets other emulated services check a key the way these
// operations do.
//
// AWS managed keys (alias/aws/s3 and the like) come into being the first time an operation
// that takes an alias names one, as AWS creates them on first use; until then ListAliases lists
// their predefined aliases without a TargetKeyId, as AWS does. Their key policy lets only their
// AWS service use them, so managing them is refused with AccessDeniedException.
//
// Simplifications: only the AWS_KMS origin is emulated (no imported key material, custom key
// stores or external key stores); asymmetric and HMAC keys can be created, described and managed
// but not used (Encrypt and Decrypt with an RSA or SM2 encryption key answer
// UnsupportedOperationException, and Sign, Verify, GenerateMac, ReEncrypt, GenerateRandom and the
// other cryptographic operations are not emulated); key policies are
// checked for their form but never evaluated, and BypassPolicyLockoutSafetyCheck is ignored;
// automatic rotation advances the next rotation date on the simulation clock but keeps one key
// material; grants, on-demand rotation, UpdatePrimaryRegion and cross-account use are not
// emulated; a replica key is Enabled at once, without the transient Creating state; the
// predefined AWS managed aliases are those of a fixed list of services, the same in every
// Region.
package kms

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Backend holds the keys and aliases of every account and Region.
type Backend struct {
	// clock is the simulation clock, on which waiting periods and rotations pass.
	clock *core.Clock
	// mu guards everything below and the state of every key, alias and tag.
	mu sync.Mutex
	// regions holds the state of each account and Region.
	regions *core.Regions[*region]
}

// region is what one account has in one Region: its keys by key ID, its aliases by name, and the
// keys' tags by key ID.
type region struct {
	// scope is the account and Region.
	scope core.Scope
	// keys are the keys by key ID.
	keys map[string]*key
	// aliases are the aliases by alias name.
	aliases map[string]*alias
	// tags are the keys' tags by key ID.
	tags *core.Tags
}

// newRegion returns the empty state of an account in a Region.
func newRegion(scope core.Scope) *region {
	return &region{scope: scope, keys: map[string]*key{}, aliases: map[string]*alias{}, tags: core.NewTags(tagRules)}
}

// New returns an empty KMS backend on clock.
func New(clock *core.Clock) *Backend {
	return &Backend{clock: clock, regions: core.NewRegions(newRegion)}
}

// Service describes KMS to the router.
func (b *Backend) Service() *core.Service {
	s := core.JSONService("kms", "KMS", "TrentService")
	s.Errors = kms.TypeRegistry
	s.Throttle.Message = "You have exceeded the rate at which you may call KMS. Reduce the frequency of your calls."
	return s.Declare(0, b.dump, b.operations(), b.tagOperations())
}

// keyIDPattern matches key IDs: UUIDs, and "mrk-" and 32 hexadecimal digits for multi-Region
// keys.
var keyIDPattern = regexp.MustCompile(`^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|mrk-[0-9a-f]{32})$`)

// state settles every key's deletion on the call's clock and returns the state of the call's
// account and Region. The caller holds b.mu.
func (b *Backend) state(call *core.Call) *region {
	b.settle(call.Now)
	return b.regions.Of(call)
}

// inRegion runs f, holding b.mu, on the state of the caller's account and Region with every
// key's deletion settled (state), and returns what f returns.
func inRegion[O any](b *Backend, call *core.Call, f func(r *region) (*O, error)) (*O, error) {
	return core.Holding(&b.mu, func() (*region, error) { return b.state(call), nil }, f)
}

// settle deletes every key whose waiting period has passed, with its aliases and tags, and
// starts the waiting period of a multi-Region primary key PendingReplicaDeletion once its last
// replica is gone. The caller holds b.mu.
func (b *Backend) settle(now time.Time) {
	for changed := true; changed; {
		changed = false
		for scope, r := range b.regions.All() {
			for id, k := range r.keys {
				if k.state != statePendingDeletion || now.Before(k.deletion) {
					continue
				}
				delete(r.keys, id)
				r.tags.Delete(id)
				for name, a := range r.aliases {
					if a.target == id {
						delete(r.aliases, name)
					}
				}
				changed = true
				if !k.replica() {
					continue
				}
				primaryScope := core.Scope{Account: scope.Account, Region: k.primary}
				if pr, ok := b.regions.Lookup(primaryScope); ok {
					if p := pr.keys[id]; p != nil && p.state == stateReplicaDeletion && len(b.replicaRegions(p)) == 0 {
						p.state, p.deletion = statePendingDeletion, k.deletion.Add(time.Duration(p.window)*day)
					}
				}
			}
		}
	}
}

// replicaRegions returns, sorted, the Regions of the replicas of multi-Region key k (none for a
// single-Region key). The caller holds b.mu.
func (b *Backend) replicaRegions(k *key) []string {
	if !k.multiRegion() {
		return nil
	}
	var out []string
	for scope, r := range b.regions.All() {
		if scope.Account != k.scope.Account || scope.Region == k.primary {
			continue
		}
		if other, ok := r.keys[k.id]; ok && other.primary == k.primary {
			out = append(out, scope.Region)
		}
	}
	sort.Strings(out)
	return out
}

// describe returns the KeyMetadata of k. The caller holds b.mu.
func (b *Backend) describe(k *key) *types.KeyMetadata { return k.metadata(b.replicaRegions(k)) }

// resolve returns the key ref names in r: a key ID or key ARN, or, when aliases is true, an
// alias name or alias ARN too (the operations that take those). It answers as AWS does when ref
// names nothing: NotFoundException. The caller holds b.mu and has settled the keys.
func (b *Backend) resolve(r *region, now time.Time, ref string, aliases bool) (*key, error) {
	if ref == "" {
		return nil, missing("keyId")
	}
	name, id := "", ref
	if rest, ok := strings.CutPrefix(ref, "arn:"); ok {
		fields := strings.SplitN(rest, ":", 5)
		if len(fields) != 5 || fields[1] != "kms" {
			return nil, invalidKeyID(ref)
		}
		if fields[2] != r.scope.Region {
			return nil, core.Errorf("NotFoundException", "Invalid arn %s", fields[2])
		}
		switch resource := fields[4]; {
		case strings.HasPrefix(resource, "key/"):
			if fields[3] != r.scope.Account {
				return nil, notFoundKey(ref)
			}
			id = strings.TrimPrefix(resource, "key/")
		case strings.HasPrefix(resource, "alias/") && aliases:
			if fields[3] != r.scope.Account {
				return nil, notFoundAlias(ref)
			}
			name = resource
		default:
			return nil, invalidKeyID(ref)
		}
	} else if strings.HasPrefix(ref, "alias/") {
		if !aliases {
			return nil, invalidKeyID(ref)
		}
		name = ref
	}
	if name != "" {
		a := b.aliasNamed(r, now, name)
		if a == nil {
			return nil, notFoundAlias(r.scope.ARN("kms", name))
		}
		id = a.target
	}
	if !keyIDPattern.MatchString(id) {
		return nil, invalidKeyID(ref)
	}
	k, ok := r.keys[id]
	if !ok {
		return nil, notFoundKey(keyARN(r.scope, id))
	}
	return k, nil
}

// withKey runs f, holding b.mu, on the key ref names in the caller's region (by alias too when
// aliases is true), and returns f's answer or lookup's error.
func withKey[O any](b *Backend, call *core.Call, ref *string, aliases bool, f func(*key) (*O, error)) (*O, error) {
	return core.Holding(&b.mu, func() (*key, error) { _, k, err := b.lookup(call, aws.ToString(ref), aliases); return k, err }, f)
}

// withManaged runs f, holding b.mu, on the customer managed key ref names that operation may
// change, and returns f's answer or manage's error.
func withManaged[O any](b *Backend, call *core.Call, ref *string, operation string, f func(*key) (*O, error)) (*O, error) {
	return core.Holding(&b.mu, func() (*key, error) { _, k, err := b.manage(call, aws.ToString(ref), operation); return k, err }, f)
}

// lookup settles the keys and returns the call's Region and the key ref names there (see
// resolve). The caller holds b.mu.
func (b *Backend) lookup(call *core.Call, ref string, aliases bool) (*region, *key, error) {
	r := b.state(call)
	k, err := b.resolve(r, call.Now, ref, aliases)
	return r, k, err
}

// dump returns every key with its metadata, policy, tags and aliases, for /_emulator/state.
func (b *Backend) dump() any {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle(b.clock.Now())
	out := map[string]any{}
	for scope, r := range b.regions.All() {
		for id, k := range r.keys {
			var names []string
			for name, a := range r.aliases {
				if a.target == id {
					names = append(names, name)
				}
			}
			sort.Strings(names)
			out[scope.Account+"/"+scope.Region+"/"+id] = map[string]any{
				"metadata": b.describe(k), "policy": k.policy, "tags": r.tags.Map(id), "aliases": names,
				"rotation": map[string]any{"enabled": k.material.rotation, "periodInDays": k.material.period, "next": k.material.next},
			}
		}
	}
	return out
}
