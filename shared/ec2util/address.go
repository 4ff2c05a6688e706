package ec2util

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/shared/awserr"
)

// AddressAPI is the part of the EC2 API that manages Elastic IP addresses.
type AddressAPI interface {
	AllocateAddress(ctx context.Context, in *ec2.AllocateAddressInput, opts ...func(*ec2.Options)) (*ec2.AllocateAddressOutput, error)
	DescribeAddresses(ctx context.Context, in *ec2.DescribeAddressesInput, opts ...func(*ec2.Options)) (*ec2.DescribeAddressesOutput, error)
	ReleaseAddress(ctx context.Context, in *ec2.ReleaseAddressInput, opts ...func(*ec2.Options)) (*ec2.ReleaseAddressOutput, error)
}

var _ AddressAPI = (*ec2.Client)(nil)

// Addresses reads Elastic IP addresses. DescribeAddresses answers in one page.
func Addresses(api AddressAPI) Describer[types.Address] {
	return Describer[types.Address]{
		What: "Elastic IP",
		Describe: func(ctx context.Context, ids []string, filters []types.Filter, _ string) ([]types.Address, string, error) {
			out, err := api.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{AllocationIds: ids, Filters: filters})
			if err != nil {
				return nil, "", err
			}
			return out.Addresses, "", nil
		},
		ID: func(a types.Address) string { return aws.ToString(a.AllocationId) },
	}
}

// AllocateAddress allocates an Elastic IP address in the vpc domain, tagged with tags from its
// first moment.
func AllocateAddress(ctx context.Context, api AddressAPI, tags map[string]string) (*ec2.AllocateAddressOutput, error) {
	out, err := api.AllocateAddress(ctx, &ec2.AllocateAddressInput{Domain: types.DomainTypeVpc,
		TagSpecifications: TagSpecifications(types.ResourceTypeElasticIp, tags)})
	if err != nil {
		return nil, fmt.Errorf("allocate an Elastic IP: %w", err)
	}
	return out, nil
}

// ReleaseAddress releases the Elastic IP id; one already released is success. While a NAT
// gateway or an interface uses it, AWS answers InvalidIPAddress.InUse, a dependency violation
// the reconciler reports and retries with backoff.
func ReleaseAddress(ctx context.Context, api AddressAPI, id string) error {
	if _, err := api.ReleaseAddress(ctx, &ec2.ReleaseAddressInput{AllocationId: aws.String(id)}); err != nil && !awserr.IsNotFound(err) {
		return fmt.Errorf("release Elastic IP %s: %w", id, err)
	}
	return nil
}
