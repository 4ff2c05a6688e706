package ecrrepository

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Create creates the repository with its tag mutability, scan on push, encryption and tags
// (CreateRepository has no idempotency token; the name is unique, and a repository of that
// name found later is claimed only when its ownership tags name this object), records its
// name at once, then sets the lifecycle and repository policies the spec gives.
func (d *driver) Create(ctx context.Context, r *v1alpha1.ECRRepository, req managed.Request) error {
	name := aws.String(r.Spec.RepositoryName)
	enc := wantedEncryption(r)
	_, err := d.api.CreateRepository(ctx, &ecr.CreateRepositoryInput{
		RepositoryName:             name,
		ImageTagMutability:         mutability(r),
		ImageScanningConfiguration: scanning(r),
		EncryptionConfiguration:    &enc,
		Tags:                       tagList(req.Tags),
	})
	if err != nil {
		return managed.Wrap(err, "create repository %s", r.Spec.RepositoryName)
	}
	managed.SetExternalName(r, r.Spec.RepositoryName)
	if doc := r.Spec.LifecyclePolicy; doc != "" {
		if err := d.putLifecyclePolicy(ctx, name, doc); err != nil {
			return err
		}
	}
	if doc := r.Spec.RepositoryPolicy; doc != "" {
		return d.putRepositoryPolicy(ctx, name, doc)
	}
	return nil
}
