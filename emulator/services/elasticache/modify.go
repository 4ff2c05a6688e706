package elasticache

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// modification is what ModifyCacheCluster and ModifyReplicationGroup both change.
type modification struct {
	nodeType, version, maintenance, snapshotWindow, authToken *string
	retention, numNodes                                       *int32
	securityGroups                                            []string
	authStrategy                                              types.AuthTokenUpdateStrategyType
	immediately                                               bool
	// paramGroup is the cache parameter group the request names.
	paramGroup *string
}

// modify checks a modification against the configuration and makes it: node type, engine version
// and node count changes are pending until the maintenance window unless applied immediately (then
// the resource is modifying for its transition time); windows, snapshot retention, security groups,
// the parameter group and AUTH tokens change at once, the parameter group (applying until the
// resource is available again) and the AUTH token making the resource modifying. The caller holds
// the backend's mutex.
func (b *Backend) modify(call *core.Call, r *region, cfg *config, l *life, m modification) error {
	next := cfg.settings
	if m.maintenance != nil {
		next.maintenance = strings.ToLower(*m.maintenance)
	}
	if err := next.setSnapshots(m.retention, m.snapshotWindow); err != nil {
		return err
	}
	if m.securityGroups != nil {
		if err := b.checkSecurityGroups(call, next.vpc, m.securityGroups); err != nil {
			return err
		}
		next.securityGroups = m.securityGroups
	}
	p := cfg.pending
	if m.nodeType != nil {
		if err := checkNodeType(m.nodeType); err != nil {
			return err
		}
		stage(&p.nodeType, cfg.nodeType, *m.nodeType)
	}
	if m.version != nil {
		v, err := checkVersion(cfg.engine, cfg.eng, m.version)
		if err != nil {
			return err
		}
		if older(v, cfg.version) {
			return invalidCombination("Cannot modify engine version from %s to %s: downgrading is not supported.", cfg.version, v)
		}
		stage(&p.version, cfg.version, v)
	}
	if m.numNodes != nil {
		stage(&p.numNodes, cfg.numNodes, *m.numNodes)
	}
	busy := false
	if m.paramGroup != nil {
		version := cfg.version
		if p.version != nil {
			version = *p.version
		}
		g, err := r.checkParamGroup(m.paramGroup, cfg.engine, version)
		if err != nil {
			return err
		}
		if g.name != groupOf(cfg) {
			next.paramGroup, busy = g.name, true
			cfg.applyingParams = true
		}
	}
	switch {
	case m.authToken == nil && m.authStrategy == "":
	case m.authStrategy == types.AuthTokenUpdateStrategyTypeDelete:
		if cfg.authToken == "" {
			return invalidCombination("The AUTH token cannot be deleted: none is set.")
		}
		next.authToken, next.authModified, busy = "", call.Now, true
	default:
		if m.authToken == nil {
			return invalidCombination("AuthTokenUpdateStrategy %s needs an AuthToken.", m.authStrategy)
		}
		if err := next.checkAuthToken(*m.authToken); err != nil {
			return err
		}
		next.authToken, next.authModified, busy = *m.authToken, call.Now, true
	}
	cfg.settings, cfg.pending = next, p
	switch {
	case m.immediately && !p.empty():
		cfg.apply()
		busy = true
	case !p.empty():
		w, _ := core.ParseWindow(cfg.maintenance, true)
		cfg.pendingAt = w.Next(call.Now)
	}
	if busy {
		l.enter(statusModifying, call.Now)
	}
	return nil
}

// modifyCacheCluster changes an available standalone cluster.
func (b *Backend) modifyCacheCluster(call *core.Call, in *elasticache.ModifyCacheClusterInput) (*elasticache.ModifyCacheClusterOutput, error) {
	return settledOn(b, call, in.CacheClusterId, (*region).lookupCluster, func(r *region, c *cluster) (*elasticache.ModifyCacheClusterOutput, error) {
		if c.group != "" {
			return nil, invalidCombination("Cache cluster %s is a member of replication group %s; modify the replication group instead.", c.id, c.group)
		}
		if c.life.Status() != statusAvailable {
			return nil, clusterNotAvailable(c)
		}
		if in.NumCacheNodes != nil {
			if err := checkNodes(c.cfg.settings, *in.NumCacheNodes); err != nil {
				return nil, err
			}
		}
		if err := b.modify(call, r, c.cfg, c.life, modification{nodeType: in.CacheNodeType, version: in.EngineVersion, maintenance: in.PreferredMaintenanceWindow,
			snapshotWindow: in.SnapshotWindow, authToken: in.AuthToken, retention: in.SnapshotRetentionLimit, securityGroups: in.SecurityGroupIds,
			authStrategy: in.AuthTokenUpdateStrategy, immediately: aws.ToBool(in.ApplyImmediately), numNodes: in.NumCacheNodes,
			paramGroup: in.CacheParameterGroupName}); err != nil {
			return nil, err
		}
		return &elasticache.ModifyCacheClusterOutput{CacheCluster: ptr(b.describeCluster(r, c, false))}, nil
	})
}

// modifyReplicationGroup changes an available replication group: its description, automatic
// failover and Multi-AZ (with AWS's rules), and what modify changes.
func (b *Backend) modifyReplicationGroup(call *core.Call, in *elasticache.ModifyReplicationGroupInput) (*elasticache.ModifyReplicationGroupOutput, error) {
	return settledOn(b, call, in.ReplicationGroupId, (*region).availableGroup, func(r *region, g *group) (*elasticache.ModifyReplicationGroupOutput, error) {
		if in.TransitEncryptionEnabled != nil && *in.TransitEncryptionEnabled != g.cfg.transit {
			return nil, invalidCombination("Changing encryption in transit of a replication group is not emulated.")
		}
		failover, multiAZ := g.failover, g.multiAZ
		if in.AutomaticFailoverEnabled != nil {
			failover = *in.AutomaticFailoverEnabled
		}
		if in.MultiAZEnabled != nil {
			multiAZ = *in.MultiAZEnabled
		}
		switch {
		case failover && len(g.members) < 2:
			return nil, invalidCombination("Automatic failover needs at least one read replica in replication group %s.", g.id)
		case multiAZ && !failover:
			return nil, invalidCombination("Multi-AZ needs automatic failover to be enabled.")
		}
		if err := b.modify(call, r, g.cfg, g.life, modification{nodeType: in.CacheNodeType, version: in.EngineVersion, maintenance: in.PreferredMaintenanceWindow,
			snapshotWindow: in.SnapshotWindow, authToken: in.AuthToken, retention: in.SnapshotRetentionLimit, securityGroups: in.SecurityGroupIds,
			authStrategy: in.AuthTokenUpdateStrategy, immediately: aws.ToBool(in.ApplyImmediately), paramGroup: in.CacheParameterGroupName}); err != nil {
			return nil, err
		}
		g.failover, g.multiAZ = failover, multiAZ
		if in.ReplicationGroupDescription != nil {
			g.description = *in.ReplicationGroupDescription
		}
		return &elasticache.ModifyReplicationGroupOutput{ReplicationGroup: ptr(b.describeGroup(r, g))}, nil
	})
}
