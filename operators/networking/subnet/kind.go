// Package subnet manages VPC subnets for the Subnet kind.
package subnet

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

// Kind declares the Subnet kind to the engine.
func Kind() managed.Kind[*v1alpha1.Subnet, State] {
	return managed.Kind[*v1alpha1.Subnet, State]{
		Connect: func(s *provider.Session, _ client.Reader, _ *v1alpha1.Subnet) managed.Driver[*v1alpha1.Subnet, State] {
			api := ec2util.Client(s)
			return &driver{api: api, region: s.Config.Region, subnets: ec2util.Subnets(api).For(s)}
		},
		References: []managed.Ref[*v1alpha1.Subnet]{
			managed.One(targets.VPC, "spec.vpcRef", func(s *v1alpha1.Subnet) (*shared.Reference, *string) { return s.Spec.VPCRef, &s.Spec.VPCID }),
		},
	}
}

// driver manages one provider's subnets.
type driver struct {
	api *ec2.Client
	// region is the provider's region, which the subnet's availability zone must be in.
	region  string
	subnets ec2util.Source[types.Subnet]
}
