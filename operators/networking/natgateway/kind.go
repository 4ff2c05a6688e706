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
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the NATGateway kind to the engine.
func Kind() managed.Kind[*v1alpha1.NATGateway, State] {
	return managed.Kind[*v1alpha1.NATGateway, State]{
		Name:    "NATGateway",
		New:     func() *v1alpha1.NATGateway { return &v1alpha1.NATGateway{} },
		NewList: func() client.ObjectList { return &v1alpha1.NATGatewayList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.NATGateway, State] {
			api := ec2util.Client(s)
			return &driver{api: api, gateways: describer(api).For(s), addresses: ec2util.Addresses(api)}
		},
		References: []managed.Ref[*v1alpha1.NATGateway]{
			managed.One(targets.Subnet, "spec.subnetRef", func(g *v1alpha1.NATGateway) (*shared.Reference, *string) { return g.Spec.SubnetRef, &g.Spec.SubnetID }),
			managed.One(targets.ElasticIP, "spec.allocationRef", func(g *v1alpha1.NATGateway) (*shared.Reference, *string) {
				return g.Spec.AllocationRef, &g.Spec.AllocationID
			}),
		},
	}
}

// describer reads NAT gateways. Among several gateways with the same owner (one that failed or
// was deleted stays visible for about an hour), it picks a live one, else the newest.
func describer(api *ec2.Client) ec2util.Describer[types.NatGateway] {
	return ec2util.Describer[types.NatGateway]{
		What: "NAT gateway",
		Describe: ec2util.Pages(1000, api.DescribeNatGateways, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeNatGatewaysInput {
			return &ec2.DescribeNatGatewaysInput{NatGatewayIds: ids, Filter: f, MaxResults: limit, NextToken: next}
		}, func(out *ec2.DescribeNatGatewaysOutput) ([]types.NatGateway, *string) {
			return out.NatGateways, out.NextToken
		}),
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
	api       gatewayAPI
	gateways  ec2util.Source[types.NatGateway]
	addresses ec2util.Describer[types.Address]
}

// gatewayAPI is the part of the EC2 API the driver uses: NAT gateways, the Elastic IPs it
// allocates for them, and the subnet and internet gateway it checks before a create.
type gatewayAPI interface {
	ec2util.TagAPI
	ec2util.AddressAPI
	CreateNatGateway(ctx context.Context, in *ec2.CreateNatGatewayInput, opts ...func(*ec2.Options)) (*ec2.CreateNatGatewayOutput, error)
	DeleteNatGateway(ctx context.Context, in *ec2.DeleteNatGatewayInput, opts ...func(*ec2.Options)) (*ec2.DeleteNatGatewayOutput, error)
	DescribeSubnets(ctx context.Context, in *ec2.DescribeSubnetsInput, opts ...func(*ec2.Options)) (*ec2.DescribeSubnetsOutput, error)
	DescribeInternetGateways(ctx context.Context, in *ec2.DescribeInternetGatewaysInput, opts ...func(*ec2.Options)) (*ec2.DescribeInternetGatewaysOutput, error)
}
