package iam

import (
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Limits of roles in the IAM API reference (CreateRole).
const (
	maxRoleName          = 64
	minSessionDuration   = 3600
	maxSessionDuration   = 43200
	defaultSessionLength = 3600
)

// role is one IAM role.
type role struct {
	entity
	trust       string // the AssumeRolePolicyDocument as sent
	description string
	maxSession  int32
	boundary    string            // ARN of the permissions boundary policy, or ""
	attached    []*policy         // the attached managed policies, in attachment order
	inline      map[string]string // inline policy documents by name
}

// role returns the role a request names, or AWS's error for a malformed name or a role that does
// not exist (or is not visible yet). The caller holds the backend's lock.
func (a *account) role(call *core.Call, name *string) (*role, error) {
	return lookup(call, a.roles, name, "roleName", maxRoleName, "The role with name %s cannot be found.")
}

// roleView is what an answer says of a role: AWS's listings (ListRoles) leave out the
// permissions boundary, the tags and RoleLastUsed, which GetRole gives.
type roleView int

// The views of a role.
const (
	// listed is the subset ListRoles gives.
	listed roleView = iota
	// created is what CreateRole answers: everything but RoleLastUsed.
	created
	// full is what GetRole answers.
	full
)

// view returns the role as the SDK describes it, its trust policy URL-encoded as AWS returns it.
// The caller holds the backend's lock.
func (a *account) view(r *role, v roleView) types.Role {
	out := types.Role{
		Arn: aws.String(r.arn), RoleId: aws.String(r.id), RoleName: aws.String(r.name), Path: aws.String(r.path),
		CreateDate: aws.Time(r.created), AssumeRolePolicyDocument: aws.String(encodeDocument(r.trust)),
		MaxSessionDuration: aws.Int32(r.maxSession),
	}
	if r.description != "" {
		out.Description = aws.String(r.description)
	}
	if v == listed {
		return out
	}
	if r.boundary != "" {
		out.PermissionsBoundary = &types.AttachedPermissionsBoundary{PermissionsBoundaryArn: aws.String(r.boundary),
			PermissionsBoundaryType: types.PermissionsBoundaryAttachmentTypePolicy}
	}
	out.Tags = a.tagList(r.arn)
	if v == full {
		out.RoleLastUsed = &types.RoleLastUsed{}
	}
	return out
}

// checkTrustPolicy returns AWS's error for a trust policy that is malformed or above the quota
// of 2,048 characters.
func checkTrustPolicy(doc string) error {
	if err := checkDocument(doc, trustPolicy); err != nil {
		return err
	}
	if policySize(doc) > maxTrustPolicy {
		return quotaExceeded("ACLSizePerRole", maxTrustPolicy)
	}
	return nil
}

// checkSessionDuration returns the ValidationError AWS gives a MaxSessionDuration outside 3,600
// to 43,200 seconds.
func checkSessionDuration(d int32) error {
	if d < minSessionDuration {
		return validationError(d, "maxSessionDuration", "Member must have value greater than or equal to 3600")
	}
	if d > maxSessionDuration {
		return validationError(d, "maxSessionDuration", "Member must have value less than or equal to 43200")
	}
	return nil
}

// createRole creates a role after AWS's checks of its name, path, trust policy, description,
// session duration, permissions boundary and tags.
func (b *Backend) createRole(call *core.Call, in *iam.CreateRoleInput) (*iam.CreateRoleOutput, error) {
	name, path, err := checkNameAndPath(in.RoleName, "roleName", maxRoleName, in.Path)
	if err != nil {
		return nil, err
	}
	if err := checkDescription(in.Description); err != nil {
		return nil, err
	}
	session := int32(defaultSessionLength)
	if in.MaxSessionDuration != nil {
		if err := checkSessionDuration(*in.MaxSessionDuration); err != nil {
			return nil, err
		}
		session = *in.MaxSessionDuration
	}
	tags, err := requestTags(in.Tags)
	if err != nil {
		return nil, err
	}
	trust := aws.ToString(in.AssumeRolePolicyDocument)
	if err := checkTrustPolicy(trust); err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(a *account) (*iam.CreateRoleOutput, error) {
		if err := checkNew(a.roles, name, "Role with name %s already exists.", "RolesPerAccount", maxRoles); err != nil {
			return nil, err
		}
		boundary := ""
		if in.PermissionsBoundary != nil {
			p, err := a.boundaryPolicy(call, aws.ToString(in.PermissionsBoundary))
			if err != nil {
				return nil, err
			}
			boundary = p.arn
		}
		r := &role{entity: a.newEntity(call, "role", "AROA", name, path), trust: trust, description: aws.ToString(in.Description),
			maxSession: session, boundary: boundary, inline: map[string]string{}}
		if err := add(a, a.roles, r, tags); err != nil {
			return nil, err
		}
		return &iam.CreateRoleOutput{Role: ptr(a.view(r, created))}, nil
	})
}

// getRole describes a role.
func (b *Backend) getRole(call *core.Call, in *iam.GetRoleInput) (*iam.GetRoleOutput, error) {
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.GetRoleOutput, error) {
		return &iam.GetRoleOutput{Role: ptr(a.view(r, full))}, nil
	})
}

// updateRole changes a role's description and maximum session duration; a parameter left out
// keeps its value, and an empty description removes it.
func (b *Backend) updateRole(call *core.Call, in *iam.UpdateRoleInput) (*iam.UpdateRoleOutput, error) {
	if err := checkDescription(in.Description); err != nil {
		return nil, err
	}
	if in.MaxSessionDuration != nil {
		if err := checkSessionDuration(*in.MaxSessionDuration); err != nil {
			return nil, err
		}
	}
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.UpdateRoleOutput, error) {
		if in.Description != nil {
			r.description = *in.Description
		}
		if in.MaxSessionDuration != nil {
			r.maxSession = *in.MaxSessionDuration
		}
		return &iam.UpdateRoleOutput{}, nil
	})
}

// updateRoleDescription replaces a role's description and answers the role.
func (b *Backend) updateRoleDescription(call *core.Call, in *iam.UpdateRoleDescriptionInput) (*iam.UpdateRoleDescriptionOutput, error) {
	if err := checkDescription(in.Description); err != nil {
		return nil, err
	}
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.UpdateRoleDescriptionOutput, error) {
		r.description = aws.ToString(in.Description)
		return &iam.UpdateRoleDescriptionOutput{Role: ptr(a.view(r, full))}, nil
	})
}

// updateAssumeRolePolicy replaces a role's trust policy.
func (b *Backend) updateAssumeRolePolicy(call *core.Call, in *iam.UpdateAssumeRolePolicyInput) (*iam.UpdateAssumeRolePolicyOutput, error) {
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.UpdateAssumeRolePolicyOutput, error) {
		doc := aws.ToString(in.PolicyDocument)
		if err := checkTrustPolicy(doc); err != nil {
			return nil, err
		}
		r.trust = doc
		return &iam.UpdateAssumeRolePolicyOutput{}, nil
	})
}

// deleteRole deletes a role that is in no instance profile and has no attached or inline
// policies left, as AWS requires.
func (b *Backend) deleteRole(call *core.Call, in *iam.DeleteRoleInput) (*iam.DeleteRoleOutput, error) {
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.DeleteRoleOutput, error) {
		for _, p := range a.profiles {
			if p.role == key(r.name) {
				return nil, deleteConflict("Cannot delete entity, must remove roles from instance profile first.")
			}
		}
		if len(r.attached) > 0 {
			return nil, deleteConflict("Cannot delete entity, must detach all policies first.")
		}
		if len(r.inline) > 0 {
			return nil, deleteConflict("Cannot delete entity, must delete policies first.")
		}
		delete(a.roles, key(r.name))
		a.tags.Delete(r.arn)
		return &iam.DeleteRoleOutput{}, nil
	})
}

// listRoles returns one page of the account's roles whose path starts with PathPrefix, sorted by
// name, without their permissions boundaries and tags, as AWS lists them.
func (b *Backend) listRoles(call *core.Call, in *iam.ListRolesInput) (*iam.ListRolesOutput, error) {
	prefix, err := checkPathPrefix(in.PathPrefix)
	if err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(a *account) (*iam.ListRolesOutput, error) {
		keep := func(r *role) bool { return strings.HasPrefix(r.path, prefix) && r.visible(call) }
		views, l, err := listPage(slices.Collect(maps.Values(a.roles)), keep, in.Marker, in.MaxItems, func(r *role) types.Role { return a.view(r, listed) })
		if err != nil {
			return nil, err
		}
		return &iam.ListRolesOutput{Roles: views, IsTruncated: l.truncated, Marker: l.marker}, nil
	})
}

// putRolePermissionsBoundary sets or replaces the managed policy that bounds a role's
// permissions.
func (b *Backend) putRolePermissionsBoundary(call *core.Call, in *iam.PutRolePermissionsBoundaryInput) (*iam.PutRolePermissionsBoundaryOutput, error) {
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.PutRolePermissionsBoundaryOutput, error) {
		p, err := a.boundaryPolicy(call, aws.ToString(in.PermissionsBoundary))
		if err != nil {
			return nil, err
		}
		r.boundary = p.arn
		return &iam.PutRolePermissionsBoundaryOutput{}, nil
	})
}

// deleteRolePermissionsBoundary removes a role's permissions boundary, if it has one.
func (b *Backend) deleteRolePermissionsBoundary(call *core.Call, in *iam.DeleteRolePermissionsBoundaryInput) (*iam.DeleteRolePermissionsBoundaryOutput, error) {
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.DeleteRolePermissionsBoundaryOutput, error) {
		r.boundary = ""
		return &iam.DeleteRolePermissionsBoundaryOutput{}, nil
	})
}

// roleAndPolicy returns the role and the managed policy that an attachment request names, the
// policy nil when there is none with its ARN, or AWS's error for a malformed role name or ARN or a
// role that does not exist. The caller holds the backend's lock.
func (a *account) roleAndPolicy(call *core.Call, roleName, arn *string) (*role, *policy, error) {
	r, err := a.role(call, roleName)
	if err != nil {
		return nil, nil, err
	}
	p, err := a.managed(call, aws.ToString(arn))
	if err != nil {
		return nil, nil, err
	}
	return r, p, nil
}

// attachRolePolicy attaches a customer or AWS managed policy to a role, within the quota of ten
// a role. Attaching a policy the role already has succeeds and changes nothing.
func (b *Backend) attachRolePolicy(call *core.Call, in *iam.AttachRolePolicyInput) (*iam.AttachRolePolicyOutput, error) {
	return core.Locked(b.state, call, func(a *account) (*iam.AttachRolePolicyOutput, error) {
		r, p, err := a.roleAndPolicy(call, in.RoleName, in.PolicyArn)
		if err != nil {
			return nil, err
		}
		if p == nil {
			return nil, noSuchEntity("Policy %s does not exist or is not attachable.", aws.ToString(in.PolicyArn))
		}
		return &iam.AttachRolePolicyOutput{}, appendCapped(&r.attached, p, "PoliciesPerRole", maxAttachedPolicies)
	})
}

// detachRolePolicy detaches a managed policy from a role; one the role does not have answers
// NoSuchEntity.
func (b *Backend) detachRolePolicy(call *core.Call, in *iam.DetachRolePolicyInput) (*iam.DetachRolePolicyOutput, error) {
	return core.Locked(b.state, call, func(a *account) (*iam.DetachRolePolicyOutput, error) {
		r, p, err := a.roleAndPolicy(call, in.RoleName, in.PolicyArn)
		if err != nil {
			return nil, err
		}
		i := slices.Index(r.attached, p)
		if p == nil || i < 0 {
			return nil, noSuchEntity("Policy %s was not found.", aws.ToString(in.PolicyArn))
		}
		r.attached = slices.Delete(r.attached, i, i+1)
		return &iam.DetachRolePolicyOutput{}, nil
	})
}

// listAttachedRolePolicies returns one page of the managed policies attached to a role whose
// path starts with PathPrefix, in the order they were attached.
func (b *Backend) listAttachedRolePolicies(call *core.Call, in *iam.ListAttachedRolePoliciesInput) (*iam.ListAttachedRolePoliciesOutput, error) {
	prefix, err := checkPathPrefix(in.PathPrefix)
	if err != nil {
		return nil, err
	}
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.ListAttachedRolePoliciesOutput, error) {
		var selected []*policy
		for _, p := range r.attached {
			if strings.HasPrefix(p.path, prefix) {
				selected = append(selected, p)
			}
		}
		selected, l, err := page(selected, in.Marker, in.MaxItems)
		if err != nil {
			return nil, err
		}
		out := &iam.ListAttachedRolePoliciesOutput{AttachedPolicies: []types.AttachedPolicy{}, IsTruncated: l.truncated, Marker: l.marker}
		for _, p := range selected {
			out.AttachedPolicies = append(out.AttachedPolicies, types.AttachedPolicy{PolicyName: aws.String(p.name), PolicyArn: aws.String(p.arn)})
		}
		return out, nil
	})
}
