package eks

import (
	"maps"
	"regexp"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// Limits of managed node groups (Amazon EKS API Reference, CreateNodegroup; Amazon EKS User
// Guide, service quotas).
const (
	maxNodegroupName = 63
	maxNodes         = 450
	maxTaints        = 50
	maxLabelLength   = 63
	defaultDiskSize  = 20
)

// nodegroup is one managed node group.
type nodegroup = member[types.Nodegroup]

// nodegroupStatus returns the node group's status at now.
func nodegroupStatus(g *nodegroup, now time.Time) types.NodegroupStatus {
	return named(g.phase(now), types.NodegroupStatusCreating, types.NodegroupStatusUpdating, types.NodegroupStatusDeleting, types.NodegroupStatusActive)
}

// nodegroup returns the cluster's node group named name, settled at now, or nil when there is
// none or its deletion has ended, when it forgets the node group and its tags. The caller holds
// the backend's mutex.
func (c *cluster) nodegroup(r *region, name string, now time.Time) *nodegroup {
	return live(c.nodegroups, name, now, func(g *nodegroup) { r.tags.Delete(aws.ToString(g.cfg.NodegroupArn)) })
}

// lookupNodegroup returns the node group a request names, or the error EKS answers.
func (c *cluster) lookupNodegroup(r *region, name string, now time.Time) (*nodegroup, error) {
	if err := checkName("nodegroupName", name, maxNodegroupName); err != nil {
		return nil, err
	}
	return present(c.nodegroup(r, name, now), nodegroupNotFound(name))
}

// describeNodegroup returns the node group as DescribeNodegroup shows it at now.
func (r *region) describeNodegroup(g *nodegroup, now time.Time) *types.Nodegroup {
	out := g.cfg
	out.Status = nodegroupStatus(g, now)
	out.Tags = r.tags.Map(aws.ToString(g.cfg.NodegroupArn))
	out.Health = &types.NodegroupHealth{Issues: []types.Issue{}}
	return &out
}

func (b *Backend) createNodegroup(call *core.Call, in *eks.CreateNodegroupInput) (*eks.CreateNodegroupOutput, error) {
	name := aws.ToString(in.NodegroupName)
	if err := checkName("nodegroupName", name, maxNodegroupName); err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*eks.CreateNodegroupOutput, error) {
		c, err := r.cluster("clusterName", aws.ToString(in.ClusterName), call.Now)
		if err != nil {
			return nil, err
		}
		if g := c.nodegroup(r, name, call.Now); g != nil {
			if g.token != "" && g.token == aws.ToString(in.ClientRequestToken) {
				return &eks.CreateNodegroupOutput{Nodegroup: r.describeNodegroup(g, call.Now)}, nil
			}
			return nil, inUse("NodeGroup already exists with name %s and cluster name %s", name, c.name)
		}
		if c.phase(call.Now) != phaseActive {
			return nil, notActive(c.name)
		}
		g, err := b.newNodegroup(call, c, name, in)
		if err != nil {
			return nil, err
		}
		if err := r.tags.Merge(in.Tags, aws.ToString(g.cfg.NodegroupArn)); err != nil {
			return nil, asInvalidParameter(err)
		}
		c.nodegroups[name] = g
		return &eks.CreateNodegroupOutput{Nodegroup: r.describeNodegroup(g, call.Now)}, nil
	})
}

// newNodegroup validates a CreateNodegroup request as AWS does and returns the new node group.
func (b *Backend) newNodegroup(call *core.Call, c *cluster, name string, in *eks.CreateNodegroupInput) (*nodegroup, error) {
	if err := unsupported(map[string]bool{"warmPoolConfig": in.WarmPoolConfig != nil,
		"nodeRepairConfig": in.NodeRepairConfig != nil && aws.ToBool(in.NodeRepairConfig.Enabled)}); err != nil {
		return nil, err
	}
	if err := checkRole(aws.ToString(in.NodeRole)); err != nil {
		return nil, err
	}
	if err := b.nodegroupSubnets(call.Scope(), c, in.Subnets); err != nil {
		return nil, err
	}
	scaling := &types.NodegroupScalingConfig{MinSize: aws.Int32(1), MaxSize: aws.Int32(2), DesiredSize: aws.Int32(2)}
	if s := in.ScalingConfig; s != nil {
		scaling = &types.NodegroupScalingConfig{MinSize: orDefault(s.MinSize, 1), MaxSize: orDefault(s.MaxSize, 2), DesiredSize: orDefault(s.DesiredSize, 2)}
	}
	if err := checkScaling(scaling, false); err != nil {
		return nil, err
	}
	version, release, err := nodeVersion(aws.ToString(c.cfg.Version), aws.ToString(in.Version), aws.ToString(in.ReleaseVersion), "")
	if err != nil {
		return nil, err
	}
	settings, err := nodeSettings(in, version)
	if err != nil {
		return nil, err
	}
	if err := checkLabels(in.Labels); err != nil {
		return nil, err
	}
	if err := checkTaints(in.Taints); err != nil {
		return nil, err
	}
	update, err := updateConfig(in.UpdateConfig, &types.NodegroupUpdateConfig{MaxUnavailable: aws.Int32(1)}, *scaling.MaxSize)
	if err != nil {
		return nil, err
	}
	id := core.NewUUID()
	settings.NodegroupName, settings.ClusterName = aws.String(name), aws.String(c.name)
	settings.NodegroupArn = aws.String(call.Scope().ARN("eks", "nodegroup/"+c.name+"/"+name+"/"+id))
	settings.Version, settings.ReleaseVersion = aws.String(version), aws.String(release)
	settings.CreatedAt, settings.ModifiedAt = aws.Time(call.Now), aws.Time(call.Now)
	settings.ScalingConfig, settings.Subnets, settings.NodeRole = scaling, slices.Clone(in.Subnets), in.NodeRole
	settings.Labels, settings.Taints, settings.UpdateConfig = maps.Clone(in.Labels), slices.Clone(in.Taints), update
	if settings.Labels == nil {
		settings.Labels = map[string]string{}
	}
	settings.Resources = &types.NodegroupResources{AutoScalingGroups: []types.AutoScalingGroup{{Name: aws.String("eks-" + name + "-" + id)}}}
	return &nodegroup{lifecycle: lifecycle{readyAt: call.Now.Add(call.Transition)}, token: aws.ToString(in.ClientRequestToken), cfg: settings}, nil
}

// nodegroupSubnets checks a node group's subnets: at least one, all in the cluster's VPC.
func (b *Backend) nodegroupSubnets(scope core.Scope, c *cluster, subnets []string) error {
	if len(subnets) == 0 {
		return invalidParameter("Subnets are required")
	}
	vpc, _, err := b.subnetsVPC(scope, subnets)
	if err != nil {
		return err
	}
	if want := aws.ToString(c.cfg.ResourcesVpcConfig.VpcId); vpc != want {
		return invalidParameter("Subnets are not in the VPC of the cluster, %s", want)
	}
	return nil
}

// instanceType matches EC2 instance type names (t3.medium, m7g.2xlarge).
var instanceType = regexp.MustCompile(`^[a-z][a-z0-9-]*\.[a-z0-9]+$`)

// nodeSettings validates the node settings of a CreateNodegroup request (AMI type, capacity
// type, instance types, disk size, launch template and remote access) and returns them with
// EKS's defaults.
func nodeSettings(in *eks.CreateNodegroupInput, version string) (types.Nodegroup, error) {
	out := types.Nodegroup{AmiType: in.AmiType, CapacityType: in.CapacityType, InstanceTypes: slices.Clone(in.InstanceTypes),
		DiskSize: in.DiskSize, LaunchTemplate: in.LaunchTemplate, RemoteAccess: in.RemoteAccess}
	if out.AmiType == "" {
		out.AmiType = types.AMITypesAl2023X8664Standard
	}
	if !slices.Contains(out.AmiType.Values(), out.AmiType) {
		return out, invalidParameter("Invalid amiType %s", out.AmiType)
	}
	if slices.Contains([]types.AMITypes{types.AMITypesAl2X8664, types.AMITypesAl2X8664Gpu, types.AMITypesAl2Arm64}, out.AmiType) && minor(version) >= 33 {
		return out, invalidParameter("AMI Type %s is only supported for kubernetes versions 1.32 or earlier", out.AmiType)
	}
	if out.CapacityType == "" {
		out.CapacityType = types.CapacityTypesOnDemand
	}
	if !slices.Contains(out.CapacityType.Values(), out.CapacityType) {
		return out, invalidParameter("Invalid capacityType %s", out.CapacityType)
	}
	for _, t := range out.InstanceTypes {
		if !instanceType.MatchString(t) {
			return out, invalidParameter("Invalid instance type: %s", t)
		}
	}
	if in.LaunchTemplate != nil {
		if in.DiskSize != nil {
			return out, invalidParameter("Disk size must be specified within the launch template.")
		}
		if in.RemoteAccess != nil {
			return out, invalidParameter("Remote access configuration cannot be specified with a launch template.")
		}
		return out, nil
	}
	if len(out.InstanceTypes) == 0 {
		out.InstanceTypes = []string{"t3.medium"}
	}
	if out.DiskSize == nil {
		out.DiskSize = aws.Int32(defaultDiskSize)
	}
	if *out.DiskSize < 1 {
		return out, invalidParameter("diskSize must be at least 1")
	}
	return out, nil
}

// nodeVersion returns the Kubernetes version and AMI release a node group runs once a request
// asks for version and release (either may be empty): by default the cluster's version, or
// current (when updating), and the newest release of the version. A node group cannot be newer
// than its cluster nor go back to an older version.
func nodeVersion(clusterVersion, version, release, current string) (string, string, error) {
	if version == "" {
		version = current
	}
	if version == "" {
		version = clusterVersion
	}
	if !supported(version) {
		return "", "", invalidParameter("unsupported Kubernetes version %s", version)
	}
	if minor(version) > minor(clusterVersion) {
		return "", "", invalidParameter("Requested Nodegroup Kubernetes version %s is newer than the cluster's Kubernetes version %s", version, clusterVersion)
	}
	if current != "" && minor(version) < minor(current) {
		return "", "", invalidParameter("Requested Nodegroup Kubernetes version %s is older than the node group's Kubernetes version %s", version, current)
	}
	if release == "" {
		release = releaseVersion(version)
	}
	if release != releaseVersion(version) {
		return "", "", invalidParameter("Requested release version %s is not valid for kubernetes version %s", release, version)
	}
	return version, release, nil
}

func orDefault(v *int32, def int32) *int32 {
	if v == nil {
		return aws.Int32(def)
	}
	return aws.Int32(*v)
}

// describeNodegroup answers DescribeNodegroup with the node group a request names.
func (b *Backend) describeNodegroup(call *core.Call, in *eks.DescribeNodegroupInput) (*eks.DescribeNodegroupOutput, error) {
	return inMember(b, call, (*cluster).lookupNodegroup, in.ClusterName, in.NodegroupName, func(r *region, _ *cluster, g *nodegroup) (*eks.DescribeNodegroupOutput, error) {
		return &eks.DescribeNodegroupOutput{Nodegroup: r.describeNodegroup(g, call.Now)}, nil
	})
}

// listNodegroups answers ListNodegroups with a page of the names of the cluster's node groups.
func (b *Backend) listNodegroups(call *core.Call, in *eks.ListNodegroupsInput) (*eks.ListNodegroupsOutput, error) {
	return inCluster(b, call, in.ClusterName, func(r *region, c *cluster) (*eks.ListNodegroupsOutput, error) {
		names, next, err := page(liveNames(c.nodegroups, func(n string) bool { return c.nodegroup(r, n, call.Now) != nil }), in.NextToken, in.MaxResults)
		return &eks.ListNodegroupsOutput{Nodegroups: names, NextToken: next}, err
	})
}

// deleteNodegroup starts the deletion of the node group a request names: it is DELETING, then gone.
func (b *Backend) deleteNodegroup(call *core.Call, in *eks.DeleteNodegroupInput) (*eks.DeleteNodegroupOutput, error) {
	return inMember(b, call, (*cluster).lookupNodegroup, in.ClusterName, in.NodegroupName, func(r *region, _ *cluster, g *nodegroup) (*eks.DeleteNodegroupOutput, error) {
		g.startDelete(call)
		return &eks.DeleteNodegroupOutput{Nodegroup: r.describeNodegroup(g, call.Now)}, nil
	})
}
