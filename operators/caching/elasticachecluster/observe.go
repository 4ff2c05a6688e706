package elasticachecluster

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/caching/internal/ectags"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// ElastiCache states the driver acts on.
const (
	statusAvailable = "available"
	statusDeleting  = "deleting"
)

// State is what AWS said about a cluster.
type State struct {
	// Cluster is the standalone cache cluster, or the replication group's first member, which
	// holds the settings a group shares with its members; nil when only the owned subnet group
	// is left.
	Cluster *types.CacheCluster
	// Group is the replication group, nil for a standalone cluster.
	Group *types.ReplicationGroup
	// SubnetGroup is the cache subnet group the operator made for the cluster, nil when the
	// spec names one or AWS does not have it.
	SubnetGroup *types.CacheSubnetGroup
}

// arn returns the ARN of the resource the object stands for: the group's, else the cluster's.
func (s *State) arn() string {
	if s.Group != nil {
		return aws.ToString(s.Group.ARN)
	}
	return aws.ToString(s.Cluster.ARN)
}

// status returns ElastiCache's state of the resource: the group's, else the cluster's.
func (s *State) status() string {
	if s.Group != nil {
		return aws.ToString(s.Group.Status)
	}
	return aws.ToString(s.Cluster.CacheClusterStatus)
}

// snapshots returns the snapshot retention and window: a replication group's own (its member
// clusters need not report them), else the cluster's.
func (s *State) snapshots() (*int32, *string) {
	if g := s.Group; g != nil {
		return g.SnapshotRetentionLimit, g.SnapshotWindow
	}
	return s.Cluster.SnapshotRetentionLimit, s.Cluster.SnapshotWindow
}

// Observe reads the cluster (DescribeCacheClusters), or the replication group and its first
// member (DescribeReplicationGroups, DescribeCacheClusters), its tags, and the subnet group
// the operator made for it; fills the status and plans what differs from the spec: the tags,
// the owned subnet group's subnets and tags, then one modify call (see planModify) or a replica
// count change (see planReplicas). A cluster that is
// not available is busy and not ready. While the object is deleting, a subnet group the
// operator made is reported after the cluster is gone, so that Delete removes it.
func (d *driver) Observe(ctx context.Context, c *v1alpha1.ElastiCacheCluster, req managed.Request) (managed.Observation[State], error) {
	id := identifier(c)
	st, err := d.describe(ctx, c, id)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if owned(&c.Spec) {
		if st.SubnetGroup, err = d.subnetGroup(ctx, id); err != nil {
			return managed.Observation[State]{}, err
		}
	}
	if st.Cluster == nil {
		if req.Deleting && st.SubnetGroup != nil {
			// Only a group whose ownership tags name this object is left to delete: one of the
			// same name made by hand (untagged) is never touched.
			tags, err := ectags.Read(ctx, d.api, aws.ToString(st.SubnetGroup.ARN))
			if err != nil {
				return managed.Observation[State]{}, err
			}
			if managed.OwnedBy(c, tags) {
				return managed.Observation[State]{Exists: true, Busy: true, State: &st, Tags: tags, Message: "the cache subnet group made for the cluster is left"}, nil
			}
		}
		return managed.Observation[State]{}, nil
	}
	tags, err := ectags.Read(ctx, d.api, st.arn())
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if err := managed.Claim(c, "ElastiCache "+c.Spec.Mode(), id, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(c, &st)
	status := st.status()
	obs := managed.Observation[State]{Exists: true, State: &st, Tags: tags, Ready: status == statusAvailable, Busy: status != statusAvailable}
	if !obs.Ready {
		obs.Message = "cluster is " + status
	}
	if status == statusDeleting || req.Deleting {
		// Nothing is compared for a cluster on its way out, and a missing AUTH token Secret must
		// not hold up its deletion.
		return obs, nil
	}
	if obs.Conflict = createdAsSpecified(c, &st); obs.Conflict == nil {
		obs.Conflict = downgrade(&c.Spec, st.Cluster)
	}
	if obs.Conflict != nil {
		return obs, nil
	}
	token, err := d.authToken(ctx, c)
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if token != nil && c.Status.AuthTokenHash == "" {
		// An adopted cluster (or one whose create was interrupted before its status was
		// written) keeps its token: only a later change of the Secret is applied.
		c.Status.AuthTokenHash = token.hash
	}
	ectags.Plan(&obs.Changes, d.api, st.arn(), req.Tags, tags)
	if err := d.planSubnetGroup(ctx, &obs.Changes, c, st.SubnetGroup, req.Tags); err != nil {
		return managed.Observation[State]{}, err
	}
	d.planModify(&obs.Changes, c, &st, token)
	return obs, nil
}

// createdAsSpecified refuses a cluster whose settings that ElastiCache fixes at creation
// (engine, how it is made, encryption, the subnet group the spec names) are not the spec's: an
// adopted cluster, an id taken over, or a subnetGroupName changed while the create was under
// way.
func createdAsSpecified(c *v1alpha1.ElastiCacheCluster, st *State) error {
	s, cl := &c.Spec, st.Cluster
	id := aws.ToString(cl.CacheClusterId)
	if st.Group != nil {
		id = aws.ToString(st.Group.ReplicationGroupId)
	}
	differs := func(field, aws, spec string) error {
		return managed.Terminal(condition.ReasonInvalidSpec, "ElastiCache cluster %s has %s %q in AWS, not the spec's %q; %s is set only when a cluster is created: "+
			"create a new ElastiCacheCluster with another clusterID", id, field, aws, spec, field)
	}
	mode := v1alpha1.ModeCacheCluster
	if st.Group != nil {
		mode = v1alpha1.ModeReplicationGroup
	}
	switch {
	case mode != s.Mode():
		return differs("mode", mode, s.Mode())
	case !strings.EqualFold(aws.ToString(cl.Engine), s.Engine):
		return differs("engine", aws.ToString(cl.Engine), s.Engine)
	case aws.ToBool(cl.TransitEncryptionEnabled) != s.TransitEncryptionEnabled:
		return differs("transitEncryptionEnabled", fmt.Sprint(aws.ToBool(cl.TransitEncryptionEnabled)), fmt.Sprint(s.TransitEncryptionEnabled))
	case aws.ToBool(cl.AtRestEncryptionEnabled) != s.AtRestEncryptionEnabled:
		return differs("atRestEncryptionEnabled", fmt.Sprint(aws.ToBool(cl.AtRestEncryptionEnabled)), fmt.Sprint(s.AtRestEncryptionEnabled))
	case subnetGroupName(c) != "" && !strings.EqualFold(aws.ToString(cl.CacheSubnetGroupName), subnetGroupName(c)):
		return differs("subnetGroupName", aws.ToString(cl.CacheSubnetGroupName), subnetGroupName(c))
	}
	return nil
}

// describe returns the cluster (and its replication group) as ElastiCache describes them; an
// empty State when they do not exist.
func (d *driver) describe(ctx context.Context, c *v1alpha1.ElastiCacheCluster, id string) (State, error) {
	if c.Spec.Mode() == v1alpha1.ModeCacheCluster {
		cl, err := d.cluster(ctx, id)
		return State{Cluster: cl}, err
	}
	out, err := d.api.DescribeReplicationGroups(ctx, &elasticache.DescribeReplicationGroupsInput{ReplicationGroupId: aws.String(id)})
	if awserr.IsNotFound(err) || (err == nil && len(out.ReplicationGroups) == 0) {
		// A standalone cluster under the id (made outside the operator) is a conflict, not a
		// group to create.
		cl, err := d.cluster(ctx, id)
		return State{Cluster: cl}, err
	}
	if err != nil {
		return State{}, fmt.Errorf("describe replication group %s: %w", id, err)
	}
	g := &out.ReplicationGroups[0]
	if len(g.MemberClusters) == 0 {
		return State{}, fmt.Errorf("replication group %s has no member clusters", id)
	}
	cl, err := d.cluster(ctx, g.MemberClusters[0])
	if err != nil || cl == nil {
		return State{}, err
	}
	return State{Cluster: cl, Group: g}, nil
}

// cluster returns cache cluster id with its nodes, nil when it does not exist.
func (d *driver) cluster(ctx context.Context, id string) (*types.CacheCluster, error) {
	out, err := d.api.DescribeCacheClusters(ctx, &elasticache.DescribeCacheClustersInput{CacheClusterId: aws.String(id), ShowCacheNodeInfo: aws.Bool(true)})
	if awserr.IsNotFound(err) || (err == nil && len(out.CacheClusters) == 0) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("describe cache cluster %s: %w", id, err)
	}
	return &out.CacheClusters[0], nil
}
