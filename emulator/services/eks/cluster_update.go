package eks

import (
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// updatable returns the error EKS answers for an update of type typ of a cluster that cannot
// take one at now: ResourceInUseException while another update is in progress, and
// InvalidRequestException while the cluster is being created or deleted.
func (c *cluster) updatable(typ types.UpdateType, now time.Time) error {
	switch c.phase(now) {
	case phaseUpdating:
		return inUse("Cannot %s because cluster %s currently has update in progress", typ, c.name)
	case phaseCreating, phaseDeleting, phaseGone:
		return notActive(c.name)
	}
	return nil
}

// clusterUpdate is one update UpdateClusterConfig can make: its parameters and the change it
// makes when it ends.
type clusterUpdate struct {
	params []types.UpdateParam
	apply  func()
}

func (b *Backend) updateClusterConfig(call *core.Call, in *eks.UpdateClusterConfigInput) (*eks.UpdateClusterConfigOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*eks.UpdateClusterConfigOutput, error) {
		c, err := r.cluster("name", aws.ToString(in.Name), call.Now)
		if err != nil {
			return nil, err
		}
		if u := c.repeated(in.ClientRequestToken); u != nil {
			return &eks.UpdateClusterConfigOutput{Update: u.view()}, nil
		}
		typ, err := configUpdateType(in)
		if err != nil {
			return nil, err
		}
		if err := c.updatable(typ, call.Now); err != nil {
			return nil, err
		}
		var u *clusterUpdate
		switch typ {
		case types.UpdateTypeLoggingUpdate:
			u, err = c.loggingUpdate(in.Logging)
		case types.UpdateTypeEndpointAccessUpdate:
			u, err = c.endpointUpdate(in.ResourcesVpcConfig)
		case types.UpdateTypeVpcConfigUpdate:
			u, err = b.vpcUpdate(r.scope, c, in.ResourcesVpcConfig)
		case types.UpdateTypeAccessConfigUpdate:
			u, err = c.accessUpdate(call, in.AccessConfig.AuthenticationMode)
		default:
			u, err = c.upgradePolicyUpdate(in.UpgradePolicy.SupportType)
		}
		if err != nil {
			return nil, err
		}
		return &eks.UpdateClusterConfigOutput{Update: c.start(call, typ, u.params, in.ClientRequestToken, u.apply)}, nil
	})
}

// configUpdateType returns the one type of update an UpdateClusterConfig request makes: EKS
// refuses a request that makes none, or more than one.
func configUpdateType(in *eks.UpdateClusterConfigInput) (types.UpdateType, error) {
	if err := unsupported(map[string]bool{
		"computeConfig": in.ComputeConfig != nil, "storageConfig": in.StorageConfig != nil, "remoteNetworkConfig": in.RemoteNetworkConfig != nil,
		"zonalShiftConfig": in.ZonalShiftConfig != nil, "kubernetesNetworkConfig": in.KubernetesNetworkConfig != nil,
		"controlPlaneScalingConfig": in.ControlPlaneScalingConfig != nil, "deletionProtection": in.DeletionProtection != nil,
		"kubeApiServerConfig": in.KubeApiServerConfig != nil, "kubeControllerManagerConfig": in.KubeControllerManagerConfig != nil,
		"kubeSchedulerConfig": in.KubeSchedulerConfig != nil,
	}); err != nil {
		return "", err
	}
	var kinds []types.UpdateType
	if in.Logging != nil {
		kinds = append(kinds, types.UpdateTypeLoggingUpdate)
	}
	if v := in.ResourcesVpcConfig; v != nil {
		if v.EndpointPublicAccess != nil || v.EndpointPrivateAccess != nil || v.PublicAccessCidrs != nil {
			kinds = append(kinds, types.UpdateTypeEndpointAccessUpdate)
		}
		if v.SubnetIds != nil || v.SecurityGroupIds != nil {
			kinds = append(kinds, types.UpdateTypeVpcConfigUpdate)
		}
	}
	if in.AccessConfig != nil && in.AccessConfig.AuthenticationMode != "" {
		kinds = append(kinds, types.UpdateTypeAccessConfigUpdate)
	}
	if in.UpgradePolicy != nil && in.UpgradePolicy.SupportType != "" {
		kinds = append(kinds, types.UpdateTypeUpgradePolicyUpdate)
	}
	switch len(kinds) {
	case 0:
		return "", invalidParameter("No changes needed")
	case 1:
		return kinds[0], nil
	}
	return "", invalidParameter("Only one type of update can be allowed.")
}

func (c *cluster) loggingUpdate(l *types.Logging) (*clusterUpdate, error) {
	logs, err := enabledLogs(l, c.logs)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(logTypes, func(t types.LogType) bool { return logs[t] != c.logs[t] }) {
		return nil, invalidParameter("No changes needed for the logging config provided")
	}
	view := loggingView(logs)
	var value []map[string]any
	for _, s := range view.ClusterLogging {
		value = append(value, map[string]any{"types": s.Types, "enabled": aws.ToBool(s.Enabled)})
	}
	return &clusterUpdate{params: []types.UpdateParam{param(types.UpdateParamTypeClusterLogging, jsonValue(value))},
		apply: func() { c.logs, c.cfg.Logging = logs, view }}, nil
}

func (c *cluster) endpointUpdate(in *types.VpcConfigRequest) (*clusterUpdate, error) {
	cur := c.cfg.ResourcesVpcConfig
	public, private, cidrs, err := endpointAccess(in, cur.EndpointPublicAccess, cur.EndpointPrivateAccess, cur.PublicAccessCidrs)
	if err != nil {
		return nil, err
	}
	if public == cur.EndpointPublicAccess && private == cur.EndpointPrivateAccess && slices.Equal(sortedCopy(cidrs), sortedCopy(cur.PublicAccessCidrs)) {
		return nil, endpointUnchanged(cur)
	}
	params := []types.UpdateParam{
		param(types.UpdateParamTypeEndpointPublicAccess, strconv.FormatBool(public)),
		param(types.UpdateParamTypeEndpointPrivateAccess, strconv.FormatBool(private)),
		param(types.UpdateParamTypePublicAccessCidrs, jsonValue(cidrs)),
	}
	return &clusterUpdate{params: params, apply: func() {
		next := *c.cfg.ResourcesVpcConfig
		next.EndpointPublicAccess, next.EndpointPrivateAccess, next.PublicAccessCidrs = public, private, cidrs
		c.cfg.ResourcesVpcConfig = &next
	}}, nil
}

// vpcUpdate changes a cluster's subnets or security groups, within its VPC.
func (b *Backend) vpcUpdate(scope core.Scope, c *cluster, in *types.VpcConfigRequest) (*clusterUpdate, error) {
	cur := c.cfg.ResourcesVpcConfig
	vpc := aws.ToString(cur.VpcId)
	subnets, groups := cur.SubnetIds, cur.SecurityGroupIds
	var params []types.UpdateParam
	if in.SubnetIds != nil {
		v, err := b.clusterSubnets(scope, c.name, in.SubnetIds)
		if err != nil {
			return nil, err
		}
		if v != vpc {
			return nil, invalidParameter("Subnets must be in the VPC of the cluster, %s", vpc)
		}
		subnets = slices.Clone(in.SubnetIds)
		params = append(params, param(types.UpdateParamTypeSubnets, jsonValue(subnets)))
	}
	if in.SecurityGroupIds != nil {
		if err := b.checkGroups(scope, vpc, in.SecurityGroupIds); err != nil {
			return nil, err
		}
		groups = append([]string{}, in.SecurityGroupIds...)
		params = append(params, param(types.UpdateParamTypeSecurityGroups, jsonValue(groups)))
	}
	if slices.Equal(sortedCopy(subnets), sortedCopy(cur.SubnetIds)) && slices.Equal(sortedCopy(groups), sortedCopy(cur.SecurityGroupIds)) {
		return nil, invalidParameter("No changes needed for the VPC configuration provided")
	}
	return &clusterUpdate{params: params, apply: func() {
		next := *c.cfg.ResourcesVpcConfig
		next.SubnetIds, next.SecurityGroupIds = subnets, groups
		c.cfg.ResourcesVpcConfig = &next
	}}, nil
}

func (c *cluster) upgradePolicyUpdate(support types.SupportType) (*clusterUpdate, error) {
	if !slices.Contains(support.Values(), support) {
		return nil, invalidParameter("Invalid supportType %s", support)
	}
	if support == c.cfg.UpgradePolicy.SupportType {
		return nil, invalidParameter("No changes needed for the upgrade policy provided")
	}
	return &clusterUpdate{params: []types.UpdateParam{param(types.UpdateParamTypeUpgradePolicy, string(support))},
		apply: func() { c.cfg.UpgradePolicy = &types.UpgradePolicyResponse{SupportType: support} }}, nil
}

func (b *Backend) updateClusterVersion(call *core.Call, in *eks.UpdateClusterVersionInput) (*eks.UpdateClusterVersionOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*eks.UpdateClusterVersionOutput, error) {
		c, err := r.cluster("name", aws.ToString(in.Name), call.Now)
		if err != nil {
			return nil, err
		}
		if u := c.repeated(in.ClientRequestToken); u != nil {
			return &eks.UpdateClusterVersionOutput{Update: u.view()}, nil
		}
		version, cur := aws.ToString(in.Version), aws.ToString(c.cfg.Version)
		if !supported(version) {
			return nil, invalidParameter("unsupported Kubernetes version %s", version)
		}
		if minor(version) != minor(cur)+1 {
			return nil, invalidParameter("Unsupported Kubernetes minor version update from %s to %s", cur, version)
		}
		if err := c.updatable(types.UpdateTypeVersionUpdate, call.Now); err != nil {
			return nil, err
		}
		platform := platformVersion(version)
		params := []types.UpdateParam{param(types.UpdateParamTypeVersion, version), param(types.UpdateParamTypePlatformVersion, platform)}
		return &eks.UpdateClusterVersionOutput{Update: c.start(call, types.UpdateTypeVersionUpdate, params, in.ClientRequestToken, func() {
			c.cfg.Version, c.cfg.PlatformVersion = aws.String(version), aws.String(platform)
		})}, nil
	})
}

func (b *Backend) associateEncryptionConfig(call *core.Call, in *eks.AssociateEncryptionConfigInput) (*eks.AssociateEncryptionConfigOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*eks.AssociateEncryptionConfigOutput, error) {
		c, err := r.cluster("name", aws.ToString(in.ClusterName), call.Now)
		if err != nil {
			return nil, err
		}
		if u := c.repeated(in.ClientRequestToken); u != nil {
			return &eks.AssociateEncryptionConfigOutput{Update: u.view()}, nil
		}
		if len(in.EncryptionConfig) == 0 {
			return nil, invalidParameter("encryptionConfig is required")
		}
		if err := checkEncryption(r.scope, in.EncryptionConfig); err != nil {
			return nil, err
		}
		if len(c.cfg.EncryptionConfig) > 0 {
			return nil, invalidRequest("Encryption is already enabled on the cluster %s", c.name)
		}
		if err := c.updatable(types.UpdateTypeAssociateEncryptionConfig, call.Now); err != nil {
			return nil, err
		}
		configs := slices.Clone(in.EncryptionConfig)
		var value []map[string]any
		for _, e := range configs {
			value = append(value, map[string]any{"resources": e.Resources, "provider": map[string]string{"keyArn": aws.ToString(e.Provider.KeyArn)}})
		}
		params := []types.UpdateParam{param(types.UpdateParamTypeEncryptionConfig, jsonValue(value))}
		return &eks.AssociateEncryptionConfigOutput{Update: c.start(call, types.UpdateTypeAssociateEncryptionConfig, params, in.ClientRequestToken,
			func() { c.cfg.EncryptionConfig = configs })}, nil
	})
}
