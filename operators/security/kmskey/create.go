package kmskey

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create gives k a key. It first searches the account's keys (search): a key that carries k's
// ownership tag (a create whose answer was lost) is recorded as k's, and a key the operator
// scheduled for deletion for an earlier object of k's namespace and name, of the spec's key
// spec, usage and Region setting, is taken back (reuse). Otherwise it creates the key with its
// description, spec, usage, key policy, Region setting and tags (the ownership tags included)
// and records its id at once; rotation, aliases and the enabled state follow as changes of the
// next look, in the same pass.
func (d *driver) Create(ctx context.Context, k *v1alpha1.KMSKey, req managed.Request) error {
	f, err := d.search(ctx, k, req.Tags)
	if err != nil {
		return err
	}
	if len(f.own) > 0 {
		d.adopt(ctx, k, f.own)
		return nil
	}
	earlier, err := d.reusable(ctx, k, f.earlier)
	if err != nil {
		return err
	}
	if earlier != nil {
		return d.reuse(ctx, k, req, earlier)
	}
	in := &kms.CreateKeyInput{
		Description: aws.String(k.Spec.Description), KeySpec: types.KeySpec(k.Spec.KeySpec), KeyUsage: types.KeyUsageType(k.Spec.KeyUsage),
		MultiRegion: aws.Bool(k.Spec.MultiRegion), Tags: tagList(req.Tags),
	}
	if k.Spec.KeyPolicy != "" {
		in.Policy = aws.String(k.Spec.KeyPolicy)
	}
	out, err := d.api.CreateKey(ctx, in)
	if err != nil {
		return fmt.Errorf("create key: %w", err)
	}
	managed.SetExternalName(k, aws.ToString(out.KeyMetadata.KeyId))
	fillKeyStatus(k, out.KeyMetadata)
	return nil
}
