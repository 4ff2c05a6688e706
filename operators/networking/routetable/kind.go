// Package routetable manages VPC route tables, their routes and their subnet associations for
// the RouteTable kind.
package routetable

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/operators/networking/internetgateway"
	"github.com/runner-codes/infra-operator/operators/networking/natgateway"
	"github.com/runner-codes/infra-operator/operators/networking/subnet"
	"github.com/runner-codes/infra-operator/operators/networking/vpc"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind returns the RouteTable kind for the generic reconciler.
func Kind() managed.Kind[*v1alpha1.RouteTable, State] {
	return managed.Kind[*v1alpha1.RouteTable, State]{
		Name:    "RouteTable",
		New:     func() *v1alpha1.RouteTable { return &v1alpha1.RouteTable{} },
		NewList: func() client.ObjectList { return &v1alpha1.RouteTableList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.RouteTable, State] {
			api := provider.Client(s, "ec2", func(c aws.Config) *ec2.Client { return ec2.NewFromConfig(c) })
			tables := describer(api)
			return &driver{api: api, defaultTags: s.DefaultTags(), tables: tables,
				listing: provider.Client(s, "ec2/rtb-listing", func(aws.Config) *managed.Listing[types.RouteTable] { return tables.Listing() })}
		},
		Validate:          validate,
		ResolveReferences: resolveReferences,
		References:        references,
		Referenced:        []client.Object{&v1alpha1.VPC{}, &v1alpha1.InternetGateway{}, &v1alpha1.NATGateway{}, &v1alpha1.Subnet{}},
	}
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

// resolveReferences fills, in memory, the VPC id from vpcRef, each route's gateway id from its
// internetGatewayRef or natGatewayRef, and the subnet ids from subnetRefs or subnetSelector; it
// waits, with a condition naming the field, while any of them is not Ready.
func resolveReferences(ctx context.Context, c client.Reader, t *v1alpha1.RouteTable) error {
	if err := vpc.ResolveRef(ctx, c, t, "spec.vpcRef", t.Spec.VPCRef, &t.Spec.VPCID); err != nil {
		return err
	}
	for i := range t.Spec.Routes {
		r := &t.Spec.Routes[i]
		if err := internetgateway.Target.ResolveInto(ctx, c, t, fmt.Sprintf("spec.routes[%d].internetGatewayRef", i), r.InternetGatewayRef, &r.GatewayID); err != nil {
			return err
		}
		if err := natgateway.Target.ResolveInto(ctx, c, t, fmt.Sprintf("spec.routes[%d].natGatewayRef", i), r.NATGatewayRef, &r.NATGatewayID); err != nil {
			return err
		}
	}
	if err := subnet.Target.ResolveAll(ctx, c, t, "spec.subnetRefs", t.Spec.SubnetRefs, &t.Spec.SubnetIDs); err != nil {
		return err
	}
	return subnet.Target.ResolveSelectorInto(ctx, c, t, "spec.subnetSelector", t.Spec.SubnetSelector, &t.Spec.SubnetIDs)
}

// references returns the VPC, gateways and subnets t's spec refers to.
func references(t *v1alpha1.RouteTable) []managed.Ref {
	refs := vpc.Refs(t.Spec.VPCRef)
	for _, r := range t.Spec.Routes {
		refs = append(refs, internetgateway.Target.Refs(r.InternetGatewayRef)...)
		refs = append(refs, natgateway.Target.Refs(r.NATGatewayRef)...)
	}
	return append(refs, subnet.Target.ListRefs(t.Spec.SubnetRefs, t.Spec.SubnetSelector)...)
}

// describer reads route tables.
func describer(api tableAPI) ec2util.Describer[types.RouteTable] {
	return ec2util.Describer[types.RouteTable]{
		What: "route table",
		Describe: func(ctx context.Context, ids []string, filters []types.Filter, next string) ([]types.RouteTable, string, error) {
			in := &ec2.DescribeRouteTablesInput{RouteTableIds: ids, Filters: filters}
			in.MaxResults, in.NextToken = ec2util.Paging(ids, 100, next)
			out, err := api.DescribeRouteTables(ctx, in)
			if err != nil {
				return nil, "", err
			}
			return out.RouteTables, aws.ToString(out.NextToken), nil
		},
		ID: func(t types.RouteTable) string { return aws.ToString(t.RouteTableId) },
	}
}

// driver manages one provider's route tables.
type driver struct {
	api         tableAPI
	defaultTags map[string]string
	tables      ec2util.Describer[types.RouteTable]
	listing     *managed.Listing[types.RouteTable]
}
