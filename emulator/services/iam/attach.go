package iam

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

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
		if slices.Contains(r.attached, p) {
			return &iam.AttachRolePolicyOutput{}, nil
		}
		if len(r.attached) >= maxAttachedPolicies {
			return nil, quotaExceeded("PoliciesPerRole", maxAttachedPolicies)
		}
		r.attached = append(r.attached, p)
		return &iam.AttachRolePolicyOutput{}, nil
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
