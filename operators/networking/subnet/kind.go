// Package subnet manages VPC subnets for the Subnet kind.
package subnet

import (
	"context"

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

// Kind declares the Subnet kind to the engine.
func Kind() managed.Kind[*v1alpha1.Subnet, State] {
	return managed.Kind[*v1alpha1.Subnet, State]{
		Name:    "Subnet",
		New:     func() *v1alpha1.Subnet { return &v1alpha1.Subnet{} },
		NewList: func() client.ObjectList { return &v1alpha1.SubnetList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.Subnet, State] {
			api := ec2util.Client(s)
			return &driver{api: api, region: s.Config.Region, subnets: ec2util.Describer[types.Subnet]{
				What: "subnet",
				Describe: ec2util.Pages(1000, api.DescribeSubnets, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeSubnetsInput {
					return &ec2.DescribeSubnetsInput{SubnetIds: ids, Filters: f, MaxResults: limit, NextToken: next}
				}, func(out *ec2.DescribeSubnetsOutput) ([]types.Subnet, *string) { return out.Subnets, out.NextToken }),
				ID: func(s types.Subnet) string { return aws.ToString(s.SubnetId) },
			}.For(s)}
		},
		References: []managed.Ref[*v1alpha1.Subnet]{
			managed.One(targets.VPC, "spec.vpcRef", func(s *v1alpha1.Subnet) (*shared.Reference, *string) { return s.Spec.VPCRef, &s.Spec.VPCID }),
		},
	}
}

// driver manages one provider's subnets.
type driver struct {
	api subnetAPI
	// region is the provider's region, which the subnet's availability zone must be in.
	region  string
	subnets ec2util.Source[types.Subnet]
}

// subnetAPI is the part of the EC2 API the driver uses.
type subnetAPI interface {
	ec2util.TagAPI
	vpcReader
	CreateSubnet(ctx context.Context, in *ec2.CreateSubnetInput, opts ...func(*ec2.Options)) (*ec2.CreateSubnetOutput, error)
	ModifySubnetAttribute(ctx context.Context, in *ec2.ModifySubnetAttributeInput, opts ...func(*ec2.Options)) (*ec2.ModifySubnetAttributeOutput, error)
	DeleteSubnet(ctx context.Context, in *ec2.DeleteSubnetInput, opts ...func(*ec2.Options)) (*ec2.DeleteSubnetOutput, error)
}
