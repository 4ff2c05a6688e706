package eks

import (
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// A cluster's access configuration: its authentication mode, which decides whether it has access
// entries, and the admin access entry EKS gives the IAM principal that created it.

// authModeOrder ranks the authentication modes: EKS moves a cluster only up this order
// (CONFIG_MAP -> API_AND_CONFIG_MAP -> API), never back.
var authModeOrder = map[types.AuthenticationMode]int{
	types.AuthenticationModeConfigMap: 0, types.AuthenticationModeApiAndConfigMap: 1, types.AuthenticationModeApi: 2,
}

// clusterAdminPolicy is the access policy EKS associates with the cluster creator's access entry.
const clusterAdminPolicy = accessPolicyPrefix + "AmazonEKSClusterAdminPolicy"

// accessConfig returns a new cluster's authentication mode and whether its creator gets admin
// access, with EKS's defaults for clusters created through the API (CreateAccessConfigRequest:
// CONFIG_MAP, and true). CONFIG_MAP requires the creator's admin access, as on AWS.
func accessConfig(in *types.CreateAccessConfigRequest) (types.AuthenticationMode, bool, error) {
	mode, bootstrap := types.AuthenticationModeConfigMap, true
	if in != nil {
		if in.AuthenticationMode != "" {
			if _, ok := authModeOrder[in.AuthenticationMode]; !ok {
				return "", false, invalidParameter("Invalid authenticationMode %s", in.AuthenticationMode)
			}
			mode = in.AuthenticationMode
		}
		if in.BootstrapClusterCreatorAdminPermissions != nil {
			bootstrap = *in.BootstrapClusterCreatorAdminPermissions
		}
	}
	if mode == types.AuthenticationModeConfigMap && !bootstrap {
		return "", false, invalidParameter("bootstrapClusterCreatorAdminPermissions must be true if cluster authentication mode is set to CONFIG_MAP")
	}
	return mode, bootstrap, nil
}

// allowsEntries reports whether a cluster in authentication mode can have access entries.
func allowsEntries(mode types.AuthenticationMode) bool {
	return mode == types.AuthenticationModeApi || mode == types.AuthenticationModeApiAndConfigMap
}

// entriesAllowed returns the error EKS answers an access entry request on a cluster whose
// authentication mode, as it is now (not as an update in progress will leave it), has none.
func (c *cluster) entriesAllowed() error {
	if !allowsEntries(c.cfg.AccessConfig.AuthenticationMode) {
		return invalidRequest("The cluster's authentication mode must be set to one of [API, API_AND_CONFIG_MAP] to perform this operation.")
	}
	return nil
}

// bootstrapEntry gives the cluster's creator, when the cluster was created with
// bootstrapClusterCreatorAdminPermissions, a STANDARD access entry with
// AmazonEKSClusterAdminPolicy on the whole cluster, created at when: at creation in a mode with
// access entries, or when an update first enables them (Amazon EKS User Guide, Manage access
// entries). It does nothing when the creator has an entry already.
func (c *cluster) bootstrapEntry(scope core.Scope, when time.Time) {
	if !c.bootstrap || c.entries[c.creator] != nil {
		return
	}
	p, ok := parsePrincipal(c.creator)
	if !ok {
		return
	}
	e := newAccessEntry(scope, c.name, p, when, "", types.AccessEntry{})
	e.policies[clusterAdminPolicy] = types.AssociatedAccessPolicy{PolicyArn: aws.String(clusterAdminPolicy),
		AccessScope: &types.AccessScope{Type: types.AccessScopeTypeCluster, Namespaces: []string{}}, AssociatedAt: aws.Time(when), ModifiedAt: aws.Time(when)}
	c.entries[c.creator] = e
}

// accessUpdate changes the cluster's authentication mode, only up authModeOrder, and once the
// update ends, gives the creator its admin access entry if the cluster had none before.
func (c *cluster) accessUpdate(call *core.Call, mode types.AuthenticationMode) (*clusterUpdate, error) {
	cur := c.cfg.AccessConfig.AuthenticationMode
	to, ok := authModeOrder[mode]
	if !ok {
		return nil, invalidParameter("Invalid authenticationMode %s", mode)
	}
	if to <= authModeOrder[cur] {
		return nil, invalidParameter("Unsupported authentication mode update from %s to %s.", cur, mode)
	}
	scope, ends := call.Scope(), call.Now.Add(call.Transition)
	return &clusterUpdate{params: []types.UpdateParam{param(types.UpdateParamTypeAuthenticationMode, string(mode))}, apply: func() {
		c.cfg.AccessConfig = &types.AccessConfigResponse{AuthenticationMode: mode}
		c.bootstrapEntry(scope, ends)
	}}, nil
}

// accessPolicyPrefix starts the ARN of every access policy.
const accessPolicyPrefix = "arn:aws:eks::aws:cluster-access-policy/"

// accessPolicies are the names of the access policies ListAccessPolicies answers, sorted (Amazon
// EKS User Guide, Access policy permissions).
var accessPolicies = []string{
	"AmazonEKSAdminPolicy", "AmazonEKSAdminViewPolicy", "AmazonEKSAutoNodePolicy", "AmazonEKSBlockStoragePolicy",
	"AmazonEKSClusterAdminPolicy", "AmazonEKSComputePolicy", "AmazonEKSEditPolicy", "AmazonEKSHybridPolicy",
	"AmazonEKSLoadBalancingPolicy", "AmazonEKSNetworkingPolicy", "AmazonEKSViewPolicy", "AmazonEMRJobPolicy",
}

// knownPolicy reports whether arn is the ARN of an access policy.
func knownPolicy(arn string) bool {
	name, ok := strings.CutPrefix(arn, accessPolicyPrefix)
	return ok && slices.Contains(accessPolicies, name)
}
