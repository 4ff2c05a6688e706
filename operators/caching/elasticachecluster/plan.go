package elasticachecluster

import (
	"context"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/operators/caching/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// modification is what differs from the spec, in the fields ModifyCacheCluster and
// ModifyReplicationGroup share (NumCacheNodes is a standalone cluster's only; failover, which
// sets automatic failover and Multi-AZ together, a replication group's only).
type modification struct {
	nodeType, engineVersion, snapshotWindow, maintenanceWindow, authToken *string
	parameterGroup                                                        *string
	numCacheNodes, snapshotRetention                                      *int32
	securityGroups                                                        []string
	failover                                                              *bool
}

// planModify plans one ModifyCacheCluster, or ModifyReplicationGroup for a group, with only
// the differing settings (see plan) and the AUTH token when its Secret changed (ROTATE: the old
// token keeps working until clients switch), applied now or in the maintenance window as
// spec.applyImmediately says. The token's hash is recorded once ElastiCache has taken it. A
// replication group's member count is changed in a pass of its own (see planReplicas). The plan
// shows the values of the settings (see shown), never the token's.
func (d *driver) planModify(changes *managed.Plan, c *v1alpha1.ElastiCacheCluster, st *State, tok *token) {
	m, fields := plan(&c.Spec, st)
	if tok != nil && tok.hash != c.Status.AuthTokenHash {
		m.authToken, fields = aws.String(tok.value), append(fields, "authTokenSecretRef")
	}
	now := aws.Bool(applyImmediately(&c.Spec))
	strategy := types.AuthTokenUpdateStrategyType("")
	if m.authToken != nil {
		strategy = types.AuthTokenUpdateStrategyTypeRotate
	}
	if g := st.Group; g != nil {
		d.planReplicas(changes, &c.Spec, g, fields)
	}
	changes.AddFieldValues(fields, shown(&c.Spec, st), func(ctx context.Context) error {
		var err error
		if g := st.Group; g != nil {
			id := aws.ToString(g.ReplicationGroupId)
			_, err = d.api.ModifyReplicationGroup(ctx, &elasticache.ModifyReplicationGroupInput{ReplicationGroupId: aws.String(id), ApplyImmediately: now,
				CacheNodeType: m.nodeType, EngineVersion: m.engineVersion, SnapshotRetentionLimit: m.snapshotRetention, SnapshotWindow: m.snapshotWindow,
				PreferredMaintenanceWindow: m.maintenanceWindow, SecurityGroupIds: m.securityGroups, AuthToken: m.authToken, AuthTokenUpdateStrategy: strategy,
				AutomaticFailoverEnabled: m.failover, MultiAZEnabled: m.failover, CacheParameterGroupName: m.parameterGroup})
			err = managed.Wrap(err, "modify replication group %s (%s)", id, strings.Join(fields, ", "))
		} else {
			id := aws.ToString(st.Cluster.CacheClusterId)
			_, err = d.api.ModifyCacheCluster(ctx, &elasticache.ModifyCacheClusterInput{CacheClusterId: aws.String(id), ApplyImmediately: now,
				CacheNodeType: m.nodeType, EngineVersion: m.engineVersion, NumCacheNodes: m.numCacheNodes, CacheNodeIdsToRemove: nodesToRemove(st.Cluster, m.numCacheNodes),
				SnapshotRetentionLimit: m.snapshotRetention, SnapshotWindow: m.snapshotWindow, PreferredMaintenanceWindow: m.maintenanceWindow,
				SecurityGroupIds: m.securityGroups, AuthToken: m.authToken, AuthTokenUpdateStrategy: strategy, CacheParameterGroupName: m.parameterGroup})
			err = managed.Wrap(err, "modify cache cluster %s (%s)", id, strings.Join(fields, ", "))
		}
		if err == nil && m.authToken != nil {
			c.Status.AuthTokenHash = tok.hash
		}
		return err
	})
}

// plan compares the cluster's modifiable settings with the spec and returns what differs and
// the names of the differing fields. A setting the spec leaves unset is not managed. A node
// type, engine version or node count the cluster already has pending (ElastiCache keeps it
// for the maintenance window) does not differ when changes wait for the window, so it is not
// sent again on every reconcile; with applyImmediately, a pending value is sent again so that
// ElastiCache applies it now.
func plan(s *v1alpha1.ElastiCacheClusterSpec, st *State) (modification, []string) {
	cl := st.Cluster
	retention, window := st.snapshots()
	p := pending(s, cl)
	var m modification
	var fields []string
	// change records field and runs set when it differs.
	change := func(field string, differs bool, set func()) {
		if differs {
			fields = append(fields, field)
			set()
		}
	}
	change("nodeType", target(cl.CacheNodeType, p.CacheNodeType) != s.NodeType, func() { m.nodeType = aws.String(s.NodeType) })
	change("engineVersion", s.EngineVersion != "" && target(cl.EngineVersion, p.EngineVersion) != s.EngineVersion, func() { m.engineVersion = aws.String(s.EngineVersion) })
	change("numCacheNodes", s.Mode() == v1alpha1.ModeCacheCluster && target(cl.NumCacheNodes, p.NumCacheNodes) != s.NumCacheNodes,
		func() { m.numCacheNodes = aws.Int32(s.NumCacheNodes) })
	change("snapshotRetentionLimit", s.SnapshotRetentionLimit != nil && aws.ToInt32(retention) != *s.SnapshotRetentionLimit,
		func() { m.snapshotRetention = s.SnapshotRetentionLimit })
	change("snapshotWindow", s.SnapshotWindow != "" && aws.ToString(window) != s.SnapshotWindow, func() { m.snapshotWindow = aws.String(s.SnapshotWindow) })
	change("preferredMaintenanceWindow", s.PreferredMaintenanceWindow != "" && !strings.EqualFold(aws.ToString(cl.PreferredMaintenanceWindow), s.PreferredMaintenanceWindow),
		func() { m.maintenanceWindow = aws.String(s.PreferredMaintenanceWindow) })
	change("securityGroupIDs", len(s.SecurityGroupIDs) > 0 && !managed.SameSet(s.SecurityGroupIDs, securityGroups(cl)), func() { m.securityGroups = s.SecurityGroupIDs })
	change("parameterGroupName", s.ParameterGroupName != "" && !strings.EqualFold(parameterGroup(cl), s.ParameterGroupName),
		func() { m.parameterGroup = aws.String(s.ParameterGroupName) })
	if g := st.Group; g != nil {
		want, differs := wantFailover(s, g)
		change("automaticFailover", differs, func() { m.failover = aws.Bool(want) })
	}
	return m, fields
}

// pending returns the values ElastiCache keeps for the maintenance window that plan takes as
// the cluster's: none with applyImmediately, so that a pending value is sent again.
func pending(s *v1alpha1.ElastiCacheClusterSpec, cl *types.CacheCluster) *types.PendingModifiedValues {
	if p := cl.PendingModifiedValues; p != nil && !applyImmediately(s) {
		return p
	}
	return &types.PendingModifiedValues{}
}

// shown returns, by field, how a plan shows the settings plan compares: the value the cluster
// has or will have (see plan) and the spec's, in the same form.
func shown(s *v1alpha1.ElastiCacheClusterSpec, st *State) map[string]managed.Values {
	cl := st.Cluster
	retention, window := st.snapshots()
	p := pending(s, cl)
	set := func(ids []string) []string {
		return slices.Compact(slices.Sorted(slices.Values(append([]string{}, ids...))))
	}
	values := map[string]managed.Values{
		"nodeType":                   managed.ValuesOf(target(cl.CacheNodeType, p.CacheNodeType), s.NodeType),
		"engineVersion":              managed.ValuesOf(target(cl.EngineVersion, p.EngineVersion), s.EngineVersion),
		"numCacheNodes":              managed.ValuesOf(target(cl.NumCacheNodes, p.NumCacheNodes), s.NumCacheNodes),
		"snapshotRetentionLimit":     managed.ValuesOf(aws.ToInt32(retention), aws.ToInt32(s.SnapshotRetentionLimit)),
		"snapshotWindow":             managed.ValuesOf(aws.ToString(window), s.SnapshotWindow),
		"preferredMaintenanceWindow": managed.ValuesOf(aws.ToString(cl.PreferredMaintenanceWindow), s.PreferredMaintenanceWindow),
		"securityGroupIDs":           managed.ValuesOf(set(securityGroups(cl)), set(s.SecurityGroupIDs)),
		"parameterGroupName":         managed.ValuesOf(parameterGroup(cl), s.ParameterGroupName),
	}
	if g := st.Group; g != nil {
		want, _ := wantFailover(s, g)
		values["automaticFailover"] = managed.ValuesOf(failoverOn(g), want)
	}
	return values
}

// target returns the value a setting will have: its pending value, else its current one.
func target[T any](current, pending *T) (v T) {
	if pending != nil {
		current = pending
	}
	if current != nil {
		v = *current
	}
	return v
}

// parameterGroup returns the name of the cache parameter group the cluster uses.
func parameterGroup(cl *types.CacheCluster) string {
	if g := cl.CacheParameterGroup; g != nil {
		return aws.ToString(g.CacheParameterGroupName)
	}
	return ""
}

// securityGroups returns the VPC security groups of the cluster.
func securityGroups(cl *types.CacheCluster) []string {
	var ids []string
	for _, g := range cl.SecurityGroups {
		ids = append(ids, aws.ToString(g.SecurityGroupId))
	}
	return ids
}

// nodesToRemove returns the ids of the nodes a Memcached cluster loses when its node count
// goes down to n, the newest first, as ModifyCacheCluster requires; nil when it does not go
// down.
func nodesToRemove(cl *types.CacheCluster, n *int32) []string {
	if n == nil || int(*n) >= len(cl.CacheNodes) {
		return nil
	}
	var ids []string
	for i := len(cl.CacheNodes) - 1; i >= int(*n); i-- {
		ids = append(ids, aws.ToString(cl.CacheNodes[i].CacheNodeId))
	}
	return ids
}
