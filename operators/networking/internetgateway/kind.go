// Package internetgateway manages internet gateways for the InternetGateway kind: created,
// attached to the spec's VPC, detached before deletion.
package internetgateway

import (
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

// Kind declares the InternetGateway kind to the engine.
func Kind() managed.Kind[*v1alpha1.InternetGateway, State] {
	return managed.Kind[*v1alpha1.InternetGateway, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.InternetGateway) managed.Driver[*v1alpha1.InternetGateway, State] {
			api := ec2util.Client(s)
			return &driver{api: api, gateways: ec2util.InternetGateways(api).For(s)}
		},
		References: []managed.Ref[*v1alpha1.InternetGateway]{
			managed.One(targets.VPC, "spec.vpcRef", func(g *v1alpha1.InternetGateway) (*shared.Reference, *string) { return g.Spec.VPCRef, &g.Spec.VPCID }),
		},
	}
}

// driver manages one provider's internet gateways.
type driver struct {
	api      *ec2.Client
	gateways ec2util.Source[types.InternetGateway]
}
