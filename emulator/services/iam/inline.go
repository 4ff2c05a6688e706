package iam

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// inlineSize returns the size, as the quota counts it, of a role's inline policies with the one
// named name replaced by doc.
func (r *role) inlineSize(name, doc string) int {
	n := policySize(doc)
	for other, d := range r.inline {
		if other != name {
			n += policySize(d)
		}
	}
	return n
}

// putRolePolicy adds or replaces an inline policy of a role, within the quota of 10,240
// characters for all of a role's inline policies together.
func (b *Backend) putRolePolicy(call *core.Call, in *iam.PutRolePolicyInput) (*iam.PutRolePolicyOutput, error) {
	name := aws.ToString(in.PolicyName)
	if err := checkName(name, "policyName", maxPolicyName); err != nil {
		return nil, err
	}
	doc := aws.ToString(in.PolicyDocument)
	if err := checkDocument(doc, inlinePolicy); err != nil {
		return nil, err
	}
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.PutRolePolicyOutput, error) {
		if r.inlineSize(name, doc) > maxInlinePolicy {
			return nil, limitExceeded("Maximum policy size of %d bytes exceeded for role %s", maxInlinePolicy, r.name)
		}
		r.inline[name] = doc
		return &iam.PutRolePolicyOutput{}, nil
	})
}

// inlinePolicyOf returns the document of a role's inline policy a request names, or AWS's error.
func inlinePolicyOf(r *role, name *string) (string, error) {
	n := aws.ToString(name)
	if err := checkName(n, "policyName", maxPolicyName); err != nil {
		return "", err
	}
	doc, ok := r.inline[n]
	if !ok {
		return "", noSuchEntity("The role policy with name %s cannot be found.", n)
	}
	return doc, nil
}

// getRolePolicy returns an inline policy of a role, its document URL-encoded as AWS returns it.
func (b *Backend) getRolePolicy(call *core.Call, in *iam.GetRolePolicyInput) (*iam.GetRolePolicyOutput, error) {
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.GetRolePolicyOutput, error) {
		doc, err := inlinePolicyOf(r, in.PolicyName)
		if err != nil {
			return nil, err
		}
		return &iam.GetRolePolicyOutput{RoleName: aws.String(r.name), PolicyName: in.PolicyName, PolicyDocument: aws.String(encodeDocument(doc))}, nil
	})
}

// deleteRolePolicy deletes an inline policy of a role.
func (b *Backend) deleteRolePolicy(call *core.Call, in *iam.DeleteRolePolicyInput) (*iam.DeleteRolePolicyOutput, error) {
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.DeleteRolePolicyOutput, error) {
		if _, err := inlinePolicyOf(r, in.PolicyName); err != nil {
			return nil, err
		}
		delete(r.inline, aws.ToString(in.PolicyName))
		return &iam.DeleteRolePolicyOutput{}, nil
	})
}

// listRolePolicies returns one page of the names of a role's inline policies, sorted.
func (b *Backend) listRolePolicies(call *core.Call, in *iam.ListRolePoliciesInput) (*iam.ListRolePoliciesOutput, error) {
	return withEntity(b, call, (*account).role, in.RoleName, func(a *account, r *role) (*iam.ListRolePoliciesOutput, error) {
		names, l, err := page(core.SortedKeys(r.inline), in.Marker, in.MaxItems)
		if err != nil {
			return nil, err
		}
		return &iam.ListRolePoliciesOutput{PolicyNames: append([]string{}, names...), IsTruncated: l.truncated, Marker: l.marker}, nil
	})
}
