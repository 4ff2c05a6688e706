package subnet

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
)

// subnetAPI is the part of the EC2 API the driver uses.
type subnetAPI interface {
	ec2util.TagAPI
	vpcReader
	CreateSubnet(ctx context.Context, in *ec2.CreateSubnetInput, opts ...func(*ec2.Options)) (*ec2.CreateSubnetOutput, error)
	DescribeSubnets(ctx context.Context, in *ec2.DescribeSubnetsInput, opts ...func(*ec2.Options)) (*ec2.DescribeSubnetsOutput, error)
	ModifySubnetAttribute(ctx context.Context, in *ec2.ModifySubnetAttributeInput, opts ...func(*ec2.Options)) (*ec2.ModifySubnetAttributeOutput, error)
	DeleteSubnet(ctx context.Context, in *ec2.DeleteSubnetInput, opts ...func(*ec2.Options)) (*ec2.DeleteSubnetOutput, error)
}

var _ subnetAPI = (*ec2.Client)(nil)
