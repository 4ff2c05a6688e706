package eks

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// checkScope validates the scope of an access policy association: the whole cluster, with no
// namespaces, or the namespaces it names.
func checkScope(scope *types.AccessScope) (*types.AccessScope, error) {
	if scope == nil {
		return nil, invalidParameter("accessScope is required")
	}
	switch scope.Type {
	case types.AccessScopeTypeCluster:
		if len(scope.Namespaces) > 0 {
			return nil, invalidParameter("namespaces can't be specified for an access scope of type cluster")
		}
	case types.AccessScopeTypeNamespace:
		if len(scope.Namespaces) == 0 {
			return nil, invalidParameter("At least one namespace is required for an access scope of type namespace")
		}
	default:
		return nil, invalidParameter("Invalid accessScope type %s: must be cluster or namespace", scope.Type)
	}
	return &types.AccessScope{Type: scope.Type, Namespaces: append([]string{}, scope.Namespaces...)}, nil
}

// associateAccessPolicy associates an access policy with a STANDARD access entry, or replaces the
// scope of the association it has already, keeping when it was first associated.
func (b *Backend) associateAccessPolicy(call *core.Call, in *eks.AssociateAccessPolicyInput) (*eks.AssociateAccessPolicyOutput, error) {
	scope, err := checkScope(in.AccessScope)
	if err != nil {
		return nil, err
	}
	policy := aws.ToString(in.PolicyArn)
	if !knownPolicy(policy) {
		return nil, notFound("The specified policyArn %s could not be found. You can view the available access policies with 'list-access-policies'.", policy)
	}
	return inEntry(b, call, in.ClusterName, in.PrincipalArn, func(_ *region, c *cluster, e *accessEntry) (*eks.AssociateAccessPolicyOutput, error) {
		if aws.ToString(e.cfg.Type) != entryStandard {
			return nil, notStandard()
		}
		a := types.AssociatedAccessPolicy{PolicyArn: aws.String(policy), AccessScope: scope, AssociatedAt: aws.Time(call.Now), ModifiedAt: aws.Time(call.Now)}
		if old, ok := e.policies[policy]; ok {
			a.AssociatedAt = old.AssociatedAt
		}
		e.policies[policy] = a
		return &eks.AssociateAccessPolicyOutput{ClusterName: aws.String(c.name), PrincipalArn: e.cfg.PrincipalArn, AssociatedAccessPolicy: associatedView(a)}, nil
	})
}

// associatedView returns an association as AWS shows it, sharing nothing with the one kept.
func associatedView(a types.AssociatedAccessPolicy) *types.AssociatedAccessPolicy {
	scope := *a.AccessScope
	scope.Namespaces = append([]string{}, a.AccessScope.Namespaces...)
	a.AccessScope = &scope
	return &a
}

func (b *Backend) disassociateAccessPolicy(call *core.Call, in *eks.DisassociateAccessPolicyInput) (*eks.DisassociateAccessPolicyOutput, error) {
	return inEntry(b, call, in.ClusterName, in.PrincipalArn, func(_ *region, _ *cluster, e *accessEntry) (*eks.DisassociateAccessPolicyOutput, error) {
		policy := aws.ToString(in.PolicyArn)
		if _, ok := e.policies[policy]; !ok {
			return nil, notFound("The specified policyArn %s is not associated with the access entry.", policy)
		}
		delete(e.policies, policy)
		return &eks.DisassociateAccessPolicyOutput{}, nil
	})
}

// listAssociatedAccessPolicies answers a page of the access policies of an access entry, by
// policy ARN.
func (b *Backend) listAssociatedAccessPolicies(call *core.Call, in *eks.ListAssociatedAccessPoliciesInput) (*eks.ListAssociatedAccessPoliciesOutput, error) {
	return inEntry(b, call, in.ClusterName, in.PrincipalArn, func(_ *region, c *cluster, e *accessEntry) (*eks.ListAssociatedAccessPoliciesOutput, error) {
		arns, next, err := page(core.SortedKeys(e.policies), in.NextToken, in.MaxResults)
		if err != nil {
			return nil, err
		}
		out := &eks.ListAssociatedAccessPoliciesOutput{ClusterName: aws.String(c.name), PrincipalArn: e.cfg.PrincipalArn, NextToken: next,
			AssociatedAccessPolicies: make([]types.AssociatedAccessPolicy, 0, len(arns))}
		for _, arn := range arns {
			out.AssociatedAccessPolicies = append(out.AssociatedAccessPolicies, *associatedView(e.policies[arn]))
		}
		return out, nil
	})
}

// listAccessPolicies answers a page of the access policies EKS offers; it needs no cluster.
func (b *Backend) listAccessPolicies(_ *core.Call, in *eks.ListAccessPoliciesInput) (*eks.ListAccessPoliciesOutput, error) {
	names, next, err := page(accessPolicies, in.NextToken, in.MaxResults)
	if err != nil {
		return nil, err
	}
	out := &eks.ListAccessPoliciesOutput{NextToken: next, AccessPolicies: make([]types.AccessPolicy, 0, len(names))}
	for _, n := range names {
		out.AccessPolicies = append(out.AccessPolicies, types.AccessPolicy{Name: aws.String(n), Arn: aws.String(accessPolicyPrefix + n)})
	}
	return out, nil
}
