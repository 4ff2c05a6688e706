package eks

import (
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Limits of a cluster's VPC configuration (Amazon EKS API Reference, VpcConfigRequest).
const (
	maxSecurityGroups = 5
	maxPublicCIDRs    = 40
)

// unsupportedZones are the availability zones where EKS cannot place a control plane, with the
// zones it offers instead (Amazon EKS User Guide, Create a cluster: us-east-1e).
var unsupportedZones = map[string]string{"us-east-1e": "us-east-1a, us-east-1b, us-east-1c, us-east-1d, us-east-1f"}

// subnetsVPC checks that subnets exist in the emulated EC2 and share one VPC, and returns that
// VPC and the subnets' availability zones.
func (b *Backend) subnetsVPC(scope core.Scope, subnets []string) (vpc string, zones map[string]bool, err error) {
	zones = map[string]bool{}
	for _, id := range subnets {
		v, zone, ok := b.network.Subnet(scope, id)
		if !ok {
			return "", nil, invalidParameter("The subnet ID '%s' does not exist (Service: AmazonEC2; Status Code: 400; Error Code: InvalidSubnetID.NotFound)", id)
		}
		if vpc != "" && v != vpc {
			return "", nil, invalidParameter("Subnets specified must belong to the same VPC: %s is in %s, not %s", id, v, vpc)
		}
		vpc, zones[zone] = v, true
	}
	return vpc, zones, nil
}

// clusterSubnets checks a cluster's subnets: they exist, share a VPC and span at least two
// availability zones where EKS runs control planes. It returns the VPC.
func (b *Backend) clusterSubnets(scope core.Scope, cluster string, subnets []string) (string, error) {
	vpc, zones, err := b.subnetsVPC(scope, subnets)
	if err != nil {
		return "", err
	}
	for _, zone := range core.SortedKeys(zones) {
		if others, ok := unsupportedZones[zone]; ok {
			return "", &core.APIError{Code: "UnsupportedAvailabilityZoneException", Status: http.StatusBadRequest,
				Message: "Cannot create cluster '" + cluster + "' because " + zone + ", the targeted availability zone, does not currently have sufficient capacity to support the cluster. Retry and choose from these availability zones: " + others}
		}
	}
	if len(zones) < 2 {
		return "", invalidParameter("Subnets specified must be in at least two different AZs")
	}
	return vpc, nil
}

// checkGroups checks that security groups exist in the emulated EC2, in vpc.
func (b *Backend) checkGroups(scope core.Scope, vpc string, groups []string) error {
	if len(groups) > maxSecurityGroups {
		return invalidParameter("A cluster can have at most %d security groups", maxSecurityGroups)
	}
	for _, id := range groups {
		v, ok := b.network.SecurityGroup(scope, id)
		if !ok {
			return invalidParameter("The security group '%s' does not exist (Service: AmazonEC2; Status Code: 400; Error Code: InvalidGroup.NotFound)", id)
		}
		if v != vpc {
			return invalidParameter("Security group %s is not in the VPC of the subnets, %s", id, vpc)
		}
	}
	return nil
}

// checkPublicCIDRs checks the CIDR blocks allowed to reach the public endpoint: at most 40
// valid IPv4 blocks, none of them private.
func checkPublicCIDRs(cidrs []string) error {
	if len(cidrs) > maxPublicCIDRs {
		return invalidParameter("publicAccessCidrs can contain at most %d CIDR blocks", maxPublicCIDRs)
	}
	var bad []string
	for _, c := range cidrs {
		ip, n, err := net.ParseCIDR(c)
		if err != nil || ip.To4() == nil || !ip.Equal(n.IP) || ip.IsPrivate() || ip.IsLoopback() {
			bad = append(bad, c)
		}
	}
	if len(bad) > 0 {
		return invalidParameter("The following CIDRs are invalid in publicAccessCidrs: [%s]", joinCIDRs(bad))
	}
	return nil
}

// endpointAccess returns the endpoint access a request leaves a cluster with, starting from
// the current settings: public and private access, and the CIDRs of public access.
func endpointAccess(in *types.VpcConfigRequest, public, private bool, cidrs []string) (bool, bool, []string, error) {
	if in.EndpointPublicAccess != nil {
		public = *in.EndpointPublicAccess
	}
	if in.EndpointPrivateAccess != nil {
		private = *in.EndpointPrivateAccess
	}
	if !public && !private {
		return false, false, nil, invalidParameter("Private and public endpoint access can't both be disabled")
	}
	if in.PublicAccessCidrs != nil {
		if err := checkPublicCIDRs(in.PublicAccessCidrs); err != nil {
			return false, false, nil, err
		}
		cidrs = slices.Clone(in.PublicAccessCidrs)
	}
	if len(cidrs) == 0 {
		cidrs = []string{"0.0.0.0/0"}
	}
	return public, private, cidrs, nil
}

// vpcConfig validates the VPC configuration of a new cluster and returns it as EKS describes
// it, with the VPC of the subnets and a new cluster security group.
func (b *Backend) vpcConfig(scope core.Scope, cluster string, in *types.VpcConfigRequest) (*types.VpcConfigResponse, error) {
	if in == nil {
		return nil, invalidParameter("resourcesVpcConfig is required")
	}
	vpc, err := b.clusterSubnets(scope, cluster, in.SubnetIds)
	if err != nil {
		return nil, err
	}
	if err := b.checkGroups(scope, vpc, in.SecurityGroupIds); err != nil {
		return nil, err
	}
	public, private, cidrs, err := endpointAccess(in, true, false, nil)
	if err != nil {
		return nil, err
	}
	return &types.VpcConfigResponse{SubnetIds: slices.Clone(in.SubnetIds), SecurityGroupIds: append([]string{}, in.SecurityGroupIds...),
		VpcId: aws.String(vpc), ClusterSecurityGroupId: aws.String(securityGroupID()),
		EndpointPublicAccess: public, EndpointPrivateAccess: private, PublicAccessCidrs: cidrs}, nil
}

// endpointUnchanged is AWS's answer to an endpoint access update that changes nothing.
func endpointUnchanged(v *types.VpcConfigResponse) error {
	return invalidParameter("Cluster is already at the desired configuration with endpointPrivateAccess: %t , endpointPublicAccess: %t, and Public Endpoint Restrictions: [%s]",
		v.EndpointPrivateAccess, v.EndpointPublicAccess, strings.Join(v.PublicAccessCidrs, ", "))
}
