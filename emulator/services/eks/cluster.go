package eks

import (
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxClusterName is the longest cluster name EKS accepts.
const maxClusterName = 100

// cluster is one EKS cluster. Its settings are replaced, never changed in place, so that a
// response being encoded never sees a later change.
type cluster struct {
	lifecycle
	name, arn, token     string
	cfg                  types.Cluster // as described, but for status, endpoint, certificate authority, identity and tags
	logs                 map[types.LogType]bool
	endpoint, ca, issuer string
	nodegroups           map[string]*nodegroup
	addons               map[string]*addon
	creator              string                  // the IAM principal that created the cluster
	bootstrap            bool                    // whether the creator gets an admin access entry
	entries              map[string]*accessEntry // by principal ARN
	pods                 map[string]*podIdentity // pod identity associations, by id
}

// status returns the cluster's status at now.
func (c *cluster) status(now time.Time) types.ClusterStatus {
	return named(c.phase(now), types.ClusterStatusCreating, types.ClusterStatusUpdating, types.ClusterStatusDeleting, types.ClusterStatusActive)
}

// lookup returns the cluster named name, settled at now, or nil when there is none or its
// deletion has ended, when it forgets the cluster and its tags. The caller holds the backend's
// mutex.
func (r *region) lookup(name string, now time.Time) *cluster {
	return live(r.clusters, name, now, func(c *cluster) {
		r.tags.Delete(c.arn)
		for _, g := range c.nodegroups {
			r.tags.Delete(aws.ToString(g.cfg.NodegroupArn))
		}
		for _, a := range c.addons {
			r.tags.Delete(aws.ToString(a.cfg.AddonArn))
		}
		for _, e := range c.entries {
			r.tags.Delete(aws.ToString(e.cfg.AccessEntryArn))
		}
		for _, p := range c.pods {
			r.tags.Delete(aws.ToString(p.cfg.AssociationArn))
		}
	})
}

// cluster returns the cluster a request names in param, or the error EKS answers.
func (r *region) cluster(param, name string, now time.Time) (*cluster, error) {
	if err := checkName(param, name, maxClusterName); err != nil {
		return nil, err
	}
	return present(r.lookup(name, now), clusterNotFound(name))
}

// describe returns the cluster as DescribeCluster shows it at now: its endpoint, certificate
// authority and OIDC issuer only once it has been created.
func (r *region) describe(c *cluster, now time.Time) *types.Cluster {
	out := c.cfg
	out.Status = c.status(now)
	out.Tags = r.tags.Map(c.arn)
	out.Health = &types.ClusterHealth{Issues: []types.ClusterIssue{}}
	if c.provisioned(now) {
		out.Endpoint = aws.String(c.endpoint)
		out.CertificateAuthority = &types.Certificate{Data: aws.String(c.ca)}
		out.Identity = &types.Identity{Oidc: &types.OIDC{Issuer: aws.String(c.issuer)}}
	}
	return &out
}

func (b *Backend) createCluster(call *core.Call, in *eks.CreateClusterInput) (*eks.CreateClusterOutput, error) {
	name := aws.ToString(in.Name)
	if err := checkName("name", name, maxClusterName); err != nil {
		return nil, err
	}
	return core.Locked(b.state, call, func(r *region) (*eks.CreateClusterOutput, error) {
		if c := r.lookup(name, call.Now); c != nil {
			if c.token != "" && c.token == aws.ToString(in.ClientRequestToken) {
				return &eks.CreateClusterOutput{Cluster: r.created(c, call.Now)}, nil
			}
			return nil, inUse("Cluster already exists with name: %s", name)
		}
		c, err := b.newCluster(call, name, in)
		if err != nil {
			return nil, err
		}
		if err := r.tags.Merge(in.Tags, c.arn); err != nil {
			return nil, asInvalidParameter(err)
		}
		r.clusters[name] = c
		return &eks.CreateClusterOutput{Cluster: r.created(c, call.Now)}, nil
	})
}

// created returns the cluster as CreateCluster answers it: as DescribeCluster shows it, with
// the bootstrapClusterCreatorAdminPermissions of the request, which only CreateCluster's answer
// carries (AWS's DescribeCluster leaves it out).
func (r *region) created(c *cluster, now time.Time) *types.Cluster {
	out := r.describe(c, now)
	out.AccessConfig = &types.AccessConfigResponse{AuthenticationMode: c.cfg.AccessConfig.AuthenticationMode,
		BootstrapClusterCreatorAdminPermissions: aws.Bool(c.bootstrap)}
	return out
}

// newCluster validates a CreateCluster request as AWS does and returns the new cluster.
func (b *Backend) newCluster(call *core.Call, name string, in *eks.CreateClusterInput) (*cluster, error) {
	if err := unsupportedCreate(in); err != nil {
		return nil, err
	}
	if err := checkRole(aws.ToString(in.RoleArn)); err != nil {
		return nil, err
	}
	version := aws.ToString(in.Version)
	if version == "" {
		version = defaultVersion
	}
	if !supported(version) {
		return nil, invalidParameter("unsupported Kubernetes version %s", version)
	}
	scope := call.Scope()
	vpc, err := b.vpcConfig(scope, name, in.ResourcesVpcConfig)
	if err != nil {
		return nil, err
	}
	logs, err := enabledLogs(in.Logging, nil)
	if err != nil {
		return nil, err
	}
	if err := checkEncryption(scope, in.EncryptionConfig); err != nil {
		return nil, err
	}
	network, err := networkConfig(in.KubernetesNetworkConfig)
	if err != nil {
		return nil, err
	}
	mode, bootstrap, err := accessConfig(in.AccessConfig)
	if err != nil {
		return nil, err
	}
	policy, err := upgradePolicy(in.UpgradePolicy)
	if err != nil {
		return nil, err
	}
	id := endpointID()
	c := &cluster{
		lifecycle: lifecycle{readyAt: call.Now.Add(call.Transition)},
		name:      name, arn: scope.ARN("eks", "cluster/"+name), token: aws.ToString(in.ClientRequestToken), logs: logs,
		endpoint: endpointURL(scope, id), ca: certificateAuthority(call.Now), issuer: issuerURL(scope, id),
		nodegroups: map[string]*nodegroup{}, addons: map[string]*addon{},
		creator: b.callers.Principal(call), bootstrap: bootstrap, entries: map[string]*accessEntry{}, pods: map[string]*podIdentity{},
	}
	c.cfg = types.Cluster{
		Name: aws.String(name), Arn: aws.String(c.arn), CreatedAt: aws.Time(call.Now), Version: aws.String(version),
		PlatformVersion: aws.String(platformVersion(version)), RoleArn: in.RoleArn, ResourcesVpcConfig: vpc,
		KubernetesNetworkConfig: network, Logging: loggingView(logs), EncryptionConfig: slices.Clone(in.EncryptionConfig),
		AccessConfig: &types.AccessConfigResponse{AuthenticationMode: mode}, UpgradePolicy: policy, ClientRequestToken: in.ClientRequestToken,
	}
	if allowsEntries(mode) {
		c.bootstrapEntry(scope, call.Now)
	}
	return c, nil
}

func (b *Backend) describeCluster(call *core.Call, in *eks.DescribeClusterInput) (*eks.DescribeClusterOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*eks.DescribeClusterOutput, error) {
		c, err := r.cluster("name", aws.ToString(in.Name), call.Now)
		if err != nil {
			return nil, err
		}
		return &eks.DescribeClusterOutput{Cluster: r.describe(c, call.Now)}, nil
	})
}

// listClusters answers ListClusters with a page of the names of the region's clusters.
func (b *Backend) listClusters(call *core.Call, in *eks.ListClustersInput) (*eks.ListClustersOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*eks.ListClustersOutput, error) {
		names, next, err := page(liveNames(r.clusters, func(n string) bool { return r.lookup(n, call.Now) != nil }), in.NextToken, in.MaxResults)
		return &eks.ListClustersOutput{Clusters: names, NextToken: next}, err
	})
}

func (b *Backend) deleteCluster(call *core.Call, in *eks.DeleteClusterInput) (*eks.DeleteClusterOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*eks.DeleteClusterOutput, error) {
		c, err := r.cluster("name", aws.ToString(in.Name), call.Now)
		if err != nil {
			return nil, err
		}
		if len(liveNames(c.nodegroups, func(n string) bool { return c.nodegroup(r, n, call.Now) != nil })) > 0 {
			return nil, inUse("Cluster has nodegroups attached")
		}
		if c.phase(call.Now) == phaseUpdating {
			return nil, inUse("Cannot delete because cluster %s currently has an update in progress", c.name)
		}
		c.startDelete(call)
		for _, a := range c.addons {
			a.startDelete(call)
		}
		return &eks.DeleteClusterOutput{Cluster: r.describe(c, call.Now)}, nil
	})
}
