package iamrole

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what IAM said about a role.
type State struct {
	// Role is GetRole's answer.
	Role *types.Role
	// Attached are the ARNs of the managed policies attached to the role.
	Attached []string
	// Inline are the role's inline policies, by name, as IAM stores them (decoded).
	Inline map[string]string
	// Profile is the instance profile of the role's name, when there is one.
	Profile *types.InstanceProfile
}

// Observe reads the role (GetRole, ListAttachedRolePolicies, ListRolePolicies and each inline
// policy, and the instance profile of its name when the spec or the status has one), fills the
// status and plans the changes that bring it in line with the spec.
func (d *driver) Observe(ctx context.Context, r *v1alpha1.IAMRole, req managed.Request) (managed.Observation[State], error) {
	name := r.Spec.RoleName
	out, err := d.api.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String(name)})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, fmt.Errorf("get role %s: %w", name, err)
	}
	tags := tagMap(out.Role.Tags)
	if err := managed.Claim(r, "IAM role", name, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	st, err := d.read(ctx, r, out.Role)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(r, st)
	obs := managed.Observation[State]{Exists: true, State: st, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	if err := d.plan(&obs.Changes, r, st, req.Tags); err != nil {
		return managed.Observation[State]{}, err
	}
	obs.Ready = true
	if age := time.Since(aws.ToTime(out.Role.CreateDate)); age < d.propagation {
		obs.Ready, obs.ReadyIn = false, d.propagation-age
		obs.Message = fmt.Sprintf("role %s was created %s ago: IAM propagates a new role to other services within seconds", name, age.Round(time.Second))
	}
	return obs, nil
}

// read reads what the role holds: its managed and inline policies and its instance profile.
func (d *driver) read(ctx context.Context, r *v1alpha1.IAMRole, role *types.Role) (*State, error) {
	name := aws.ToString(role.RoleName)
	st := &State{Role: role, Inline: map[string]string{}}
	attached := iam.NewListAttachedRolePoliciesPaginator(d.api, &iam.ListAttachedRolePoliciesInput{RoleName: aws.String(name)})
	for attached.HasMorePages() {
		page, err := attached.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list the managed policies of role %s: %w", name, err)
		}
		for _, p := range page.AttachedPolicies {
			st.Attached = append(st.Attached, aws.ToString(p.PolicyArn))
		}
	}
	inline := iam.NewListRolePoliciesPaginator(d.api, &iam.ListRolePoliciesInput{RoleName: aws.String(name)})
	for inline.HasMorePages() {
		page, err := inline.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list the inline policies of role %s: %w", name, err)
		}
		for _, p := range page.PolicyNames {
			doc, err := d.api.GetRolePolicy(ctx, &iam.GetRolePolicyInput{RoleName: aws.String(name), PolicyName: aws.String(p)})
			if err != nil {
				return nil, fmt.Errorf("get inline policy %s of role %s: %w", p, name, err)
			}
			if st.Inline[p], err = decoded(aws.ToString(doc.PolicyDocument)); err != nil {
				return nil, fmt.Errorf("read inline policy %s of role %s: %w", p, name, err)
			}
		}
	}
	if r.Spec.InstanceProfile || r.Status.InstanceProfileARN != "" {
		out, err := d.api.GetInstanceProfile(ctx, &iam.GetInstanceProfileInput{InstanceProfileName: aws.String(name)})
		switch {
		case err == nil:
			st.Profile = out.InstanceProfile
		case !awserr.IsNotFound(err):
			return nil, fmt.Errorf("get instance profile %s: %w", name, err)
		}
	}
	return st, nil
}

// decoded returns a policy document as IAM answers it (URL-encoded) in plain JSON.
func decoded(doc string) (string, error) {
	return url.QueryUnescape(doc)
}

// fillStatus copies what IAM said about the role into the status.
func fillStatus(r *v1alpha1.IAMRole, st *State) {
	s := &r.Status
	s.RoleName, s.ARN, s.RoleID = aws.ToString(st.Role.RoleName), aws.ToString(st.Role.Arn), aws.ToString(st.Role.RoleId)
	s.AttachedPolicies = int32(len(st.Attached))
	s.CreateDate = nil
	if st.Role.CreateDate != nil {
		t := metav1.NewTime(*st.Role.CreateDate)
		s.CreateDate = &t
	}
	s.InstanceProfileARN = ""
	if st.Profile != nil {
		s.InstanceProfileARN = aws.ToString(st.Profile.Arn)
	}
}

// tagMap returns IAM tags as a map.
func tagMap(tags []types.Tag) map[string]string {
	return managed.TagMap(tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) })
}

// tagList returns tags as IAM takes them.
func tagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}
