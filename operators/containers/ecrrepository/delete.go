package ecrrepository

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete deletes the repository, with its images when forceDelete is set. A repository that
// holds images without forceDelete is kept and the object waits with the terminal condition
// RepositoryNotEmpty until forceDelete is set (a spec change wakes it) or the deletion policy
// changes.
func (d *driver) Delete(ctx context.Context, r *v1alpha1.ECRRepository, obs managed.Observation[State]) error {
	name := obs.State.Repository.RepositoryName
	_, err := d.api.DeleteRepository(ctx, &ecr.DeleteRepositoryInput{RepositoryName: name, Force: r.Spec.ForceDelete})
	switch {
	case err == nil, awserr.IsNotFound(err):
		return nil
	case awserr.Code(err) == "RepositoryNotEmptyException":
		return managed.Terminal(condition.ReasonRepositoryNotEmpty, "repository %s holds %d images: set spec.forceDelete: true to delete them with the repository, "+
			"or set deletionPolicy to Retain or Orphan to keep the repository", aws.ToString(name), obs.State.Images)
	}
	return managed.Wrap(err, "delete repository %s", aws.ToString(name))
}

// ReleaseOwnership removes the ownership tags from the repository.
func (d *driver) ReleaseOwnership(ctx context.Context, r *v1alpha1.ECRRepository, obs managed.Observation[State]) error {
	_, err := d.api.UntagResource(ctx, &ecr.UntagResourceInput{ResourceArn: obs.State.Repository.RepositoryArn, TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "untag repository %s", r.Spec.RepositoryName)
}
