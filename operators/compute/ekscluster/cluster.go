package ekscluster

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// everywhere is the public access EKS gives when no CIDR block is named.
var everywhere = []string{"0.0.0.0/0"}

// clusterUpdate is one update of the cluster: the fields it changes and its request.
type clusterUpdate struct {
	// fields name the spec fields the update changes, for events.
	fields []string
	// values are the fields' values, AWS's and the spec's, as the plan shows them.
	values map[string]managed.Values
	// apply makes the update.
	apply func(ctx context.Context) error
}

// planCluster plans the first of the cluster's own updates that differs from the spec, in
// this order: logging, endpoint access, subnets and security groups, secrets encryption, the
// authentication mode (one step forward), and the Kubernetes version (one minor version up,
// once every node group runs the control plane's version and none is being changed). EKS
// takes one update of a cluster at a time and one kind of change per UpdateClusterConfig, so
// the next one is planned by a later observation, once the cluster is ACTIVE again.
func (p *planner) planCluster() {
	c, name := p.state.Cluster, aws.ToString(p.state.Cluster.Name)
	for _, next := range []func(*types.Cluster, string) *clusterUpdate{p.logging, p.endpointAccess, p.network, p.encryption, p.accessConfig, p.version} {
		if u := next(c, name); u != nil {
			p.obs.Changes.AddFieldValues(u.fields, u.values, u.apply)
			return
		}
	}
}

// config returns the update that sends in, named by fields and shown with values, with
// UpdateClusterConfig.
func (p *planner) config(fields []string, values map[string]managed.Values, in *eks.UpdateClusterConfigInput) *clusterUpdate {
	return &clusterUpdate{fields: fields, values: values, apply: func(ctx context.Context) error {
		_, err := p.d.api.UpdateClusterConfig(ctx, in)
		return managed.Wrap(err, "update %s of EKS cluster %s", strings.Join(fields, ", "), aws.ToString(in.Name))
	}}
}

// logging returns the update that enables exactly the spec's log types, or nil.
func (p *planner) logging(c *types.Cluster, name string) *clusterUpdate {
	var enabled []string
	if c.Logging != nil {
		for _, s := range c.Logging.ClusterLogging {
			if aws.ToBool(s.Enabled) {
				for _, t := range s.Types {
					enabled = append(enabled, string(t))
				}
			}
		}
	}
	if managed.SameSet(enabled, p.o.Spec.Logging) {
		return nil
	}
	values := map[string]managed.Values{"logging": managed.ValuesOf(sortedSet(enabled), sortedSet(p.o.Spec.Logging))}
	return p.config([]string{"logging"}, values, &eks.UpdateClusterConfigInput{Name: aws.String(name), Logging: logging(p.o.Spec.Logging)})
}

// logging returns the logging configuration that enables the types on and disables the
// others.
func logging(on []string) *types.Logging {
	var enabled, disabled []types.LogType
	for _, t := range types.LogType("").Values() {
		if slices.Contains(on, string(t)) {
			enabled = append(enabled, t)
		} else {
			disabled = append(disabled, t)
		}
	}
	out := &types.Logging{}
	if len(enabled) > 0 {
		out.ClusterLogging = append(out.ClusterLogging, types.LogSetup{Enabled: aws.Bool(true), Types: enabled})
	}
	if len(disabled) > 0 {
		out.ClusterLogging = append(out.ClusterLogging, types.LogSetup{Enabled: aws.Bool(false), Types: disabled})
	}
	return out
}

// endpointAccess returns the update that gives the API server endpoint the spec's public and
// private access and, with public access, the spec's CIDR blocks, or nil.
func (p *planner) endpointAccess(c *types.Cluster, name string) *clusterUpdate {
	v, want := c.ResourcesVpcConfig, &p.o.Spec.ResourcesVPCConfig
	public, private, cidrs := publicAccess(want), aws.ToBool(want.EndpointPrivateAccess), publicCIDRs(want)
	if v != nil && v.EndpointPublicAccess == public && v.EndpointPrivateAccess == private && (!public || managed.SameSet(v.PublicAccessCidrs, cidrs)) {
		return nil
	}
	in := &types.VpcConfigRequest{EndpointPublicAccess: aws.Bool(public), EndpointPrivateAccess: aws.Bool(private)}
	if v == nil {
		v = &types.VpcConfigResponse{}
	}
	values := map[string]managed.Values{
		"resourcesVPCConfig.endpointPublicAccess":  managed.ValuesOf(v.EndpointPublicAccess, public),
		"resourcesVPCConfig.endpointPrivateAccess": managed.ValuesOf(v.EndpointPrivateAccess, private),
	}
	if public {
		in.PublicAccessCidrs = cidrs
		// The blocks are compared, and so shown, only for a public endpoint.
		values["resourcesVPCConfig.publicAccessCIDRs"] = managed.ValuesOf(sortedSet(v.PublicAccessCidrs), sortedSet(cidrs))
	}
	return p.config([]string{"resourcesVPCConfig.endpointPublicAccess", "resourcesVPCConfig.endpointPrivateAccess", "resourcesVPCConfig.publicAccessCIDRs"}, values,
		&eks.UpdateClusterConfigInput{Name: aws.String(name), ResourcesVpcConfig: in})
}

// sortedSet is how a plan shows a set of names or ids: sorted, without repeats, and [] for
// none.
func sortedSet(s []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(append([]string{}, s...))))
}

// publicAccess returns whether the spec opens the endpoint to the internet: unset is true.
func publicAccess(v *v1alpha1.EKSVPCConfig) bool {
	return v.EndpointPublicAccess == nil || *v.EndpointPublicAccess
}

// publicCIDRs returns the blocks the spec lets reach the public endpoint: 0.0.0.0/0 unless it
// names some.
func publicCIDRs(v *v1alpha1.EKSVPCConfig) []string {
	if len(v.PublicAccessCIDRs) == 0 {
		return everywhere
	}
	return v.PublicAccessCIDRs
}

// network returns the update that gives the cluster the spec's subnets and, when the spec
// names some, security groups, or nil. EKS keeps a cluster in its VPC: subnets of another VPC
// are refused by AWS.
func (p *planner) network(c *types.Cluster, name string) *clusterUpdate {
	v, want := c.ResourcesVpcConfig, &p.o.Spec.ResourcesVPCConfig
	if v == nil {
		return nil
	}
	in := &types.VpcConfigRequest{}
	var fields []string
	values := map[string]managed.Values{}
	if !managed.SameSet(v.SubnetIds, want.SubnetIDs) {
		in.SubnetIds, fields = want.SubnetIDs, append(fields, "resourcesVPCConfig.subnetIDs")
		values["resourcesVPCConfig.subnetIDs"] = managed.ValuesOf(sortedSet(v.SubnetIds), sortedSet(want.SubnetIDs))
	}
	if len(want.SecurityGroupIDs) > 0 && !managed.SameSet(v.SecurityGroupIds, want.SecurityGroupIDs) {
		in.SecurityGroupIds, fields = want.SecurityGroupIDs, append(fields, "resourcesVPCConfig.securityGroupIDs")
		values["resourcesVPCConfig.securityGroupIDs"] = managed.ValuesOf(sortedSet(v.SecurityGroupIds), sortedSet(want.SecurityGroupIDs))
	}
	if len(fields) == 0 {
		return nil
	}
	return p.config(fields, values, &eks.UpdateClusterConfigInput{Name: aws.String(name), ResourcesVpcConfig: in})
}

// encryption returns the update that encrypts the cluster's secrets with the spec's key when
// the cluster encrypts none, or nil. A cluster encrypted with another key is a conflict (see
// clusterCreatedAsSpecified).
func (p *planner) encryption(c *types.Cluster, name string) *clusterUpdate {
	want := p.o.Spec.Encryption
	if want == nil || encryptionKey(c) != "" {
		return nil
	}
	values := map[string]managed.Values{"encryption": managed.ValuesOf("", want.KMSKeyARN)}
	return &clusterUpdate{fields: []string{"encryption"}, values: values, apply: func(ctx context.Context) error {
		_, err := p.d.api.AssociateEncryptionConfig(ctx, &eks.AssociateEncryptionConfigInput{ClusterName: aws.String(name),
			EncryptionConfig: encryptionConfig(want)})
		return managed.Wrap(err, "encrypt the secrets of EKS cluster %s with %s", name, want.KMSKeyARN)
	}}
}

// encryptionConfig returns the configuration that encrypts secrets with the spec's key, or nil.
func encryptionConfig(e *v1alpha1.EKSEncryption) []types.EncryptionConfig {
	if e == nil {
		return nil
	}
	return []types.EncryptionConfig{{Provider: &types.Provider{KeyArn: aws.String(e.KMSKeyARN)}, Resources: []string{"secrets"}}}
}

// version returns the upgrade of the control plane to the next minor version when the spec's
// is newer, or nil; the plan shows the running version and the spec's. It waits (nil) while a node group or add-on is not settled: EKS upgrades
// the control plane only with the nodes on its version.
func (p *planner) version(c *types.Cluster, name string) *clusterUpdate {
	running := aws.ToString(c.Version)
	if minor(running) >= minor(p.o.Spec.Version) || !p.membersSettled {
		return nil
	}
	next := "1." + strconv.Itoa(minor(running)+1)
	values := map[string]managed.Values{"version": managed.ValuesOf(running, p.o.Spec.Version)}
	return &clusterUpdate{fields: []string{"version"}, values: values, apply: func(ctx context.Context) error {
		_, err := p.d.api.UpdateClusterVersion(ctx, &eks.UpdateClusterVersionInput{Name: aws.String(name), Version: aws.String(next)})
		return managed.Wrap(err, "upgrade EKS cluster %s from Kubernetes %s to %s", name, running, next)
	}}
}
