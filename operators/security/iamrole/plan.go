package iamrole

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// defaultSessionDuration is IAM's maximum session duration of a role that sets none.
const defaultSessionDuration = 3600

// plan plans the changes of the role: its settings, trust policy, permissions boundary and
// tags, its managed and inline policies as sets, and its instance profile. Policy documents
// are compared by meaning (see policy.Equivalent), so the plan shows no values for them.
func (d *driver) plan(plan *managed.Plan, r *v1alpha1.IAMRole, st *State, tags map[string]string) error {
	name, role := r.Spec.RoleName, st.Role
	duration := r.Spec.MaxSessionDuration
	if duration == 0 {
		duration = defaultSessionDuration
	}
	var fields []string
	values := map[string]managed.Values{}
	if aws.ToString(role.Description) != r.Spec.Description {
		fields = append(fields, "description")
		values["description"] = managed.ValuesOf(aws.ToString(role.Description), r.Spec.Description)
	}
	if aws.ToInt32(role.MaxSessionDuration) != duration {
		fields = append(fields, "maxSessionDuration")
		values["maxSessionDuration"] = managed.ValuesOf(aws.ToInt32(role.MaxSessionDuration), duration)
	}
	if len(fields) > 0 {
		plan.AddFieldValues(fields, values, func(ctx context.Context) error {
			_, err := d.api.UpdateRole(ctx, &iam.UpdateRoleInput{RoleName: aws.String(name), Description: aws.String(r.Spec.Description),
				MaxSessionDuration: aws.Int32(duration)})
			return managed.Wrap(err, "update role %s", name)
		})
	}
	trust, err := decoded(aws.ToString(role.AssumeRolePolicyDocument))
	if err != nil {
		return err
	}
	if !policy.Equivalent(trust, r.Spec.AssumeRolePolicyDocument) {
		plan.Add("assumeRolePolicyDocument", func(ctx context.Context) error {
			_, err := d.api.UpdateAssumeRolePolicy(ctx, &iam.UpdateAssumeRolePolicyInput{RoleName: aws.String(name), PolicyDocument: aws.String(r.Spec.AssumeRolePolicyDocument)})
			return managed.Wrap(err, "update the trust policy of role %s", name)
		})
	}
	d.planBoundary(plan, r, st)
	plan.AddTags(tags, tagMap(role.Tags), managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagRole(ctx, &iam.TagRoleInput{RoleName: aws.String(name), Tags: tagList(set)})
		return managed.Wrap(err, "tag role %s", name)
	}, func(ctx context.Context, keys []string) error {
		_, err := d.api.UntagRole(ctx, &iam.UntagRoleInput{RoleName: aws.String(name), TagKeys: keys})
		return managed.Wrap(err, "untag role %s", name)
	}))
	d.planManaged(plan, r, st)
	d.planInline(plan, r, st)
	d.planProfile(plan, r, st, tags)
	return nil
}

// planBoundary plans setting or removing the permissions boundary.
func (d *driver) planBoundary(plan *managed.Plan, r *v1alpha1.IAMRole, st *State) {
	name, want, got := r.Spec.RoleName, r.Spec.PermissionsBoundary, ""
	if b := st.Role.PermissionsBoundary; b != nil {
		got = aws.ToString(b.PermissionsBoundaryArn)
	}
	if want == got {
		return
	}
	plan.AddValue("permissionsBoundary", got, want, func(ctx context.Context) error {
		var err error
		if want == "" {
			_, err = d.api.DeleteRolePermissionsBoundary(ctx, &iam.DeleteRolePermissionsBoundaryInput{RoleName: aws.String(name)})
		} else {
			_, err = d.api.PutRolePermissionsBoundary(ctx, &iam.PutRolePermissionsBoundaryInput{RoleName: aws.String(name), PermissionsBoundary: aws.String(want)})
		}
		return managed.Wrap(err, "set the permissions boundary of role %s", name)
	})
}

// planManaged plans attaching the spec's managed policies the role lacks and detaching the
// others.
func (d *driver) planManaged(plan *managed.Plan, r *v1alpha1.IAMRole, st *State) {
	name := r.Spec.RoleName
	var attach, detach []string
	for _, arn := range r.Spec.ManagedPolicyARNs {
		if !slices.Contains(st.Attached, arn) {
			attach = append(attach, arn)
		}
	}
	for _, arn := range st.Attached {
		if !slices.Contains(r.Spec.ManagedPolicyARNs, arn) {
			detach = append(detach, arn)
		}
	}
	if len(attach)+len(detach) == 0 {
		return
	}
	plan.AddValue("managedPolicyARNs", sorted(st.Attached), sorted(r.Spec.ManagedPolicyARNs), func(ctx context.Context) error {
		for _, arn := range detach {
			if _, err := d.api.DetachRolePolicy(ctx, &iam.DetachRolePolicyInput{RoleName: aws.String(name), PolicyArn: aws.String(arn)}); err != nil {
				return managed.Wrap(err, "detach policy %s from role %s", arn, name)
			}
		}
		for _, arn := range attach {
			if _, err := d.api.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: aws.String(name), PolicyArn: aws.String(arn)}); err != nil {
				return managed.Wrap(err, "attach policy %s to role %s", arn, name)
			}
		}
		return nil
	})
}

// sorted is how a plan shows a set of names: sorted, and [] for none.
func sorted(names []string) []string {
	return slices.Sorted(slices.Values(append([]string{}, names...)))
}

// planInline plans putting the spec's inline policies that are missing or say something else,
// and deleting the others.
func (d *driver) planInline(plan *managed.Plan, r *v1alpha1.IAMRole, st *State) {
	name := r.Spec.RoleName
	var put []v1alpha1.InlinePolicy
	var remove []string
	for _, p := range r.Spec.InlinePolicies {
		if got, ok := st.Inline[p.PolicyName]; !ok || !policy.Equivalent(got, p.PolicyDocument) {
			put = append(put, p)
		}
	}
	for p := range st.Inline {
		if !slices.ContainsFunc(r.Spec.InlinePolicies, func(w v1alpha1.InlinePolicy) bool { return w.PolicyName == p }) {
			remove = append(remove, p)
		}
	}
	slices.Sort(remove)
	if len(put)+len(remove) == 0 {
		return
	}
	plan.Add("inlinePolicies", func(ctx context.Context) error {
		for _, p := range remove {
			if _, err := d.api.DeleteRolePolicy(ctx, &iam.DeleteRolePolicyInput{RoleName: aws.String(name), PolicyName: aws.String(p)}); err != nil {
				return managed.Wrap(err, "delete inline policy %s of role %s", p, name)
			}
		}
		for _, p := range put {
			if _, err := d.api.PutRolePolicy(ctx, &iam.PutRolePolicyInput{RoleName: aws.String(name), PolicyName: aws.String(p.PolicyName),
				PolicyDocument: aws.String(p.PolicyDocument)}); err != nil {
				return managed.Wrap(err, "put inline policy %s of role %s", p.PolicyName, name)
			}
		}
		return nil
	})
}
