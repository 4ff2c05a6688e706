package elasticache

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// cluster is one cache cluster: standalone, or a member of a replication group whose life and
// configuration it shares.
type cluster struct {
	id, arn string
	cfg     *config
	life    *life
	// group is the replication group of a member, "" for a standalone cluster; primary is true
	// for the group's primary.
	group   string
	primary bool
	created time.Time
	// host is the random part of the cluster's endpoints (a member's is its group's).
	host string
	zone string
	// crossAZ is true for a Memcached cluster whose nodes are spread over the zones of its
	// subnet group (AZMode cross-az).
	crossAZ bool
	// rebootPending is true once a requires-reboot parameter of the cluster's parameter group
	// changed, until the cluster's nodes reboot.
	rebootPending bool
}

// settle brings a standalone cluster up to now and reports whether its deletion has finished;
// members settle with their group.
func (c *cluster) settle(now time.Time) bool {
	if c.group != "" {
		return false
	}
	return settle(c.life, c.cfg, now)
}

// endpoint returns an endpoint of the cluster's: name is the first label (the cluster's id, or
// the group's with -ro), kind the label after the random part (a node's number, cfg, ng.0001).
func endpoint(r *region, name, host, kind string, port int32) *types.Endpoint {
	return &types.Endpoint{Address: aws.String(fmt.Sprintf("%s.%s.%s.%s.cache.amazonaws.com", name, host, kind, regionCode(r.scope.Region))), Port: aws.Int32(port)}
}

// parameterStatus returns how far the cluster's parameter group is applied: applying while
// the cluster is modifying after its group changed, pending-reboot while a requires-reboot change
// waits for the nodes to reboot, in-sync otherwise.
func (c *cluster) parameterStatus() string {
	switch {
	case c.cfg.applyingParams && c.life.Status() == statusModifying:
		return "applying"
	case c.rebootPending:
		return "pending-reboot"
	}
	return "in-sync"
}

// describeCluster returns the cluster as ElastiCache describes it, with its nodes when asked.
func (b *Backend) describeCluster(r *region, c *cluster, nodes bool) types.CacheCluster {
	cfg, l := c.cfg, c.life
	out := types.CacheCluster{
		CacheClusterId: aws.String(c.id), ARN: aws.String(c.arn), CacheClusterStatus: aws.String(l.Status()),
		Engine: aws.String(cfg.engine), EngineVersion: aws.String(cfg.version), CacheNodeType: aws.String(cfg.nodeType),
		NumCacheNodes: aws.Int32(cfg.numNodes), CacheClusterCreateTime: aws.Time(c.created), PreferredAvailabilityZone: aws.String(c.zone),
		PreferredMaintenanceWindow: aws.String(cfg.maintenance), PendingModifiedValues: cfg.pending.report(),
		CacheSubnetGroupName: aws.String(cfg.subnetGroup), AutoMinorVersionUpgrade: aws.Bool(true),
		CacheParameterGroup: &types.CacheParameterGroupStatus{CacheParameterGroupName: aws.String(groupOf(cfg)),
			ParameterApplyStatus: aws.String(c.parameterStatus()), CacheNodeIdsToReboot: []string{}},
		NetworkType: types.NetworkTypeIpv4, IpDiscovery: types.IpDiscoveryIpv4, CacheSecurityGroups: []types.CacheSecurityGroupMembership{},
		ClientDownloadLandingPage: aws.String("https://console.aws.amazon.com/elasticache/home#client-download:"),
	}
	core.Fill(&out, cfg.encryption())
	if c.rebootPending {
		for n := range cfg.numNodes {
			out.CacheParameterGroup.CacheNodeIdsToReboot = append(out.CacheParameterGroup.CacheNodeIdsToReboot, fmt.Sprintf("%04d", n+1))
		}
	}
	if c.group != "" {
		out.ReplicationGroupId = aws.String(c.group)
		out.ReplicationGroupLogDeliveryEnabled = aws.Bool(false)
	}
	if cfg.eng.persistent {
		out.SnapshotRetentionLimit, out.SnapshotWindow = aws.Int32(cfg.retention), aws.String(cfg.snapshotWin)
	}
	for _, id := range cfg.securityGroups {
		out.SecurityGroups = append(out.SecurityGroups, types.SecurityGroupMembership{SecurityGroupId: aws.String(id), Status: aws.String("active")})
	}
	ready := l.Status() != statusCreating
	if cfg.engine == "memcached" && ready {
		out.ConfigurationEndpoint = endpoint(r, c.id, c.host, "cfg", cfg.port)
	}
	if !nodes {
		return out
	}
	out.CacheNodes = []types.CacheNode{}
	for n := range cfg.numNodes {
		zone := c.zone
		if c.crossAZ {
			zone = r.zoneOf(cfg.subnetGroup, int(n))
		}
		node := types.CacheNode{CacheNodeId: aws.String(fmt.Sprintf("%04d", n+1)), CacheNodeCreateTime: aws.Time(c.created),
			CacheNodeStatus: aws.String(statusAvailable), CustomerAvailabilityZone: aws.String(zone), ParameterGroupStatus: aws.String(c.parameterStatus())}
		if !ready {
			node.CacheNodeStatus = aws.String(statusCreating)
		} else {
			node.Endpoint = endpoint(r, c.id, c.host, fmt.Sprintf("%04d", n+1), cfg.port)
		}
		out.CacheNodes = append(out.CacheNodes, node)
	}
	return out
}

// clusterNotFound is AWS's answer to a cluster the region does not have.
func clusterNotFound(id string) error {
	return core.NotFoundf("CacheClusterNotFound", "CacheCluster not found: %s", id)
}

// lookupCluster returns the cluster a request names. The caller holds the backend's mutex.
func (r *region) lookupCluster(id *string) (*cluster, error) {
	return lookup(r.clusters, id, clusterNotFound)
}

// zoneOf returns the availability zone of the n-th node placed in a subnet group: its subnets'
// zones in turn.
func (r *region) zoneOf(subnetGroup string, n int) string {
	g := r.subnetGroups[subnetGroup]
	if g == nil || len(g.subnets) == 0 {
		return r.scope.Region + "a"
	}
	return g.zones[g.subnets[n%len(g.subnets)]]
}

// clusterNotAvailable is the InvalidCacheClusterState of a cluster that is not available.
func clusterNotAvailable(c *cluster) error {
	return core.Errorf("InvalidCacheClusterState", "Cache cluster %s is not in available state: it is %s.", c.id, c.life.Status())
}

// checkNodes returns the error AWS gives a number of nodes: 1 for Redis OSS and Valkey outside a
// replication group, 1 to 40 for Memcached.
func checkNodes(s settings, n int32) error {
	if s.eng.persistent && n != 1 {
		return invalidValue("A %s cache cluster has exactly 1 node; create a replication group for replicas (NumCacheNodes %d).", s.engine, n)
	}
	if n < 1 || n > 40 {
		return invalidValue("NumCacheNodes must be between 1 and 40, not %d.", n)
	}
	return nil
}

// createCacheCluster creates a standalone cache cluster, or adds a read replica to a
// replication group (ReplicationGroupId), which it then takes its settings from.
func (b *Backend) createCacheCluster(call *core.Call, in *elasticache.CreateCacheClusterInput) (*elasticache.CreateCacheClusterOutput, error) {
	id, err := checkID("CacheClusterId", aws.ToString(in.CacheClusterId), 50)
	if err != nil {
		return nil, err
	}
	return settledTagged(b, call, in.Tags, func(r *region, tags map[string]string) (*elasticache.CreateCacheClusterOutput, error) {
		if _, ok := r.clusters[id]; ok {
			return nil, core.Errorf("CacheClusterAlreadyExists", "Cache cluster %s already exists.", id)
		}
		var c *cluster
		if in.ReplicationGroupId != nil {
			g, err := r.availableGroup(in.ReplicationGroupId)
			if err != nil {
				return nil, err
			}
			if len(g.members) >= 6 {
				return nil, core.Errorf("NodeQuotaForClusterExceeded", "A replication group with cluster mode disabled has at most 6 clusters.")
			}
			c = b.member(r, g, id, false, call.Now)
			g.members = append(g.members, id)
			g.cfg.numNodes = 1
		} else {
			s, err := b.newSettings(call, r, requestOf(in))
			if err != nil {
				return nil, err
			}
			n := aws.ToInt32(in.NumCacheNodes)
			if in.NumCacheNodes == nil {
				n = 1
			}
			if err := checkNodes(s, n); err != nil {
				return nil, err
			}
			if in.AZMode != "" && s.engine != "memcached" {
				return nil, invalidValue("AZMode is only supported for Memcached clusters.")
			}
			c = &cluster{id: id, arn: r.scope.ARN("elasticache", "cluster:"+id), cfg: &config{settings: s, numNodes: n},
				life: newLife(call.Transition), created: call.Now, host: core.LowerAlnumID(6), zone: r.zoneOf(s.subnetGroup, 0),
				crossAZ: in.AZMode == types.AZModeCrossAz}
			if c.crossAZ {
				c.zone = "Multiple"
			}
			c.life.enter(statusCreating, call.Now)
		}
		if err := b.tags.Replace(c.arn, tags); err != nil {
			return nil, err
		}
		r.clusters[id] = c
		return &elasticache.CreateCacheClusterOutput{CacheCluster: ptr(b.describeCluster(r, c, false))}, nil
	})
}

// describeCacheClusters describes one cluster, or all of them by pages.
func (b *Backend) describeCacheClusters(call *core.Call, in *elasticache.DescribeCacheClustersInput) (*elasticache.DescribeCacheClustersOutput, error) {
	return settled(b, call, func(r *region) (*elasticache.DescribeCacheClustersOutput, error) {
		var ids []string
		if in.CacheClusterId != nil {
			c, err := r.lookupCluster(in.CacheClusterId)
			if err != nil {
				return nil, err
			}
			ids = []string{c.id}
		} else {
			for _, id := range core.SortedKeys(r.clusters) {
				if !aws.ToBool(in.ShowCacheClustersNotInReplicationGroups) || r.clusters[id].group == "" {
					ids = append(ids, id)
				}
			}
		}
		clusters, next, err := describedPage(ids, in.Marker, in.MaxRecords, func(id string) types.CacheCluster {
			return b.describeCluster(r, r.clusters[id], aws.ToBool(in.ShowCacheNodeInfo))
		})
		return &elasticache.DescribeCacheClustersOutput{CacheClusters: clusters, Marker: next}, err
	})
}

// deleteCacheCluster deletes an available standalone cluster, with a final snapshot when asked
// (Redis OSS and Valkey): it is deleting for the transition time, then gone.
func (b *Backend) deleteCacheCluster(call *core.Call, in *elasticache.DeleteCacheClusterInput) (*elasticache.DeleteCacheClusterOutput, error) {
	return settledOn(b, call, in.CacheClusterId, (*region).lookupCluster, func(r *region, c *cluster) (*elasticache.DeleteCacheClusterOutput, error) {
		if c.group != "" {
			return nil, invalidCombination("Cache cluster %s is a member of replication group %s; delete or modify the replication group instead.", c.id, c.group)
		}
		if c.life.Status() != statusAvailable {
			return nil, core.Errorf("InvalidCacheClusterState", "Cache cluster %s is not in a valid state to be deleted: it is %s.", c.id, c.life.Status())
		}
		if err := b.startDeletion(call, r, c.life, in.FinalSnapshotIdentifier, c, nil); err != nil {
			return nil, err
		}
		return &elasticache.DeleteCacheClusterOutput{CacheCluster: ptr(b.describeCluster(r, c, false))}, nil
	})
}

// statusRebooting is the status of a cluster whose nodes reboot.
const statusRebooting = "rebooting cache cluster nodes"

// rebootCacheCluster reboots nodes of an available cluster, which applies the changes of its
// parameter group that waited for a reboot (ParameterApplyStatus in-sync). A standalone cluster
// is rebooting for its transition time; a member of a replication group shares the group's
// status, which the emulator leaves available while one member's node reboots. Every node the
// request names must be the cluster's, and at least one must be named; the cluster is in sync
// once all its nodes have rebooted in one request (the emulator keeps no per-node state).
func (b *Backend) rebootCacheCluster(call *core.Call, in *elasticache.RebootCacheClusterInput) (*elasticache.RebootCacheClusterOutput, error) {
	if len(in.CacheNodeIdsToReboot) == 0 {
		return nil, invalidValue("The parameter CacheNodeIdsToReboot must be provided and must not be empty.")
	}
	return settledOn(b, call, in.CacheClusterId, (*region).lookupCluster, func(r *region, c *cluster) (*elasticache.RebootCacheClusterOutput, error) {
		if c.life.Status() != statusAvailable {
			return nil, clusterNotAvailable(c)
		}
		nodes := map[string]bool{}
		for n := range c.cfg.numNodes {
			nodes[fmt.Sprintf("%04d", n+1)] = true
		}
		for _, id := range in.CacheNodeIdsToReboot {
			if !nodes[id] {
				return nil, invalidValue("Cache node %s does not exist in cache cluster %s.", id, c.id)
			}
		}
		if c.group == "" {
			c.life.enter(statusRebooting, call.Now)
		}
		if len(in.CacheNodeIdsToReboot) == len(nodes) {
			c.rebootPending = false
		}
		return &elasticache.RebootCacheClusterOutput{CacheCluster: ptr(b.describeCluster(r, c, false))}, nil
	})
}
