package eks

import (
	"net"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// defaultServiceCIDR is the Kubernetes service range of a cluster that names none. AWS picks
// 10.100.0.0/16 or 172.20.0.0/16, whichever does not overlap the VPC; the emulator, which does
// not read the VPC's CIDR, always picks the second.
const defaultServiceCIDR = "172.20.0.0/16"

// unsupportedCreate refuses the CreateCluster settings the emulator does not implement.
func unsupportedCreate(in *eks.CreateClusterInput) error {
	return unsupported(map[string]bool{
		"computeConfig":               in.ComputeConfig != nil && aws.ToBool(in.ComputeConfig.Enabled),
		"storageConfig":               in.StorageConfig != nil && in.StorageConfig.BlockStorage != nil && aws.ToBool(in.StorageConfig.BlockStorage.Enabled),
		"outpostConfig":               in.OutpostConfig != nil,
		"remoteNetworkConfig":         in.RemoteNetworkConfig != nil,
		"zonalShiftConfig":            in.ZonalShiftConfig != nil && aws.ToBool(in.ZonalShiftConfig.Enabled),
		"controlPlaneScalingConfig":   in.ControlPlaneScalingConfig != nil,
		"kubeApiServerConfig":         in.KubeApiServerConfig != nil,
		"kubeControllerManagerConfig": in.KubeControllerManagerConfig != nil,
		"kubeSchedulerConfig":         in.KubeSchedulerConfig != nil,
		"deletionProtection":          aws.ToBool(in.DeletionProtection),
	})
}

// privateRanges are the blocks a cluster's service CIDR must lie in.
var privateRanges = []string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"}

// networkConfig validates a cluster's Kubernetes network configuration and returns it as EKS
// describes it: IPv4 with a service CIDR inside a private range, /12 to /24, by default.
func networkConfig(in *types.KubernetesNetworkConfigRequest) (*types.KubernetesNetworkConfigResponse, error) {
	out := &types.KubernetesNetworkConfigResponse{IpFamily: types.IpFamilyIpv4, ServiceIpv4Cidr: aws.String(defaultServiceCIDR)}
	if in == nil {
		return out, nil
	}
	if in.ElasticLoadBalancing != nil && aws.ToBool(in.ElasticLoadBalancing.Enabled) {
		return nil, unsupported(map[string]bool{"kubernetesNetworkConfig.elasticLoadBalancing": true})
	}
	switch in.IpFamily {
	case "", types.IpFamilyIpv4:
	case types.IpFamilyIpv6:
		out.IpFamily, out.ServiceIpv4Cidr = types.IpFamilyIpv6, nil
		out.ServiceIpv6Cidr = aws.String("fd" + randomHex(1) + ":" + randomHex(2) + ":" + randomHex(2) + "::/108")
		return out, nil
	default:
		return nil, invalidParameter("Invalid ipFamily %s: must be ipv4 or ipv6", in.IpFamily)
	}
	if cidr := aws.ToString(in.ServiceIpv4Cidr); cidr != "" {
		if !serviceCIDR(cidr) {
			return nil, invalidParameter("The service CIDR block %s is not valid: it must be within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16, with a prefix length between /12 and /24", cidr)
		}
		out.ServiceIpv4Cidr = aws.String(cidr)
	}
	return out, nil
}

// serviceCIDR reports whether cidr can be a cluster's service range.
func serviceCIDR(cidr string) bool {
	ip, n, err := net.ParseCIDR(cidr)
	if err != nil || ip.To4() == nil || !ip.Equal(n.IP) {
		return false
	}
	ones, _ := n.Mask.Size()
	return ones >= 12 && ones <= 24 && slices.ContainsFunc(privateRanges, func(r string) bool {
		_, block, _ := net.ParseCIDR(r)
		size, _ := block.Mask.Size()
		return block.Contains(ip) && ones >= size
	})
}

// upgradePolicy returns a new cluster's upgrade policy, by default extended support.
func upgradePolicy(policy *types.UpgradePolicyRequest) (*types.UpgradePolicyResponse, error) {
	p := &types.UpgradePolicyResponse{SupportType: types.SupportTypeExtended}
	if policy != nil && policy.SupportType != "" {
		if !slices.Contains(policy.SupportType.Values(), policy.SupportType) {
			return nil, invalidParameter("Invalid supportType %s", policy.SupportType)
		}
		p.SupportType = policy.SupportType
	}
	return p, nil
}
