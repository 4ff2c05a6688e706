// Package networking is the networking family of infra-operator: VPC, Subnet, InternetGateway,
// ElasticIP, NATGateway, SecurityGroup, RouteTable, the ALB and NLB load balancers with their
// listeners and target groups, VPCEndpoint and VPCPeeringConnection.
package networking

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/crds"
	"github.com/runner-codes/infra-operator/operators/networking/elasticip"
	"github.com/runner-codes/infra-operator/operators/networking/internetgateway"
	"github.com/runner-codes/infra-operator/operators/networking/loadbalancer"
	"github.com/runner-codes/infra-operator/operators/networking/natgateway"
	"github.com/runner-codes/infra-operator/operators/networking/route53hostedzone"
	"github.com/runner-codes/infra-operator/operators/networking/route53recordset"
	"github.com/runner-codes/infra-operator/operators/networking/routetable"
	"github.com/runner-codes/infra-operator/operators/networking/securitygroup"
	"github.com/runner-codes/infra-operator/operators/networking/subnet"
	"github.com/runner-codes/infra-operator/operators/networking/vpc"
	"github.com/runner-codes/infra-operator/operators/networking/vpcendpoint"
	"github.com/runner-codes/infra-operator/operators/networking/vpcpeeringconnection"
	"github.com/runner-codes/infra-operator/shared/engine"
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
		Kinds: []engine.Controller{
			engine.For(vpc.Kind()),
			engine.For(subnet.Kind()),
			engine.For(internetgateway.Kind()),
			engine.For(elasticip.Kind()),
			engine.For(natgateway.Kind()),
			engine.For(securitygroup.Kind()),
			engine.For(routetable.Kind()),
			engine.For(loadbalancer.ALBKind()),
			engine.For(loadbalancer.NLBKind()),
			engine.For(vpcendpoint.Kind()),
			engine.For(route53hostedzone.Kind()),
			engine.For(route53recordset.Kind()),
			engine.For(vpcpeeringconnection.Kind()),
		},
	}
}
