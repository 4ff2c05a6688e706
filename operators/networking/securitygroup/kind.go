// Package securitygroup manages VPC security groups and their rules for the SecurityGroup
// kind.
package securitygroup

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/operators/networking/vpc"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Target resolves references to SecurityGroups (sourceSecurityGroupRefs, securityGroupRefs)
// to their ids.
var Target = managed.ReferenceTarget[*v1alpha1.SecurityGroup]{
	Kind:    "SecurityGroup",
	New:     func() *v1alpha1.SecurityGroup { return &v1alpha1.SecurityGroup{} },
	NewList: func() client.ObjectList { return &v1alpha1.SecurityGroupList{} },
	Value:   func(g *v1alpha1.SecurityGroup) string { return g.Status.GroupID },
}

// Kind returns the SecurityGroup kind for the generic reconciler.
func Kind() managed.Kind[*v1alpha1.SecurityGroup, State] {
	return managed.Kind[*v1alpha1.SecurityGroup, State]{
		Name:    "SecurityGroup",
		New:     func() *v1alpha1.SecurityGroup { return &v1alpha1.SecurityGroup{} },
		NewList: func() client.ObjectList { return &v1alpha1.SecurityGroupList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.SecurityGroup, State] {
			api := provider.Client(s, "ec2", func(c aws.Config) *ec2.Client { return ec2.NewFromConfig(c) })
			groups := describer(api)
			return &driver{api: api, defaultTags: s.DefaultTags(), groups: groups,
				listing: provider.Client(s, "ec2/sg-listing", func(aws.Config) *managed.Listing[types.SecurityGroup] { return groups.Listing() })}
		},
		ResolveReferences: resolveReferences,
		References:        references,
		Referenced:        []client.Object{&v1alpha1.VPC{}, &v1alpha1.SecurityGroup{}},
	}
}

// resolveReferences fills the VPC id from vpcRef (waiting until that VPC is Ready) and turns
// the sourceSecurityGroupRefs of every rule into ids, in memory. A referenced group is used as
// soon as it exists in AWS, and a reference to the group itself stays for the driver, which
// knows the group's id: so groups that allow each other's traffic can all be created. Before
// the group exists, a referenced group that does not exist yet does not hold up its creation;
// after, the group waits for it.
func resolveReferences(ctx context.Context, c client.Reader, g *v1alpha1.SecurityGroup) error {
	if err := vpc.ResolveRef(ctx, c, g, "spec.vpcRef", g.Spec.VPCRef, &g.Spec.VPCID); err != nil {
		return err
	}
	created := managed.ExternalName(g) != ""
	for _, dir := range []struct {
		field string
		rules []v1alpha1.SecurityGroupRule
	}{{"spec.ingressRules", g.Spec.IngressRules}, {"spec.egressRules", g.Spec.EgressRules}} {
		for i := range dir.rules {
			r := &dir.rules[i]
			var keep []shared.Reference
			for j, ref := range r.SourceSecurityGroupRefs {
				if ref.Name == g.Name {
					keep = append(keep, ref)
					continue
				}
				field := fmt.Sprintf("%s[%d].sourceSecurityGroupRefs[%d]", dir.field, i, j)
				id, err := Target.ResolveCreated(ctx, c, g, field, ref)
				if err != nil && created {
					return err
				}
				if err != nil {
					keep = append(keep, ref)
					continue
				}
				r.SourceSecurityGroupIDs = append(r.SourceSecurityGroupIDs, id)
			}
			r.SourceSecurityGroupRefs = keep
		}
	}
	return nil
}

// references returns the VPC and the security groups g's spec refers to.
func references(g *v1alpha1.SecurityGroup) []managed.Ref {
	refs := vpc.Refs(g.Spec.VPCRef)
	for _, rules := range [][]v1alpha1.SecurityGroupRule{g.Spec.IngressRules, g.Spec.EgressRules} {
		for _, r := range rules {
			for _, ref := range r.SourceSecurityGroupRefs {
				if ref.Name != g.Name {
					refs = append(refs, managed.Ref{Kind: "SecurityGroup", Name: ref.Name})
				}
			}
		}
	}
	return refs
}

// describer reads security groups.
func describer(api groupAPI) ec2util.Describer[types.SecurityGroup] {
	return ec2util.Describer[types.SecurityGroup]{
		What: "security group",
		Describe: func(ctx context.Context, ids []string, filters []types.Filter, next string) ([]types.SecurityGroup, string, error) {
			in := &ec2.DescribeSecurityGroupsInput{GroupIds: ids, Filters: filters}
			in.MaxResults, in.NextToken = ec2util.Paging(ids, 1000, next)
			out, err := api.DescribeSecurityGroups(ctx, in)
			if err != nil {
				return nil, "", err
			}
			return out.SecurityGroups, aws.ToString(out.NextToken), nil
		},
		ID: func(g types.SecurityGroup) string { return aws.ToString(g.GroupId) },
	}
}

// driver manages one provider's security groups.
type driver struct {
	api         groupAPI
	defaultTags map[string]string
	groups      ec2util.Describer[types.SecurityGroup]
	listing     *managed.Listing[types.SecurityGroup]
}
