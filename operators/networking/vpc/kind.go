// Package vpc manages Amazon VPCs for the VPC kind.
package vpc

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Kind declares the VPC kind to the engine.
func Kind() managed.Kind[*v1alpha1.VPC, State] {
	return managed.Kind[*v1alpha1.VPC, State]{
		Name:    "VPC",
		New:     func() *v1alpha1.VPC { return &v1alpha1.VPC{} },
		NewList: func() client.ObjectList { return &v1alpha1.VPCList{} },
		Connect: func(s *provider.Session, _ client.Reader) managed.Driver[*v1alpha1.VPC, State] {
			api := ec2util.Client(s)
			return &driver{api: api, vpcs: ec2util.Describer[types.Vpc]{
				What: "VPC",
				Describe: ec2util.Pages(1000, api.DescribeVpcs, func(ids []string, f []types.Filter, limit *int32, next *string) *ec2.DescribeVpcsInput {
					return &ec2.DescribeVpcsInput{VpcIds: ids, Filters: f, MaxResults: limit, NextToken: next}
				}, func(out *ec2.DescribeVpcsOutput) ([]types.Vpc, *string) { return out.Vpcs, out.NextToken }),
				ID: func(v types.Vpc) string { return aws.ToString(v.VpcId) },
			}.For(s)}
		},
	}
}

// driver manages one provider's VPCs.
type driver struct {
	api  vpcAPI
	vpcs ec2util.Source[types.Vpc]
}

// vpcAPI is the part of the EC2 API the driver uses.
type vpcAPI interface {
	ec2util.TagAPI
	CreateVpc(ctx context.Context, in *ec2.CreateVpcInput, opts ...func(*ec2.Options)) (*ec2.CreateVpcOutput, error)
	DescribeVpcAttribute(ctx context.Context, in *ec2.DescribeVpcAttributeInput, opts ...func(*ec2.Options)) (*ec2.DescribeVpcAttributeOutput, error)
	ModifyVpcAttribute(ctx context.Context, in *ec2.ModifyVpcAttributeInput, opts ...func(*ec2.Options)) (*ec2.ModifyVpcAttributeOutput, error)
	DeleteVpc(ctx context.Context, in *ec2.DeleteVpcInput, opts ...func(*ec2.Options)) (*ec2.DeleteVpcOutput, error)
}
