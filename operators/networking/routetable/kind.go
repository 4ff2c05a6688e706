// Package routetable manages VPC route tables, their routes and their subnet associations for
// the RouteTable kind.
package routetable

import (
	"fmt"

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

// Kind declares the RouteTable kind to the engine, which fills, in memory, the VPC id from
// vpcRef, each route's target id from its internetGatewayRef, natGatewayRef or
// vpcPeeringConnectionRef, and the subnet ids from subnetRefs or subnetSelector, and waits,
// with a condition naming the field, while any of them is not Ready.
func Kind() managed.Kind[*v1alpha1.RouteTable, State] {
	return managed.Kind[*v1alpha1.RouteTable, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.RouteTable) managed.Driver[*v1alpha1.RouteTable, State] {
			api := ec2util.Client(s)
			return &driver{api: api, tables: ec2util.RouteTables(api).For(s)}
		},
		Validate: validate,
		References: []managed.Ref[*v1alpha1.RouteTable]{
			managed.One(targets.VPC, "spec.vpcRef", func(t *v1alpha1.RouteTable) (*shared.Reference, *string) {
				return t.Spec.VPCRef, &t.Spec.VPCID
			}),
			managed.Each(targets.InternetGateway, "spec.routes[%d].internetGatewayRef", func(t *v1alpha1.RouteTable) []managed.Slot {
				return routeSlots(t, func(r *v1alpha1.Route) managed.Slot { return managed.Slot{Ref: r.InternetGatewayRef, ID: &r.GatewayID} })
			}),
			managed.Each(targets.NATGateway, "spec.routes[%d].natGatewayRef", func(t *v1alpha1.RouteTable) []managed.Slot {
				return routeSlots(t, func(r *v1alpha1.Route) managed.Slot { return managed.Slot{Ref: r.NATGatewayRef, ID: &r.NATGatewayID} })
			}),
			// A route through a peering connection waits until the connection is active.
			managed.Each(targets.VPCPeeringConnection, "spec.routes[%d].vpcPeeringConnectionRef", func(t *v1alpha1.RouteTable) []managed.Slot {
				return routeSlots(t, func(r *v1alpha1.Route) managed.Slot {
					return managed.Slot{Ref: r.VPCPeeringConnectionRef, ID: &r.VPCPeeringConnectionID}
				})
			}),
			managed.List(targets.Subnet, "spec.subnetRefs", "spec.subnetSelector", func(t *v1alpha1.RouteTable) ([]shared.Reference, *shared.Selector, *[]string) {
				return t.Spec.SubnetRefs, t.Spec.SubnetSelector, &t.Spec.SubnetIDs
			}),
		},
	}
}

// routeSlots returns, for every route of t in order, the slot that slot picks in it.
func routeSlots(t *v1alpha1.RouteTable, slot func(r *v1alpha1.Route) managed.Slot) []managed.Slot {
	slots := make([]managed.Slot, len(t.Spec.Routes))
	for i := range t.Spec.Routes {
		slots[i] = slot(&t.Spec.Routes[i])
	}
	return slots
}

// validate refuses two routes to one destination, which admission cannot check cheaply.
func validate(t *v1alpha1.RouteTable) error {
	seen := map[destination]int{}
	for i, r := range t.Spec.Routes {
		d := destinationOf(r)
		if j, ok := seen[d]; ok {
			return fmt.Errorf("spec.routes[%d] and spec.routes[%d] both route %s; a destination has one route", j, i, d.value)
		}
		seen[d] = i
	}
	return nil
}

// driver manages one provider's route tables.
type driver struct {
	api    *ec2.Client
	tables ec2util.Source[types.RouteTable]
}
