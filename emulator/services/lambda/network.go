package lambda

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/lambda/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// resolveVPC checks the subnets and security groups of a VPC configuration against EC2, as
// Lambda does when it creates or updates a function, and returns the VPC they share. A nil
// configuration, or one with neither subnets nor security groups (which detaches the function
// from its VPC), gives "". The lists must be both empty or both given; every subnet and group
// must exist (Lambda repeats EC2's error from DescribeSubnets or DescribeSecurityGroups); and
// all of them must be in one VPC.
func (b *Backend) resolveVPC(scope core.Scope, vpc *types.VpcConfig) (string, error) {
	if vpc == nil || len(vpc.SubnetIds) == 0 && len(vpc.SecurityGroupIds) == 0 {
		return "", nil
	}
	if len(vpc.SubnetIds) == 0 || len(vpc.SecurityGroupIds) == 0 {
		return "", invalidParameter("SubnetIds and SecurityIds must coexist or be both empty list.")
	}
	// Lambda describes every subnet, then every group, before it compares their VPCs.
	subnetVPCs := make([]string, len(vpc.SubnetIds))
	for i, subnet := range vpc.SubnetIds {
		v, _, ok := b.network.Subnet(scope, subnet)
		if !ok {
			return "", invalidParameter("Error occurred while DescribeSubnets. EC2 Error Code: InvalidSubnetID.NotFound. "+
				"EC2 Error Message: The subnet ID '%s' does not exist", subnet)
		}
		subnetVPCs[i] = v
	}
	groupVPCs := make([]string, len(vpc.SecurityGroupIds))
	for i, group := range vpc.SecurityGroupIds {
		v, ok := b.network.SecurityGroup(scope, group)
		if !ok {
			return "", invalidParameter("Error occurred while DescribeSecurityGroups. EC2 Error Code: InvalidGroup.NotFound. "+
				"EC2 Error Message: The security group '%s' does not exist", group)
		}
		groupVPCs[i] = v
	}
	id := subnetVPCs[0]
	if slices.ContainsFunc(subnetVPCs, func(v string) bool { return v != id }) {
		return "", invalidParameter("Subnets are required to be in the same VPC")
	}
	if slices.ContainsFunc(groupVPCs, func(v string) bool { return v != id }) {
		return "", invalidParameter("Security Groups are required to be in the same VPC")
	}
	return id, nil
}
