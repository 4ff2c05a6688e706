// Package networking is the networking family of infra-operator: VPC, Subnet, InternetGateway,
// ElasticIP, NATGateway, SecurityGroup, RouteTable, and the ALB and NLB load balancers with
// their listeners and target groups.
package networking

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/crds"
	"github.com/runner-codes/infra-operator/operators/networking/elasticip"
	"github.com/runner-codes/infra-operator/operators/networking/internetgateway"
	"github.com/runner-codes/infra-operator/operators/networking/loadbalancer"
	"github.com/runner-codes/infra-operator/operators/networking/natgateway"
	"github.com/runner-codes/infra-operator/operators/networking/routetable"
	"github.com/runner-codes/infra-operator/operators/networking/securitygroup"
	"github.com/runner-codes/infra-operator/operators/networking/subnet"
	"github.com/runner-codes/infra-operator/operators/networking/vpc"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// Name is the family's name.
const Name = "networking"

// Family returns the networking family with its kinds.
func Family() operator.Family {
	return operator.Family{
		Name:        Name,
		AddToScheme: []func(*runtime.Scheme) error{v1alpha1.AddToScheme},
		CRDs:        crds.FS(),
		Setup:       Setup,
	}
}

// Setup registers the controllers of the networking family's kinds with mgr.
func Setup(ctx context.Context, mgr ctrl.Manager, opts managed.SetupOptions) error {
	if err := managed.Setup(ctx, mgr, vpc.Kind(), opts); err != nil {
		return fmt.Errorf("set up VPC: %w", err)
	}
	if err := managed.Setup(ctx, mgr, subnet.Kind(), opts); err != nil {
		return fmt.Errorf("set up Subnet: %w", err)
	}
	if err := managed.Setup(ctx, mgr, internetgateway.Kind(), opts); err != nil {
		return fmt.Errorf("set up InternetGateway: %w", err)
	}
	if err := managed.Setup(ctx, mgr, elasticip.Kind(), opts); err != nil {
		return fmt.Errorf("set up ElasticIP: %w", err)
	}
	if err := managed.Setup(ctx, mgr, natgateway.Kind(), opts); err != nil {
		return fmt.Errorf("set up NATGateway: %w", err)
	}
	if err := managed.Setup(ctx, mgr, securitygroup.Kind(), opts); err != nil {
		return fmt.Errorf("set up SecurityGroup: %w", err)
	}
	if err := managed.Setup(ctx, mgr, routetable.Kind(), opts); err != nil {
		return fmt.Errorf("set up RouteTable: %w", err)
	}
	if err := managed.Setup(ctx, mgr, loadbalancer.ALBKind(), opts); err != nil {
		return fmt.Errorf("set up ALB: %w", err)
	}
	if err := managed.Setup(ctx, mgr, loadbalancer.NLBKind(), opts); err != nil {
		return fmt.Errorf("set up NLB: %w", err)
	}
	return nil
}
