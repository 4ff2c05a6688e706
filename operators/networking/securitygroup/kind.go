// Package securitygroup manages VPC security groups and their rules for the SecurityGroup
// kind.
package securitygroup

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the SecurityGroup kind to the engine. The VPC id comes from vpcRef once that
// VPC is Ready; the groups the rules name come from sourceGroups.
func Kind() managed.Kind[*v1alpha1.SecurityGroup, State] {
	return managed.Kind[*v1alpha1.SecurityGroup, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.SecurityGroup) managed.Driver[*v1alpha1.SecurityGroup, State] {
			api := ec2util.Client(s)
			return &driver{api: api, groups: ec2util.SecurityGroups(api).For(s)}
		},
		References: []managed.Ref[*v1alpha1.SecurityGroup]{
			managed.One(targets.VPC, "spec.vpcRef", func(g *v1alpha1.SecurityGroup) (*shared.Reference, *string) {
				return g.Spec.VPCRef, &g.Spec.VPCID
			}),
			sourceGroups,
		},
	}
}

// sourceGroups declares the sourceSecurityGroupRefs of every ingress and egress rule; the
// engine turns them into sourceSecurityGroupIDs, in memory. A referenced group is used as soon
// as it exists in AWS (Created), and a reference to the group itself is no site: it stays for
// the driver, which knows the group's id. So groups that allow each other's traffic can all be
// created. Before the group exists, a referenced group that does not exist yet does not hold up
// its creation (Defer: its reference stays in the spec, where Observe finds it pending); after,
// the group waits for it.
var sourceGroups = managed.Ref[*v1alpha1.SecurityGroup]{
	Target:  targets.SecurityGroup,
	Created: true,
	Defer:   func(g *v1alpha1.SecurityGroup) bool { return managed.ExternalName(g) == "" },
	Sites:   sourceSites,
}

// sourceSites returns the sourceSecurityGroupRefs of g's rules that name another group, ingress
// rules first. A site that resolves moves its reference from the rule's
// sourceSecurityGroupRefs to its id in sourceSecurityGroupIDs, so that the references left
// are the group's own and those not resolved yet.
func sourceSites(g *v1alpha1.SecurityGroup) []managed.Site {
	var sites []managed.Site
	for _, dir := range []struct {
		field string
		rules []v1alpha1.SecurityGroupRule
	}{{"spec.ingressRules", g.Spec.IngressRules}, {"spec.egressRules", g.Spec.EgressRules}} {
		for i := range dir.rules {
			r := &dir.rules[i]
			for j, ref := range r.SourceSecurityGroupRefs {
				if ref.Name == g.Name {
					continue
				}
				sites = append(sites, managed.Site{Field: fmt.Sprintf("%s[%d].sourceSecurityGroupRefs[%d]", dir.field, i, j), Name: ref.Name,
					Set: func(ids []string) {
						r.SourceSecurityGroupIDs = append(r.SourceSecurityGroupIDs, ids[0])
						at := slices.IndexFunc(r.SourceSecurityGroupRefs, func(other shared.Reference) bool { return other.Name == ref.Name })
						r.SourceSecurityGroupRefs = slices.Delete(r.SourceSecurityGroupRefs, at, at+1)
					}})
			}
		}
	}
	return sites
}

// groupName returns the group's name in AWS: spec.groupName, else the object's name.
func groupName(g *v1alpha1.SecurityGroup) string {
	return cmp.Or(g.Spec.GroupName, g.Name)
}

// driver manages one provider's security groups.
type driver struct {
	api    *ec2.Client
	groups ec2util.Source[types.SecurityGroup]
}
