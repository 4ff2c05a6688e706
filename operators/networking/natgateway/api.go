package natgateway

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/runner-codes/infra-operator/operators/networking/internal/ec2util"
)

// gatewayAPI is the part of the EC2 API the driver uses: NAT gateways, the Elastic IPs it
// allocates for them, and the subnet and internet gateway it checks before a create.
type gatewayAPI interface {
	ec2util.TagAPI
	ec2util.AddressAPI
	CreateNatGateway(ctx context.Context, in *ec2.CreateNatGatewayInput, opts ...func(*ec2.Options)) (*ec2.CreateNatGatewayOutput, error)
	DescribeNatGateways(ctx context.Context, in *ec2.DescribeNatGatewaysInput, opts ...func(*ec2.Options)) (*ec2.DescribeNatGatewaysOutput, error)
	DeleteNatGateway(ctx context.Context, in *ec2.DeleteNatGatewayInput, opts ...func(*ec2.Options)) (*ec2.DeleteNatGatewayOutput, error)
	DescribeSubnets(ctx context.Context, in *ec2.DescribeSubnetsInput, opts ...func(*ec2.Options)) (*ec2.DescribeSubnetsOutput, error)
	DescribeInternetGateways(ctx context.Context, in *ec2.DescribeInternetGatewaysInput, opts ...func(*ec2.Options)) (*ec2.DescribeInternetGatewaysOutput, error)
}

var _ gatewayAPI = (*ec2.Client)(nil)
