package elasticache

import (
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// group is one replication group with cluster mode disabled: one node group whose member
// clusters (the first the primary) share its life and configuration.
type group struct {
	id, arn, description string
	cfg                  *config
	life                 *life
	members              []string
	failover, multiAZ    bool
	created              time.Time
	host                 string
}

// settle brings the group and its members up to now and reports whether its deletion has
// finished.
func (g *group) settle(now time.Time) bool { return settle(g.life, g.cfg, now) }

// groupNotFound is AWS's answer to a replication group the region does not have.
func groupNotFound(id string) error {
	return core.NotFoundf("ReplicationGroupNotFoundFault", "Replication group %s not found.", id)
}

// invalidGroupState is AWS's answer to a change of a group that is not available.
func invalidGroupState(g *group) error {
	return core.Errorf("InvalidReplicationGroupState", "Replication group %s is not in available state: it is %s.", g.id, g.life.Status())
}

// availableGroup returns the replication group a request names, or the error for one that is
// missing or not available. The caller holds the backend's mutex.
func (r *region) availableGroup(ref *string) (*group, error) {
	g, err := r.lookupGroup(ref)
	if err != nil {
		return nil, err
	}
	if g.life.Status() != statusAvailable {
		return nil, invalidGroupState(g)
	}
	return g, nil
}

// lookupGroup returns the replication group a request names. The caller holds the backend's mutex.
func (r *region) lookupGroup(id *string) (*group, error) {
	return lookup(r.groups, id, groupNotFound)
}

// member returns a new member cluster of g, the n-th placed, sharing the group's life and
// configuration.
func (b *Backend) member(r *region, g *group, id string, primary bool, now time.Time) *cluster {
	return &cluster{id: id, arn: r.scope.ARN("elasticache", "cluster:"+id), cfg: g.cfg, life: g.life, group: g.id, primary: primary,
		created: now, host: g.host, zone: r.zoneOf(g.cfg.subnetGroup, len(g.members))}
}

// describeGroup returns the group as ElastiCache describes it; endpoints once it is created.
func (b *Backend) describeGroup(r *region, g *group) types.ReplicationGroup {
	cfg := g.cfg
	out := types.ReplicationGroup{
		ReplicationGroupId: aws.String(g.id), ARN: aws.String(g.arn), Description: aws.String(g.description), Status: aws.String(g.life.Status()),
		MemberClusters: slices.Clone(g.members), CacheNodeType: aws.String(cfg.nodeType), Engine: aws.String(cfg.engine),
		ReplicationGroupCreateTime: aws.Time(g.created), ClusterEnabled: aws.Bool(false), ClusterMode: types.ClusterModeDisabled,
		AutomaticFailover: types.AutomaticFailoverStatusDisabled, MultiAZ: types.MultiAZStatusDisabled,
		SnapshotRetentionLimit: aws.Int32(cfg.retention), SnapshotWindow: aws.String(cfg.snapshotWin),
		NetworkType: types.NetworkTypeIpv4, IpDiscovery: types.IpDiscoveryIpv4, DataTiering: types.DataTieringStatusDisabled,
		PendingModifiedValues: &types.ReplicationGroupPendingModifiedValues{}, AutoMinorVersionUpgrade: aws.Bool(true),
	}
	if g.failover {
		out.AutomaticFailover = types.AutomaticFailoverStatusEnabled
	}
	if g.multiAZ {
		out.MultiAZ = types.MultiAZStatusEnabled
	}
	core.Fill(&out, cfg.encryption())
	if cfg.kmsKey != "" {
		out.KmsKeyId = aws.String(cfg.kmsKey)
	}
	if len(g.members) > 0 {
		out.SnapshottingClusterId = aws.String(g.members[len(g.members)-1])
	}
	ng := types.NodeGroup{NodeGroupId: aws.String("0001"), Status: aws.String(g.life.Status())}
	ready := g.life.Status() != statusCreating
	if ready {
		ng.PrimaryEndpoint = endpoint(r, g.id, g.host, "ng.0001", cfg.port)
		ng.ReaderEndpoint = endpoint(r, g.id+"-ro", g.host, "ng.0001", cfg.port)
	}
	for _, id := range g.members {
		c := r.clusters[id]
		role := "replica"
		if c.primary {
			role = "primary"
		}
		m := types.NodeGroupMember{CacheClusterId: aws.String(id), CacheNodeId: aws.String("0001"), CurrentRole: aws.String(role),
			PreferredAvailabilityZone: aws.String(c.zone)}
		if ready {
			m.ReadEndpoint = endpoint(r, id, g.host, "0001", cfg.port)
		}
		ng.NodeGroupMembers = append(ng.NodeGroupMembers, m)
	}
	out.NodeGroups = []types.NodeGroup{ng}
	return out
}

// checkGroup returns the error AWS gives a replication group request with cluster mode enabled
// (not emulated), a number of clusters outside 1 to 6, automatic failover with fewer than 2
// clusters, Multi-AZ without automatic failover, or a KMS key without encryption at rest.
func checkGroup(in *elasticache.CreateReplicationGroupInput, n int32) error {
	switch {
	case in.ClusterMode == types.ClusterModeEnabled || aws.ToInt32(in.NumNodeGroups) > 1 || len(in.NodeGroupConfiguration) > 1:
		return invalidCombination("Cluster mode enabled (more than one node group) is not emulated.")
	case n < 1 || n > 6:
		return invalidValue("NumCacheClusters must be between 1 and 6, not %d.", n)
	case aws.ToBool(in.AutomaticFailoverEnabled) && n < 2:
		return invalidCombination("Automatic failover needs at least one read replica: NumCacheClusters must be 2 or more.")
	case aws.ToBool(in.MultiAZEnabled) && !aws.ToBool(in.AutomaticFailoverEnabled):
		return invalidCombination("Multi-AZ needs automatic failover to be enabled.")
	case in.KmsKeyId != nil && !aws.ToBool(in.AtRestEncryptionEnabled):
		return invalidCombination("A KMS key can only be given with encryption at rest enabled.")
	}
	return nil
}

// createReplicationGroup creates a replication group and its member clusters, <id>-001 (the
// primary) to <id>-00n.
func (b *Backend) createReplicationGroup(call *core.Call, in *elasticache.CreateReplicationGroupInput) (*elasticache.CreateReplicationGroupOutput, error) {
	id, err := checkID("ReplicationGroupId", aws.ToString(in.ReplicationGroupId), 40)
	if err != nil {
		return nil, err
	}
	if aws.ToString(in.ReplicationGroupDescription) == "" {
		return nil, invalidValue("The parameter ReplicationGroupDescription must be provided and must not be blank.")
	}
	n := aws.ToInt32(in.NumCacheClusters)
	if in.NumCacheClusters == nil {
		n = 1 + aws.ToInt32(in.ReplicasPerNodeGroup)
		if aws.ToBool(in.AutomaticFailoverEnabled) && in.ReplicasPerNodeGroup == nil {
			n = 2
		}
	}
	if err := checkGroup(in, n); err != nil {
		return nil, err
	}
	return settledTagged(b, call, in.Tags, func(r *region, tags map[string]string) (*elasticache.CreateReplicationGroupOutput, error) {
		if _, ok := r.groups[id]; ok {
			return nil, core.Errorf("ReplicationGroupAlreadyExists", "Replication group %s already exists.", id)
		}
		s, err := b.newSettings(call, r, requestOf(in))
		if err != nil {
			return nil, err
		}
		if !s.eng.persistent {
			return nil, invalidValue("Replication groups are for Redis OSS and Valkey, not %s.", s.engine)
		}
		var ids []string
		for i := range n {
			member := fmt.Sprintf("%s-%03d", id, i+1)
			if _, ok := r.clusters[member]; ok {
				return nil, core.Errorf("CacheClusterAlreadyExists", "Cache cluster %s already exists.", member)
			}
			ids = append(ids, member)
		}
		g := &group{id: id, arn: r.scope.ARN("elasticache", "replicationgroup:"+id), description: *in.ReplicationGroupDescription,
			cfg:  &config{settings: s, numNodes: 1, atRest: aws.ToBool(in.AtRestEncryptionEnabled), kmsKey: aws.ToString(in.KmsKeyId)},
			life: newLife(call.Transition), failover: aws.ToBool(in.AutomaticFailoverEnabled), multiAZ: aws.ToBool(in.MultiAZEnabled),
			created: call.Now, host: core.LowerAlnumID(6)}
		if err := b.tags.Replace(g.arn, tags); err != nil {
			return nil, err
		}
		g.life.enter(statusCreating, call.Now)
		for i, member := range ids {
			r.clusters[member] = b.member(r, g, member, i == 0, call.Now)
			g.members = append(g.members, member)
		}
		r.groups[id] = g
		return &elasticache.CreateReplicationGroupOutput{ReplicationGroup: ptr(b.describeGroup(r, g))}, nil
	})
}

// describeReplicationGroups describes one replication group, or all of them by pages.
func (b *Backend) describeReplicationGroups(call *core.Call, in *elasticache.DescribeReplicationGroupsInput) (*elasticache.DescribeReplicationGroupsOutput, error) {
	return settled(b, call, func(r *region) (*elasticache.DescribeReplicationGroupsOutput, error) {
		ids, err := selected(r.groups, in.ReplicationGroupId, groupNotFound)
		if err != nil {
			return nil, err
		}
		groups, next, err := describedPage(ids, in.Marker, in.MaxRecords, func(id string) types.ReplicationGroup { return b.describeGroup(r, r.groups[id]) })
		return &elasticache.DescribeReplicationGroupsOutput{ReplicationGroups: groups, Marker: next}, err
	})
}

// deleteReplicationGroup deletes an available group and its members, with a final snapshot when
// asked; with RetainPrimaryCluster the primary stays as a standalone cluster.
func (b *Backend) deleteReplicationGroup(call *core.Call, in *elasticache.DeleteReplicationGroupInput) (*elasticache.DeleteReplicationGroupOutput, error) {
	return settledOn(b, call, in.ReplicationGroupId, (*region).availableGroup, func(r *region, g *group) (*elasticache.DeleteReplicationGroupOutput, error) {
		if err := b.startDeletion(call, r, g.life, in.FinalSnapshotIdentifier, r.clusters[g.members[0]], g); err != nil {
			return nil, err
		}
		out := b.describeGroup(r, g)
		for _, id := range g.members {
			c := r.clusters[id]
			if aws.ToBool(in.RetainPrimaryCluster) && c.primary {
				cfg := *g.cfg
				c.cfg, c.life, c.group, c.primary = &cfg, newLife(g.life.transition), "", false
				continue
			}
			delete(r.clusters, id)
			b.tags.Delete(c.arn)
		}
		g.members = nil
		return &elasticache.DeleteReplicationGroupOutput{ReplicationGroup: &out}, nil
	})
}
