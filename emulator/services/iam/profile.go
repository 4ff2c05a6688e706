package iam

import (
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxProfileName is the longest instance profile name (IAM API reference).
const maxProfileName = 128

// profile is one instance profile: a container for at most one role that EC2 instances use.
type profile struct {
	entity
	role string // the key of its role in the account's roles, or ""
}

// profile returns the instance profile a request names, or AWS's error for a malformed name or a
// profile that does not exist (or is not visible yet). The caller holds the backend's lock.
func (a *account) profile(call *core.Call, name *string) (*profile, error) {
	return lookup(call, a.profiles, name, "instanceProfileName", maxProfileName, "Instance Profile %s cannot be found.")
}

// profileView returns an instance profile as the SDK describes it, with its role as ListRoles
// describes roles. The caller holds the backend's lock.
func (a *account) profileView(p *profile) types.InstanceProfile {
	out := types.InstanceProfile{InstanceProfileName: aws.String(p.name), InstanceProfileId: aws.String(p.id), Arn: aws.String(p.arn),
		Path: aws.String(p.path), CreateDate: aws.Time(p.created), Roles: []types.Role{}, Tags: a.tagList(p.arn)}
	if r, ok := a.roles[p.role]; ok {
		out.Roles = append(out.Roles, a.view(r, listed))
	}
	return out
}

// createInstanceProfile creates an empty instance profile.
func (b *Backend) createInstanceProfile(call *core.Call, in *iam.CreateInstanceProfileInput) (*iam.CreateInstanceProfileOutput, error) {
	name, path, err := checkNameAndPath(in.InstanceProfileName, "instanceProfileName", maxProfileName, in.Path)
	if err != nil {
		return nil, err
	}
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(a *account) (*iam.CreateInstanceProfileOutput, error) {
		if err := checkNew(a.profiles, name, "Instance Profile %s already exists.", "InstanceProfilesPerAccount", maxProfiles); err != nil {
			return nil, err
		}
		p := &profile{entity: a.newEntity(call, "instance-profile", "AIPA", name, path)}
		if err := add(a, a.profiles, p, tags); err != nil {
			return nil, err
		}
		return &iam.CreateInstanceProfileOutput{InstanceProfile: ptr(a.profileView(p))}, nil
	})
}

// getInstanceProfile describes an instance profile and its role.
func (b *Backend) getInstanceProfile(call *core.Call, in *iam.GetInstanceProfileInput) (*iam.GetInstanceProfileOutput, error) {
	return withEntity(b, call, (*account).profile, in.InstanceProfileName, func(a *account, p *profile) (*iam.GetInstanceProfileOutput, error) {
		return &iam.GetInstanceProfileOutput{InstanceProfile: ptr(a.profileView(p))}, nil
	})
}

// deleteInstanceProfile deletes an instance profile that has no role, as AWS requires.
func (b *Backend) deleteInstanceProfile(call *core.Call, in *iam.DeleteInstanceProfileInput) (*iam.DeleteInstanceProfileOutput, error) {
	return withEntity(b, call, (*account).profile, in.InstanceProfileName, func(a *account, p *profile) (*iam.DeleteInstanceProfileOutput, error) {
		if p.role != "" {
			return nil, deleteConflict("Cannot delete entity, must remove roles from instance profile first.")
		}
		delete(a.profiles, key(p.name))
		a.tags.Delete(p.arn)
		return &iam.DeleteInstanceProfileOutput{}, nil
	})
}

// profileAndRole returns the instance profile and the role that a request names, or AWS's error
// for the profile, then for the role. The caller holds the backend's lock.
func (a *account) profileAndRole(call *core.Call, profileName, roleName *string) (*profile, *role, error) {
	p, err := a.profile(call, profileName)
	if err != nil {
		return nil, nil, err
	}
	r, err := a.role(call, roleName)
	if err != nil {
		return nil, nil, err
	}
	return p, r, nil
}

// addRoleToInstanceProfile puts a role in an instance profile, which holds one role at most.
func (b *Backend) addRoleToInstanceProfile(call *core.Call, in *iam.AddRoleToInstanceProfileInput) (*iam.AddRoleToInstanceProfileOutput, error) {
	return core.Locked(b.state, call, func(a *account) (*iam.AddRoleToInstanceProfileOutput, error) {
		p, r, err := a.profileAndRole(call, in.InstanceProfileName, in.RoleName)
		if err != nil {
			return nil, err
		}
		if p.role != "" {
			return nil, quotaExceeded("InstanceSessionsPerInstanceProfile", 1)
		}
		p.role = key(r.name)
		return &iam.AddRoleToInstanceProfileOutput{}, nil
	})
}

// removeRoleFromInstanceProfile takes a role out of an instance profile; a role the profile does
// not hold answers NoSuchEntity.
func (b *Backend) removeRoleFromInstanceProfile(call *core.Call, in *iam.RemoveRoleFromInstanceProfileInput) (*iam.RemoveRoleFromInstanceProfileOutput, error) {
	return core.Locked(b.state, call, func(a *account) (*iam.RemoveRoleFromInstanceProfileOutput, error) {
		p, r, err := a.profileAndRole(call, in.InstanceProfileName, in.RoleName)
		if err != nil {
			return nil, err
		}
		if p.role != key(r.name) {
			return nil, noSuchEntity("The role with name %s cannot be found in instance profile %s.", r.name, p.name)
		}
		p.role = ""
		return &iam.RemoveRoleFromInstanceProfileOutput{}, nil
	})
}

// listInstanceProfilesForRole returns one page of the instance profiles that hold a role, sorted
// by name.
func (b *Backend) listInstanceProfilesForRole(call *core.Call, in *iam.ListInstanceProfilesForRoleInput) (*iam.ListInstanceProfilesForRoleOutput, error) {
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.ListInstanceProfilesForRoleOutput, error) {
		holding := func(p *profile) bool { return p.role == key(r.name) }
		views, l, err := listPage(slices.Collect(maps.Values(a.profiles)), holding, in.Marker, in.MaxItems, a.profileView)
		if err != nil {
			return nil, err
		}
		return &iam.ListInstanceProfilesForRoleOutput{InstanceProfiles: views, IsTruncated: l.truncated, Marker: l.marker}, nil
	})
}
