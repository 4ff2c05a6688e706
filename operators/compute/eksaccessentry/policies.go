package eksaccessentry

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// policyPrefix is what comes before an access policy's name in its ARN, after the partition.
const policyPrefix = ":eks::aws:cluster-access-policy/"

// policyName returns the name of an access policy given by name or by ARN.
func policyName(policy string) string {
	if i := strings.LastIndex(policy, "/"); strings.HasPrefix(policy, "arn:") && i >= 0 {
		return policy[i+1:]
	}
	return policy
}

// policyARN returns the ARN of access policy name in partition.
func policyARN(part, name string) string {
	return "arn:" + part + policyPrefix + name
}

// scope is how a plan and the comparison show an access scope: its type, and its namespaces
// sorted.
type scope struct {
	// Type is cluster or namespace.
	Type string `json:"type"`
	// Namespaces are the namespaces of a scope of type namespace, sorted.
	Namespaces []string `json:"namespaces,omitempty"`
}

// specScope returns the spec's scope of an access policy.
func specScope(s v1alpha1.EKSAccessScope) scope {
	return scope{Type: s.Type, Namespaces: slices.Sorted(slices.Values(s.Namespaces))}
}

// awsScope returns AWS's scope of an associated access policy.
func awsScope(s *types.AccessScope) scope {
	if s == nil {
		return scope{}
	}
	return scope{Type: string(s.Type), Namespaces: slices.Sorted(slices.Values(s.Namespaces))}
}

// associated returns the access policies associated with the entry of principal in cluster,
// by name.
func (d *driver) associated(ctx context.Context, cluster, principal string) (map[string]types.AssociatedAccessPolicy, error) {
	out := map[string]types.AssociatedAccessPolicy{}
	pages := eks.NewListAssociatedAccessPoliciesPaginator(d.api, &eks.ListAssociatedAccessPoliciesInput{ClusterName: aws.String(cluster),
		PrincipalArn: aws.String(principal)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, managed.Wrap(err, "list the access policies of %s in EKS cluster %s", principal, cluster)
		}
		for _, p := range page.AssociatedAccessPolicies {
			out[policyName(aws.ToString(p.PolicyArn))] = p
		}
	}
	return out, nil
}

// planPolicies plans the associations that make the entry's access policies the spec's set:
// one AssociateAccessPolicy for each policy the spec lists that is not associated, or is with
// another scope (which the association replaces), and one DisassociateAccessPolicy for each
// associated policy the spec does not list. Each is shown with AWS's scope and the spec's.
func (d *driver) planPolicies(plan *managed.Plan, e *v1alpha1.EKSAccessEntry, cluster, principal string, have map[string]types.AssociatedAccessPolicy) {
	part := partition(principal)
	want := map[string]bool{}
	for _, p := range e.Spec.AccessPolicies {
		name, s := policyName(p.Policy), specScope(p.AccessScope)
		want[name] = true
		associated, ok := have[name]
		current := awsScope(associated.AccessScope)
		if ok && current.Type == s.Type && slices.Equal(current.Namespaces, s.Namespaces) {
			continue
		}
		var shown any
		if ok {
			shown = current
		}
		arn := policyARN(part, name)
		plan.AddValue("accessPolicies["+name+"]", shown, s, func(ctx context.Context) error {
			_, err := d.api.AssociateAccessPolicy(ctx, &eks.AssociateAccessPolicyInput{ClusterName: aws.String(cluster), PrincipalArn: aws.String(principal),
				PolicyArn: aws.String(arn), AccessScope: &types.AccessScope{Type: types.AccessScopeType(s.Type), Namespaces: s.Namespaces}})
			return managed.Wrap(err, "associate access policy %s with %s in EKS cluster %s", name, principal, cluster)
		})
	}
	for _, name := range slices.Sorted(maps.Keys(have)) {
		if want[name] {
			continue
		}
		arn := aws.ToString(have[name].PolicyArn)
		plan.AddValue("accessPolicies["+name+"]", awsScope(have[name].AccessScope), nil, func(ctx context.Context) error {
			_, err := d.api.DisassociateAccessPolicy(ctx, &eks.DisassociateAccessPolicyInput{ClusterName: aws.String(cluster), PrincipalArn: aws.String(principal),
				PolicyArn: aws.String(arn)})
			return managed.Wrap(err, "disassociate access policy %s from %s in EKS cluster %s", name, principal, cluster)
		})
	}
}
