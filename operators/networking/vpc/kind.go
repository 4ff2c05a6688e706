// Package vpc manages Amazon VPCs for the VPC kind.
package vpc

import (
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the VPC kind to the engine.
func Kind() managed.Kind[*v1alpha1.VPC, State] {
	return managed.Kind[*v1alpha1.VPC, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.VPC) managed.Driver[*v1alpha1.VPC, State] {
			api := ec2util.Client(s)
			return &driver{api: api, vpcs: ec2util.VPCs(api).For(s)}
		},
	}
}

// driver manages one provider's VPCs.
type driver struct {
	api  *ec2.Client
	vpcs ec2util.Source[types.Vpc]
}
