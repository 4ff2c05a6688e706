// Package natgateway manages NAT gateways for the NATGateway kind: a public gateway gets an
// Elastic IP the operator allocates when the spec gives none, released after the gateway is
// deleted.
package natgateway

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/elasticip"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/operators/networking/subnet"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Target resolves references to NATGateways (natGatewayRef) to their ids.
var Target = managed.ReferenceTarget[*v1alpha1.NATGateway]{
	Kind:    "NATGateway",
	New:     func() *v1alpha1.NATGateway { return &v1alpha1.NATGateway{} },
	NewList: func() client.ObjectList { return &v1alpha1.NATGatewayList{} },
	Value:   func(g *v1alpha1.NATGateway) string { return g.Status.NATGatewayID },
}

// Kind returns the NATGateway kind for the generic reconciler.
func Kind() managed.Kind[*v1alpha1.NATGateway, State] {
	return managed.Kind[*v1alpha1.NATGateway, State]{
		Name:    "NATGateway",
		New:     func() *v1alpha1.NATGateway { return &v1alpha1.NATGateway{} },
		NewList: func() client.ObjectList { return &v1alpha1.NATGatewayList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.NATGateway, State] {
			api := provider.Client(s, "ec2", func(c aws.Config) *ec2.Client { return ec2.NewFromConfig(c) })
			gateways := describer(api)
			return &driver{api: api, defaultTags: s.DefaultTags(), gateways: gateways, addresses: ec2util.Addresses(api),
				listing: provider.Client(s, "ec2/nat-listing", func(aws.Config) *managed.Listing[types.NatGateway] { return gateways.Listing() })}
		},
		ResolveReferences: func(ctx context.Context, c client.Reader, g *v1alpha1.NATGateway) error {
			if err := subnet.Target.ResolveInto(ctx, c, g, "spec.subnetRef", g.Spec.SubnetRef, &g.Spec.SubnetID); err != nil {
				return err
			}
			return elasticip.Target.ResolveInto(ctx, c, g, "spec.allocationRef", g.Spec.AllocationRef, &g.Spec.AllocationID)
		},
		References: func(g *v1alpha1.NATGateway) []managed.Ref {
			return append(subnet.Target.Refs(g.Spec.SubnetRef), elasticip.Target.Refs(g.Spec.AllocationRef)...)
		},
		Referenced: []client.Object{&v1alpha1.Subnet{}, &v1alpha1.ElasticIP{}},
	}
}

// describer reads NAT gateways. Among several gateways with the same owner (one that failed or
// was deleted stays visible for about an hour), it picks a live one, else the newest.
func describer(api gatewayAPI) ec2util.Describer[types.NatGateway] {
	return ec2util.Describer[types.NatGateway]{
		What: "NAT gateway",
		Describe: func(ctx context.Context, ids []string, filters []types.Filter, next string) ([]types.NatGateway, string, error) {
			in := &ec2.DescribeNatGatewaysInput{NatGatewayIds: ids, Filter: filters}
			in.MaxResults, in.NextToken = ec2util.Paging(ids, 1000, next)
			out, err := api.DescribeNatGateways(ctx, in)
			if err != nil {
				return nil, "", err
			}
			return out.NatGateways, aws.ToString(out.NextToken), nil
		},
		ID:   func(g types.NatGateway) string { return aws.ToString(g.NatGatewayId) },
		Gone: gone,
		Choose: func(gs []types.NatGateway) types.NatGateway {
			slices.SortStableFunc(gs, func(a, b types.NatGateway) int {
				return aws.ToTime(b.CreateTime).Compare(aws.ToTime(a.CreateTime))
			})
			for _, g := range gs {
				if !gone(g) {
					return g
				}
			}
			return gs[0]
		},
	}
}

// gone reports whether a gateway is deleting or deleted.
func gone(g types.NatGateway) bool {
	return g.State == types.NatGatewayStateDeleting || g.State == types.NatGatewayStateDeleted
}

// driver manages one provider's NAT gateways.
type driver struct {
	api         gatewayAPI
	defaultTags map[string]string
	gateways    ec2util.Describer[types.NatGateway]
	addresses   ec2util.Describer[types.Address]
	listing     *managed.Listing[types.NatGateway]
}
