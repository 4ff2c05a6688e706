package iaminstanceprofile

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete takes the role out of the instance profile (IAM refuses to delete a profile that holds
// one) and deletes it. The role itself is left alone.
func (d *driver) Delete(ctx context.Context, _ *v1alpha1.IAMInstanceProfile, obs managed.Observation[State]) error {
	prof := obs.State.Profile
	name := aws.ToString(prof.InstanceProfileName)
	if err := d.setRole(ctx, name, roleNames(prof), ""); err != nil {
		return err
	}
	_, err := d.api.DeleteInstanceProfile(ctx, &iam.DeleteInstanceProfileInput{InstanceProfileName: aws.String(name)})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete instance profile %s", name)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags from the instance profile, for deletionPolicy
// Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.IAMInstanceProfile, obs managed.Observation[State]) error {
	name := obs.State.Profile.InstanceProfileName
	_, err := d.api.UntagInstanceProfile(ctx, &iam.UntagInstanceProfileInput{InstanceProfileName: name, TagKeys: managed.OwnershipTagKeys()})
	return managed.Wrap(err, "remove the ownership tags of instance profile %s", aws.ToString(name))
}
