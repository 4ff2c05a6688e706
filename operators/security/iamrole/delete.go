package iamrole

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Delete empties the role (IAM refuses to delete a role with policies or in an instance
// profile): it detaches its managed policies, deletes its inline policies, takes it out of its
// instance profiles (deleting the one of its name this object made), then deletes it.
func (d *driver) Delete(ctx context.Context, r *v1alpha1.IAMRole, obs managed.Observation[State]) error {
	st := obs.State
	name := aws.ToString(st.Role.RoleName)
	for _, arn := range st.Attached {
		if _, err := d.api.DetachRolePolicy(ctx, &iam.DetachRolePolicyInput{RoleName: aws.String(name), PolicyArn: aws.String(arn)}); err != nil && !awserr.IsNotFound(err) {
			return managed.Wrap(err, "detach policy %s from role %s", arn, name)
		}
	}
	for p := range st.Inline {
		if _, err := d.api.DeleteRolePolicy(ctx, &iam.DeleteRolePolicyInput{RoleName: aws.String(name), PolicyName: aws.String(p)}); err != nil && !awserr.IsNotFound(err) {
			return managed.Wrap(err, "delete inline policy %s of role %s", p, name)
		}
	}
	profiles, err := d.api.ListInstanceProfilesForRole(ctx, &iam.ListInstanceProfilesForRoleInput{RoleName: aws.String(name)})
	if err != nil {
		return fmt.Errorf("list the instance profiles of role %s: %w", name, err)
	}
	for i := range profiles.InstanceProfiles {
		p := &profiles.InstanceProfiles[i]
		if aws.ToString(p.InstanceProfileName) == name && managed.OwnedBy(r, tagMap(p.Tags)) {
			if err := d.deleteProfile(ctx, p); err != nil {
				return err
			}
			continue
		}
		_, err := d.api.RemoveRoleFromInstanceProfile(ctx, &iam.RemoveRoleFromInstanceProfileInput{InstanceProfileName: p.InstanceProfileName, RoleName: aws.String(name)})
		if err != nil && !awserr.IsNotFound(err) {
			return managed.Wrap(err, "remove role %s from instance profile %s", name, aws.ToString(p.InstanceProfileName))
		}
	}
	_, err = d.api.DeleteRole(ctx, &iam.DeleteRoleInput{RoleName: aws.String(name)})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete role %s", name)
	}
	return nil
}

// ReleaseOwnership removes the ownership tags from the role and its instance profile, for
// deletionPolicy Orphan.
func (d *driver) ReleaseOwnership(ctx context.Context, _ *v1alpha1.IAMRole, obs managed.Observation[State]) error {
	name := obs.State.Role.RoleName
	if _, err := d.api.UntagRole(ctx, &iam.UntagRoleInput{RoleName: name, TagKeys: managed.OwnershipTagKeys()}); err != nil {
		return managed.Wrap(err, "remove the ownership tags of role %s", aws.ToString(name))
	}
	if p := obs.State.Profile; p != nil {
		_, err := d.api.UntagInstanceProfile(ctx, &iam.UntagInstanceProfileInput{InstanceProfileName: p.InstanceProfileName, TagKeys: managed.OwnershipTagKeys()})
		return managed.Wrap(err, "remove the ownership tags of instance profile %s", aws.ToString(p.InstanceProfileName))
	}
	return nil
}
