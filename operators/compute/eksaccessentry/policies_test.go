package eksaccessentry

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// recordingAPI is an api that records the policy ARNs a plan associates and disassociates.
type recordingAPI struct {
	api
	associated, disassociated []string
}

// AssociateAccessPolicy records the policy.
func (r *recordingAPI) AssociateAccessPolicy(_ context.Context, in *eks.AssociateAccessPolicyInput, _ ...func(*eks.Options)) (*eks.AssociateAccessPolicyOutput, error) {
	r.associated = append(r.associated, aws.ToString(in.PolicyArn)+" "+string(in.AccessScope.Type))
	return &eks.AssociateAccessPolicyOutput{}, nil
}

// DisassociateAccessPolicy records the policy.
func (r *recordingAPI) DisassociateAccessPolicy(_ context.Context, in *eks.DisassociateAccessPolicyInput, _ ...func(*eks.Options)) (*eks.DisassociateAccessPolicyOutput, error) {
	r.disassociated = append(r.disassociated, aws.ToString(in.PolicyArn))
	return &eks.DisassociateAccessPolicyOutput{}, nil
}

// TestPlanPolicies checks that the access policies are planned as a set: a missing policy is
// associated (by name or by ARN, in the principal's partition), one with another scope is
// associated again with the spec's, an extra one is disassociated, and matching ones plan
// nothing, whatever the order of the namespaces.
func TestPlanPolicies(t *testing.T) {
	const view, edit = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy", "arn:aws:eks::aws:cluster-access-policy/AmazonEKSEditPolicy"
	inNamespaces := func(arn string, ns ...string) types.AssociatedAccessPolicy {
		return types.AssociatedAccessPolicy{PolicyArn: aws.String(arn), AccessScope: &types.AccessScope{Type: types.AccessScopeTypeNamespace, Namespaces: ns}}
	}
	type want struct {
		fields                    []string
		associated, disassociated []string
	}
	cases := map[string]struct {
		reason    string
		principal string
		spec      []v1alpha1.EKSAccessPolicy
		have      map[string]types.AssociatedAccessPolicy
		want      want
	}{
		"Matching": {
			reason: "The same policy and scope, namespaces in another order, plan nothing.",
			spec:   []v1alpha1.EKSAccessPolicy{{Policy: "AmazonEKSViewPolicy", AccessScope: v1alpha1.EKSAccessScope{Type: "namespace", Namespaces: []string{"b", "a"}}}},
			have:   map[string]types.AssociatedAccessPolicy{"AmazonEKSViewPolicy": inNamespaces(view, "a", "b")},
		},
		"Missing": {
			reason: "A policy given by ARN that is not associated is associated.",
			spec:   []v1alpha1.EKSAccessPolicy{{Policy: edit, AccessScope: v1alpha1.EKSAccessScope{Type: "cluster"}}},
			want:   want{fields: []string{"accessPolicies[AmazonEKSEditPolicy]"}, associated: []string{edit + " cluster"}},
		},
		"Rescoped": {
			reason: "Another scope is associated again with the spec's.",
			spec:   []v1alpha1.EKSAccessPolicy{{Policy: "AmazonEKSViewPolicy", AccessScope: v1alpha1.EKSAccessScope{Type: "cluster"}}},
			have:   map[string]types.AssociatedAccessPolicy{"AmazonEKSViewPolicy": inNamespaces(view, "a")},
			want:   want{fields: []string{"accessPolicies[AmazonEKSViewPolicy]"}, associated: []string{view + " cluster"}},
		},
		"Extra": {
			reason: "A policy the spec does not list is disassociated.",
			have:   map[string]types.AssociatedAccessPolicy{"AmazonEKSEditPolicy": inNamespaces(edit, "a")},
			want:   want{fields: []string{"accessPolicies[AmazonEKSEditPolicy]"}, disassociated: []string{edit}},
		},
		"Partition": {
			reason:    "A policy given by name is associated in the principal's partition.",
			principal: "arn:aws-cn:iam::123456789012:role/r",
			spec:      []v1alpha1.EKSAccessPolicy{{Policy: "AmazonEKSViewPolicy", AccessScope: v1alpha1.EKSAccessScope{Type: "cluster"}}},
			want: want{fields: []string{"accessPolicies[AmazonEKSViewPolicy]"},
				associated: []string{"arn:aws-cn:eks::aws:cluster-access-policy/AmazonEKSViewPolicy cluster"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			principal := tc.principal
			if principal == "" {
				principal = "arn:aws:iam::123456789012:role/r"
			}
			rec := &recordingAPI{}
			e := &v1alpha1.EKSAccessEntry{Spec: v1alpha1.EKSAccessEntrySpec{AccessPolicies: tc.spec}}
			var plan managed.Plan
			(&driver{api: rec}).planPolicies(&plan, e, "c", principal, tc.have)
			if err := plan.Apply(context.Background()); err != nil {
				t.Fatal(err)
			}
			got := want{fields: plan.Fields(), associated: rec.associated, disassociated: rec.disassociated}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nplanPolicies: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
