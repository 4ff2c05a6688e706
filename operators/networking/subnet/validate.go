package subnet

import (
	"context"
	"fmt"
	"net/netip"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// checkPlacement refuses, before anything is written, a subnet that CreateSubnet would refuse
// for where it goes: an availability zone outside the provider's region, or a CIDR block
// outside every IPv4 block of its VPC, which it reads with one DescribeVpcs. The refusals are
// terminal InvalidSpec errors. A VPC that does not exist is left to CreateSubnet, which reports
// it as before.
func checkPlacement(ctx context.Context, api *ec2.Client, region string, s *v1alpha1.Subnet) error {
	if err := checkZone(s.Spec.AvailabilityZone, region); err != nil {
		return err
	}
	out, err := api.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{VpcIds: []string{s.Spec.VPCID}})
	if awserr.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("describe VPC %s: %w", s.Spec.VPCID, err)
	}
	if len(out.Vpcs) == 0 {
		return nil
	}
	return checkCIDR(s.Spec.CIDRBlock, s.Spec.VPCID, vpcBlocks(out.Vpcs[0]))
}

// checkZone refuses an availability zone name of another region than the provider's: zone
// names are the region's name and a letter (us-east-1a in us-east-1). An empty zone lets AWS
// choose; zone ids (use1-az1) do not name their region and are left to AWS.
func checkZone(zone, region string) error {
	if zone == "" || region == "" {
		return nil
	}
	if rest, ok := strings.CutPrefix(zone, region); ok && rest != "" && (rest[0] < '0' || rest[0] > '9') {
		return nil
	}
	return managed.Terminal(condition.ReasonInvalidSpec, "availabilityZone %s is not in region %s, the region of the AWSProvider; use a zone of %s (for example %sa) or a provider of the zone's region",
		zone, region, region, region)
}

// checkCIDR refuses a subnet CIDR block that lies outside every one of the VPC's IPv4 blocks.
// Blocks that do not parse are not held against the subnet.
func checkCIDR(cidr, vpcID string, blocks []string) error {
	subnet, err := netip.ParsePrefix(cidr)
	if err != nil {
		return nil // admission checks the form
	}
	for _, b := range blocks {
		if block, err := netip.ParsePrefix(b); err == nil && block.Bits() <= subnet.Bits() && block.Contains(subnet.Addr()) {
			return nil
		}
	}
	return managed.Terminal(condition.ReasonInvalidSpec, "cidrBlock %s is outside VPC %s, whose IPv4 CIDR blocks are %s; choose a range inside one of them",
		cidr, vpcID, strings.Join(blocks, ", "))
}

// vpcBlocks returns the VPC's IPv4 CIDR blocks: the primary one and every associated one.
func vpcBlocks(v types.Vpc) []string {
	blocks := []string{aws.ToString(v.CidrBlock)}
	for _, a := range v.CidrBlockAssociationSet {
		b := aws.ToString(a.CidrBlock)
		if a.CidrBlockState != nil && a.CidrBlockState.State == types.VpcCidrBlockStateCodeAssociated && b != blocks[0] {
			blocks = append(blocks, b)
		}
	}
	return blocks
}
