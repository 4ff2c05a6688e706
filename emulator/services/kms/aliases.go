package kms

import (
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// alias is a friendly name of a key in one account and Region.
type alias struct {
	// name is the alias name, "alias/" and the rest.
	name string
	// target is the key ID of the key the alias names.
	target string
	// created and updated are the creation date and the date the alias last changed.
	created, updated time.Time
}

// aliasPattern is the pattern of AliasName in the KMS API reference; the colon it allows is
// then refused by CreateAlias, which allows letters, digits, slashes, underscores and dashes.
var aliasPattern = regexp.MustCompile(`^[a-zA-Z0-9:/_-]+$`)

// reservedPrefix begins the names of the aliases of AWS managed keys, which users cannot make,
// change or delete.
const reservedPrefix = "alias/aws/"

// checkAliasName returns AWS's error for an alias name a user may not create, update or delete
// (CreateAlias, AliasName): one without the alias/ prefix, too long, with characters outside
// letters, digits, slashes, underscores and dashes, or in the alias/aws/ namespace AWS reserves
// for AWS managed keys.
func checkAliasName(name string) error {
	switch {
	case name == "":
		return missing("aliasName")
	case !strings.HasPrefix(name, "alias/"):
		return validation(`Alias must start with the prefix "alias/". Please see https://docs.aws.amazon.com/kms/latest/developerguide/kms-alias.html`)
	case len(name) > 256:
		return validation("1 validation error detected: Value '%s' at 'aliasName' failed to satisfy constraint: Member must have length less than or equal to 256", name)
	case !aliasPattern.MatchString(name):
		return validation("1 validation error detected: Value '%s' at 'aliasName' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[a-zA-Z0-9:/_-]+$", name)
	case strings.Contains(name, ":"):
		return validation("%s contains invalid characters for an alias", name)
	case name == "alias/":
		return core.Errorf("InvalidAliasNameException", "Alias name %s must have a name after the alias/ prefix.", name)
	case strings.HasPrefix(name, reservedPrefix):
		return core.Errorf("InvalidAliasNameException", "Alias %s cannot begin with %s: the prefix is reserved for AWS managed keys.", name, reservedPrefix)
	}
	return nil
}

// aliasNamed returns the alias named name in r, making an AWS managed key and its alias on the
// first use of a predefined alias/aws/ name, or nil. The caller holds b.mu.
func (b *Backend) aliasNamed(r *region, now time.Time, name string) *alias {
	if a, ok := r.aliases[name]; ok {
		return a
	}
	if service, ok := strings.CutPrefix(name, reservedPrefix); ok && managedServices[service] {
		k := newManagedKey(r.scope, now, service)
		r.keys[k.id] = k
		a := &alias{name: name, target: k.id, created: now, updated: now}
		r.aliases[name] = a
		return a
	}
	return nil
}

// target returns the key an alias may be made to point to: a customer managed key in r, named by
// key ID or key ARN, that is not scheduled for deletion. The caller holds b.mu.
func (b *Backend) target(call *core.Call, r *region, ref, operation string) (*key, error) {
	if ref == "" {
		return nil, missing("targetKeyId")
	}
	if strings.HasPrefix(ref, "alias/") || strings.Contains(ref, ":alias/") {
		return nil, validation("Aliases must refer to keys. Not aliases")
	}
	k, err := b.resolve(r, call.Now, ref, false)
	if err != nil {
		return nil, err
	}
	if err := customerOnly(call, k, operation); err != nil {
		return nil, err
	}
	return k, k.managed()
}

// withAlias runs f, holding b.mu, on the caller's region (its keys' deletions settled) and the
// alias name a request gives, once the name is checked.
func withAlias[O any](b *Backend, call *core.Call, alias *string, f func(r *region, name string) (*O, error)) (*O, error) {
	name := aws.ToString(alias)
	if err := checkAliasName(name); err != nil {
		return nil, err
	}
	return inRegion(b, call, func(r *region) (*O, error) { return f(r, name) })
}

// createAlias makes an alias of a customer managed key (CreateAlias).
func (b *Backend) createAlias(call *core.Call, in *kms.CreateAliasInput) (*kms.CreateAliasOutput, error) {
	return withAlias(b, call, in.AliasName, func(r *region, name string) (*kms.CreateAliasOutput, error) {
		if _, ok := r.aliases[name]; ok {
			return nil, core.Errorf("AlreadyExistsException", "An alias with the name %s already exists", r.scope.ARN("kms", name))
		}
		k, err := b.target(call, r, aws.ToString(in.TargetKeyId), "CreateAlias")
		if err != nil {
			return nil, err
		}
		r.aliases[name] = &alias{name: name, target: k.id, created: call.Now, updated: call.Now}
		return &kms.CreateAliasOutput{}, nil
	})
}

// updateAlias points an existing alias to another key of the same type and key usage (UpdateAlias).
func (b *Backend) updateAlias(call *core.Call, in *kms.UpdateAliasInput) (*kms.UpdateAliasOutput, error) {
	return withAlias(b, call, in.AliasName, func(r *region, name string) (*kms.UpdateAliasOutput, error) {
		a, ok := r.aliases[name]
		if !ok {
			return nil, notFoundAlias(r.scope.ARN("kms", name))
		}
		k, err := b.target(call, r, aws.ToString(in.TargetKeyId), "UpdateAlias")
		if err != nil {
			return nil, err
		}
		// The current and the new key must be of the same type (symmetric, asymmetric or HMAC) and
		// have the same key usage (UpdateAlias, TargetKeyId).
		if current, ok := r.keys[a.target]; ok && (current.usage != k.usage || keyType(current.spec) != keyType(k.spec)) {
			return nil, validation("%s is a %s key with key usage %s; alias %s points to a %s key with key usage %s, and the new key must be of the same type and key usage",
				k.arn, keyType(k.spec), k.usage, name, keyType(current.spec), current.usage)
		}
		a.target, a.updated = k.id, call.Now
		return &kms.UpdateAliasOutput{}, nil
	})
}

// keyType is the type of a key as UpdateAlias compares them: symmetric, asymmetric or HMAC.
func keyType(spec types.KeySpec) string {
	switch {
	case spec == specSymmetric:
		return "symmetric"
	case strings.HasPrefix(string(spec), "HMAC_"):
		return "HMAC"
	}
	return "asymmetric"
}

// deleteAlias deletes an alias; its key is not affected (DeleteAlias).
func (b *Backend) deleteAlias(call *core.Call, in *kms.DeleteAliasInput) (*kms.DeleteAliasOutput, error) {
	return withAlias(b, call, in.AliasName, func(r *region, name string) (*kms.DeleteAliasOutput, error) {
		if _, ok := r.aliases[name]; !ok {
			return nil, notFoundAlias(r.scope.ARN("kms", name))
		}
		delete(r.aliases, name)
		return &kms.DeleteAliasOutput{}, nil
	})
}

// listAliases lists the aliases of the account and Region, or of one key, by name (ListAliases).
func (b *Backend) listAliases(call *core.Call, in *kms.ListAliasesInput) (*kms.ListAliasesOutput, error) {
	limit, err := pageLimit(in.Limit, 100, 50)
	if err != nil {
		return nil, err
	}
	return inRegion(b, call, func(r *region) (*kms.ListAliasesOutput, error) {
		target := ""
		if in.KeyId != nil {
			k, err := b.resolve(r, call.Now, aws.ToString(in.KeyId), false)
			if err != nil {
				return nil, err
			}
			target = k.id
		}
		var names []string
		for name, a := range r.aliases {
			if target == "" || a.target == target {
				names = append(names, name)
			}
		}
		if target == "" {
			// The predefined aliases of AWS managed keys are listed before their keys exist, without
			// a TargetKeyId (ListAliases).
			for service := range managedServices {
				if _, ok := r.aliases[reservedPrefix+service]; !ok {
					names = append(names, reservedPrefix+service)
				}
			}
		}
		sort.Strings(names)
		names, next, err := page(names, func(n string) string { return n }, aws.ToString(in.Marker), limit)
		if err != nil {
			return nil, err
		}
		out := &kms.ListAliasesOutput{Aliases: []types.AliasListEntry{}, NextMarker: next, Truncated: next != nil}
		for _, name := range names {
			entry := types.AliasListEntry{AliasName: aws.String(name), AliasArn: aws.String(r.scope.ARN("kms", name))}
			if a, ok := r.aliases[name]; ok {
				entry.TargetKeyId, entry.CreationDate, entry.LastUpdatedDate = aws.String(a.target), aws.Time(a.created), aws.Time(a.updated)
			}
			out.Aliases = append(out.Aliases, entry)
		}
		return out, nil
	})
}
