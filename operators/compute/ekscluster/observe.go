package ekscluster

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"

	"github.com/runner-codes/infra-operator/operators/compute/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// Observe reads the cluster by its name (managed.Claim decides whether a cluster found under
// the spec's name is this object's), fills the status and, once the cluster is ACTIVE, reads
// its node groups and add-ons and plans what differs from the spec (see plan).
//
// A cluster that is CREATING, UPDATING or DELETING is busy: EKS takes no change then, so
// nothing is compared and only DescribeCluster is called. A FAILED cluster is terminal. While
// the object is deleted, Observe reads the node groups and add-ons for Delete and
// ReleaseOwnership, and plans nothing.
func (d *driver) Observe(ctx context.Context, o *v1alpha1.EKSCluster, req managed.Request) (managed.Observation[State], error) {
	name := clusterName(o)
	c, err := d.describeCluster(ctx, name)
	if err != nil || c == nil {
		return managed.Observation[State]{}, err
	}
	if err := managed.Claim(o, "EKS cluster", name, c.Tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(o, c)
	obs := managed.Observation[State]{Exists: true, State: &State{Cluster: c}, Tags: c.Tags}
	status := c.Status
	switch {
	case req.Deleting:
		if status != types.ClusterStatusCreating && status != types.ClusterStatusDeleting {
			if err := d.readMembers(ctx, obs.State); err != nil {
				return managed.Observation[State]{}, err
			}
		}
		return obs, nil
	case status == types.ClusterStatusFailed:
		obs.Message = "cluster " + name + " is FAILED" + clusterIssues(c)
		obs.Conflict = managed.Terminal(condition.ReasonEKSClusterFailed, "EKS cluster %s failed%s; delete this EKSCluster to delete the cluster, "+
			"then create it again", name, clusterIssues(c))
		return obs, nil
	case status != types.ClusterStatusActive:
		obs.Busy, obs.Message, obs.Uncompared = true, "cluster "+name+" is "+string(status), []string{"cluster (" + string(status) + ")"}
		return obs, nil
	}
	if err := d.readMembers(ctx, obs.State); err != nil {
		return managed.Observation[State]{}, err
	}
	fillMemberStatus(o, obs.State)
	d.plan(&obs, o, req.Tags)
	return obs, nil
}

// describeCluster returns cluster name as DescribeCluster answers it, or nil when there is
// none.
func (d *driver) describeCluster(ctx context.Context, name string) (*types.Cluster, error) {
	out, err := d.api.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: aws.String(name)})
	if awserr.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("describe EKS cluster %s: %w", name, err)
	}
	return out.Cluster, nil
}

// fillStatus copies what the status shows of the cluster from AWS's description.
func fillStatus(o *v1alpha1.EKSCluster, c *types.Cluster) {
	s := &o.Status
	s.ClusterName, s.ARN, s.Status = aws.ToString(c.Name), aws.ToString(c.Arn), string(c.Status)
	s.Version, s.PlatformVersion, s.Endpoint = aws.ToString(c.Version), aws.ToString(c.PlatformVersion), aws.ToString(c.Endpoint)
	s.CertificateAuthorityData, s.OIDCIssuer = "", ""
	if c.CertificateAuthority != nil {
		s.CertificateAuthorityData = aws.ToString(c.CertificateAuthority.Data)
	}
	if c.Identity != nil && c.Identity.Oidc != nil {
		s.OIDCIssuer = aws.ToString(c.Identity.Oidc.Issuer)
	}
	s.AuthenticationMode = string(authenticationMode(c))
	if v := c.ResourcesVpcConfig; v != nil {
		s.ClusterSecurityGroupID, s.VPCID = aws.ToString(v.ClusterSecurityGroupId), aws.ToString(v.VpcId)
	}
}

// fillMemberStatus lists, in the status, the node groups and add-ons the spec names that
// exist, then those this object created that the spec no longer names (being deleted).
func fillMemberStatus(o *v1alpha1.EKSCluster, s *State) {
	o.Status.NodeGroups = nil
	for _, name := range memberNames(o, specNodeGroupNames(o), s.NodeGroups, func(g types.Nodegroup) map[string]string { return g.Tags }) {
		g := s.NodeGroups[name]
		st := v1alpha1.EKSNodeGroupStatus{Name: name, Status: string(g.Status), Version: aws.ToString(g.Version)}
		if g.ScalingConfig != nil {
			st.DesiredSize = aws.ToInt32(g.ScalingConfig.DesiredSize)
		}
		o.Status.NodeGroups = append(o.Status.NodeGroups, st)
	}
	o.Status.Addons = nil
	for _, name := range memberNames(o, specAddonNames(o), s.Addons, func(a types.Addon) map[string]string { return a.Tags }) {
		a := s.Addons[name]
		o.Status.Addons = append(o.Status.Addons, v1alpha1.EKSAddonStatus{Name: name, Status: string(a.Status), Version: aws.ToString(a.AddonVersion)})
	}
}

// clusterCreatedAsSpecified refuses a cluster whose settings EKS cannot change are not the
// spec's (an adopted cluster, or one whose name was taken over): its role, its encryption key,
// an authentication mode later than the spec's, and a Kubernetes version newer than the spec's.
func clusterCreatedAsSpecified(o *v1alpha1.EKSCluster, c *types.Cluster) error {
	name := aws.ToString(c.Name)
	if role := aws.ToString(c.RoleArn); role != o.Spec.RoleARN {
		return managed.Terminal(condition.ReasonInvalidSpec, "EKS cluster %s has the role %s, not the spec's %s; a cluster's role cannot change: "+
			"set spec.roleARN to %s, or create a new EKSCluster", name, role, o.Spec.RoleARN, role)
	}
	if key := encryptionKey(c); key != "" && o.Spec.Encryption != nil && !managed.SameKMSKey(o.Spec.Encryption.KMSKeyARN, key) {
		return managed.Terminal(condition.ReasonInvalidSpec, "EKS cluster %s encrypts its secrets with the KMS key %s, not the spec's %s; "+
			"the key cannot change: set spec.encryption.kmsKeyARN to %s, or create a new EKSCluster", name, key, o.Spec.Encryption.KMSKeyARN, key)
	}
	if err := modeReachable(o, c); err != nil {
		return err
	}
	if running := aws.ToString(c.Version); minor(running) > minor(o.Spec.Version) {
		return managed.Terminal(condition.ReasonInvalidSpec, "EKS cluster %s runs Kubernetes %s, newer than the spec's %s; EKS cannot downgrade a cluster: "+
			"set spec.version to %s or later", name, running, o.Spec.Version, running)
	}
	return nil
}

// encryptionKey returns the KMS key that encrypts the cluster's secrets, or "".
func encryptionKey(c *types.Cluster) string {
	for _, e := range c.EncryptionConfig {
		if e.Provider != nil {
			return aws.ToString(e.Provider.KeyArn)
		}
	}
	return ""
}
