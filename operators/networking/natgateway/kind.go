// Package natgateway manages NAT gateways for the NATGateway kind: a public gateway gets an
// Elastic IP the operator allocates when the spec gives none, released after the gateway is
// deleted.
package natgateway

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
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

// Kind declares the NATGateway kind to the engine.
func Kind() managed.Kind[*v1alpha1.NATGateway, State] {
	return managed.Kind[*v1alpha1.NATGateway, State]{
		// A NAT gateway is pending for a minute or more in AWS (1s in the emulator).
		ReadyIn: time.Second,
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.NATGateway) managed.Driver[*v1alpha1.NATGateway, State] {
			api := ec2util.Client(s)
			return &driver{api: api, gateways: gateways(api).For(s), addresses: ec2util.Addresses(api)}
		},
		References: []managed.Ref[*v1alpha1.NATGateway]{
			managed.One(targets.Subnet, "spec.subnetRef", func(g *v1alpha1.NATGateway) (*shared.Reference, *string) { return g.Spec.SubnetRef, &g.Spec.SubnetID }),
			managed.One(targets.ElasticIP, "spec.allocationRef", func(g *v1alpha1.NATGateway) (*shared.Reference, *string) {
				return g.Spec.AllocationRef, &g.Spec.AllocationID
			}),
		},
	}
}

// gateways reads NAT gateways. Among several gateways with the same owner (one that failed or
// was deleted stays visible for about an hour), it picks a live one, else the newest.
func gateways(api *ec2.Client) ec2util.Describer[types.NatGateway] {
	return ec2util.NATGateways(api).Replaceable(gone, func(g types.NatGateway) time.Time { return aws.ToTime(g.CreateTime) })
}

// gone reports whether a gateway is deleting or deleted.
func gone(g types.NatGateway) bool {
	return g.State == types.NatGatewayStateDeleting || g.State == types.NatGatewayStateDeleted
}

// driver manages one provider's NAT gateways.
type driver struct {
	api       *ec2.Client
	gateways  ec2util.Source[types.NatGateway]
	addresses ec2util.Describer[types.Address]
}
