package ekscluster

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// modes are the authentication modes in the only order EKS moves a cluster through them.
var modes = []types.AuthenticationMode{types.AuthenticationModeConfigMap, types.AuthenticationModeApiAndConfigMap, types.AuthenticationModeApi}

// newClusterMode is the authentication mode of a cluster created with no mode in the spec: API,
// AWS's recommendation for new clusters, which access entries need.
const newClusterMode = types.AuthenticationModeApi

// createAccessConfig returns the access configuration a new cluster is created with: the
// spec's mode (unset: API) and, when the spec sets it, whether the creator becomes a cluster
// administrator (unset leaves EKS's default, true).
func createAccessConfig(a *v1alpha1.EKSAccessConfig) *types.CreateAccessConfigRequest {
	out := &types.CreateAccessConfigRequest{AuthenticationMode: newClusterMode}
	if a == nil {
		return out
	}
	if a.AuthenticationMode != "" {
		out.AuthenticationMode = types.AuthenticationMode(a.AuthenticationMode)
	}
	out.BootstrapClusterCreatorAdminPermissions = a.BootstrapClusterCreatorAdminPermissions
	return out
}

// authenticationMode returns the cluster's authentication mode; a cluster that reports none
// authenticates through the aws-auth ConfigMap, as clusters did before access entries.
func authenticationMode(c *types.Cluster) types.AuthenticationMode {
	if c.AccessConfig == nil || c.AccessConfig.AuthenticationMode == "" {
		return types.AuthenticationModeConfigMap
	}
	return c.AccessConfig.AuthenticationMode
}

// specMode returns the authentication mode the spec asks for, "" when it leaves the mode as it
// is.
func specMode(o *v1alpha1.EKSCluster) types.AuthenticationMode {
	if o.Spec.AccessConfig == nil {
		return ""
	}
	return types.AuthenticationMode(o.Spec.AccessConfig.AuthenticationMode)
}

// modeReachable refuses a cluster whose authentication mode is later than the spec's (an
// adopted cluster, or one switched outside the operator): EKS never moves a mode back.
func modeReachable(o *v1alpha1.EKSCluster, c *types.Cluster) error {
	want, have := specMode(o), authenticationMode(c)
	if want == "" || slices.Index(modes, have) <= slices.Index(modes, want) {
		return nil
	}
	name := aws.ToString(c.Name)
	return managed.Terminal(condition.ReasonInvalidSpec, "EKS cluster %s authenticates with %s, later than the spec's %s, and EKS never moves the "+
		"authentication mode back: set spec.accessConfig.authenticationMode to %s, or remove it", name, have, want, have)
}

// accessConfig returns the update that moves the cluster's authentication mode one step
// forward toward the spec's (CONFIG_MAP to API takes two updates, through API_AND_CONFIG_MAP, as
// EKS documents the path), or nil; the plan shows the cluster's mode and the spec's. A mode the
// spec leaves unset is left as it is, and one later than the spec's is a conflict (see
// modeReachable).
func (p *planner) accessConfig(c *types.Cluster, name string) *clusterUpdate {
	want, have := specMode(p.o), authenticationMode(c)
	at := slices.Index(modes, have)
	if want == "" || at >= slices.Index(modes, want) {
		return nil
	}
	const field = "accessConfig.authenticationMode"
	next := modes[at+1]
	return p.config([]string{field}, map[string]managed.Values{field: managed.ValuesOf(have, want)},
		&eks.UpdateClusterConfigInput{Name: aws.String(name), AccessConfig: &types.UpdateAccessConfigRequest{AuthenticationMode: next}})
}
