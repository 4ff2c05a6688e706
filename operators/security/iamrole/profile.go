package iamrole

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planProfile plans the instance profile of the role's name: created (with the tags) and given
// the role when the spec asks for one, emptied and deleted when it no longer does and the
// profile is this object's. The plan shows whether the profile exists, except when it exists
// without the role, which the spec's flag does not tell apart.
func (d *driver) planProfile(plan *managed.Plan, r *v1alpha1.IAMRole, st *State, tags map[string]string) {
	name, p := r.Spec.RoleName, st.Profile
	switch {
	case r.Spec.InstanceProfile && p == nil:
		plan.AddValue("instanceProfile", false, true, func(ctx context.Context) error {
			_, err := d.api.CreateInstanceProfile(ctx, &iam.CreateInstanceProfileInput{InstanceProfileName: aws.String(name), Path: st.Role.Path, Tags: tagList(tags)})
			if err != nil && awserr.Code(err) != "EntityAlreadyExists" {
				return managed.Wrap(err, "create instance profile %s", name)
			}
			return d.addRole(ctx, name)
		})
	case r.Spec.InstanceProfile && !holds(p, name):
		plan.Add("instanceProfile", func(ctx context.Context) error { return d.addRole(ctx, name) })
	case !r.Spec.InstanceProfile && p != nil && managed.OwnedBy(r, tagMap(p.Tags)):
		plan.AddValue("instanceProfile", true, false, func(ctx context.Context) error { return d.deleteProfile(ctx, p) })
	}
}

// holds reports whether instance profile p holds role.
func holds(p *types.InstanceProfile, role string) bool {
	return slices.ContainsFunc(p.Roles, func(r types.Role) bool { return aws.ToString(r.RoleName) == role })
}

// addRole puts role into the instance profile of its name.
func (d *driver) addRole(ctx context.Context, role string) error {
	_, err := d.api.AddRoleToInstanceProfile(ctx, &iam.AddRoleToInstanceProfileInput{InstanceProfileName: aws.String(role), RoleName: aws.String(role)})
	return managed.Wrap(err, "add role %s to its instance profile", role)
}

// deleteProfile removes every role from instance profile p and deletes it.
func (d *driver) deleteProfile(ctx context.Context, p *types.InstanceProfile) error {
	name := aws.ToString(p.InstanceProfileName)
	for _, role := range p.Roles {
		_, err := d.api.RemoveRoleFromInstanceProfile(ctx, &iam.RemoveRoleFromInstanceProfileInput{InstanceProfileName: aws.String(name), RoleName: role.RoleName})
		if err != nil && !awserr.IsNotFound(err) {
			return managed.Wrap(err, "remove role %s from instance profile %s", aws.ToString(role.RoleName), name)
		}
	}
	_, err := d.api.DeleteInstanceProfile(ctx, &iam.DeleteInstanceProfileInput{InstanceProfileName: aws.String(name)})
	if err != nil && !awserr.IsNotFound(err) {
		return managed.Wrap(err, "delete instance profile %s", name)
	}
	return nil
}
