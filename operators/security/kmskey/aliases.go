package kmskey

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planAliases plans the key's aliases as a set: an alias of the spec that does not exist is
// created, one that points at another key of this object's is moved to this key
// (UpdateAlias), and an alias that points at this key and is not in the spec is deleted. An
// alias of the spec that points at a key this object does not own is left alone and reported
// as a conflict (AliasTaken). Aliases carry no tags, so the key they point at says whose they
// are; finding it costs a call per missing alias, and none at steady state.
func (d *driver) planAliases(ctx context.Context, obs *managed.Observation[State], k *v1alpha1.KMSKey) error {
	id, have := aws.ToString(obs.State.Key.KeyId), obs.State.Aliases
	var remove, create, move []string
	for _, a := range have {
		if !slices.Contains(k.Spec.Aliases, a) {
			remove = append(remove, a)
		}
	}
	for _, a := range k.Spec.Aliases {
		if slices.Contains(have, a) {
			continue
		}
		target, err := d.aliasTarget(ctx, a)
		if err != nil {
			return err
		}
		if target == "" {
			create = append(create, a)
			continue
		}
		tags, err := d.tags(ctx, target)
		if err != nil {
			return err
		}
		if !managed.OwnedBy(k, tags) {
			obs.Conflict = cmp.Or(obs.Conflict, managed.Terminal(condition.ReasonAliasTaken,
				"alias %s points at key %s, which this KMSKey does not own; remove the alias from spec.aliases, or delete it in AWS or point it at key %s",
				a, target, id))
			continue
		}
		move = append(move, a)
	}
	if len(remove)+len(create)+len(move) == 0 {
		return nil
	}
	obs.Changes.AddValue("aliases", aliasList(have), aliasList(k.Spec.Aliases), func(ctx context.Context) error {
		if err := d.deleteAliases(ctx, remove); err != nil {
			return err
		}
		for _, a := range create {
			if _, err := d.api.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String(a), TargetKeyId: aws.String(id)}); err != nil {
				return managed.Wrap(err, "create alias %s of key %s", a, id)
			}
		}
		for _, a := range move {
			if _, err := d.api.UpdateAlias(ctx, &kms.UpdateAliasInput{AliasName: aws.String(a), TargetKeyId: aws.String(id)}); err != nil {
				return managed.Wrap(err, "point alias %s at key %s", a, id)
			}
		}
		return nil
	})
	return nil
}

// aliasTarget returns the id of the key that alias name points at, or "" when there is no
// such alias.
func (d *driver) aliasTarget(ctx context.Context, name string) (string, error) {
	out, err := d.api.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String(name)})
	if awserr.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("describe the key of alias %s: %w", name, err)
	}
	return aws.ToString(out.KeyMetadata.KeyId), nil
}

// deleteAliases deletes the aliases named; one already gone is no error.
func (d *driver) deleteAliases(ctx context.Context, names []string) error {
	for _, a := range names {
		if _, err := d.api.DeleteAlias(ctx, &kms.DeleteAliasInput{AliasName: aws.String(a)}); err != nil && !awserr.IsNotFound(err) {
			return managed.Wrap(err, "delete alias %s", a)
		}
	}
	return nil
}

// aliasList is how a plan shows a set of aliases: sorted, and [] for none.
func aliasList(aliases []string) []string {
	return slices.Sorted(slices.Values(append([]string{}, aliases...)))
}
