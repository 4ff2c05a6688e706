package elasticache

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
	"github.com/aws/aws-sdk-go-v2/service/elasticache/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// snapshot is one manual snapshot of a cluster or replication group.
type snapshot struct {
	name, arn, clusterID, groupID, description string
	cfg                                        config
	status                                     string
	until, clusterCreated                      time.Time
}

// settle makes a creating snapshot available once its time has passed.
func (s *snapshot) settle(now time.Time) {
	if s.status == statusCreating && !now.Before(s.until) {
		s.status = statusAvailable
	}
}

// describe returns the snapshot as ElastiCache describes it.
func (s *snapshot) describe() types.Snapshot {
	out := types.Snapshot{SnapshotName: aws.String(s.name), ARN: aws.String(s.arn), SnapshotStatus: aws.String(s.status), SnapshotSource: aws.String("manual"),
		Engine: aws.String(s.cfg.engine), EngineVersion: aws.String(s.cfg.version), CacheNodeType: aws.String(s.cfg.nodeType),
		NumCacheNodes: aws.Int32(s.cfg.numNodes), CacheSubnetGroupName: aws.String(s.cfg.subnetGroup), VpcId: aws.String(s.cfg.vpc),
		Port: aws.Int32(s.cfg.port), PreferredMaintenanceWindow: aws.String(s.cfg.maintenance), SnapshotWindow: aws.String(s.cfg.snapshotWin),
		SnapshotRetentionLimit: aws.Int32(s.cfg.retention), CacheClusterCreateTime: aws.Time(s.clusterCreated), AutoMinorVersionUpgrade: aws.Bool(true),
		CacheParameterGroupName: aws.String(groupOf(&s.cfg))}
	if s.clusterID != "" {
		out.CacheClusterId = aws.String(s.clusterID)
	}
	if s.groupID != "" {
		out.ReplicationGroupId, out.ReplicationGroupDescription = aws.String(s.groupID), aws.String(s.description)
		out.NumNodeGroups = aws.Int32(1)
	}
	if s.cfg.kmsKey != "" {
		out.KmsKeyId = aws.String(s.cfg.kmsKey)
	}
	return out
}

// snapshotNotFound is AWS's answer to a snapshot the region does not have.
func snapshotNotFound(name string) error {
	return core.NotFoundf("SnapshotNotFoundFault", "Snapshot %s not found.", name)
}

// snapshotOf takes a snapshot named name of cluster c, or of group g when it is not nil: only of
// Redis OSS and Valkey, and under a name the region does not have yet. The caller holds the
// backend's mutex.
func (b *Backend) snapshotOf(call *core.Call, r *region, name string, c *cluster, g *group) (*snapshot, error) {
	if name == "" || len(name) > 255 {
		return nil, invalidValue("The parameter SnapshotName must be 1 to 255 characters.")
	}
	if _, ok := r.snapshots[name]; ok {
		return nil, core.Errorf("SnapshotAlreadyExistsFault", "Snapshot %s already exists.", name)
	}
	if !c.cfg.eng.persistent {
		return nil, core.Errorf("SnapshotFeatureNotSupportedFault", "Snapshots are not supported by the %s engine.", c.cfg.engine)
	}
	s := &snapshot{name: name, arn: r.scope.ARN("elasticache", "snapshot:"+name), cfg: *c.cfg, status: statusCreating,
		until: call.Now.Add(call.Transition), clusterCreated: c.created}
	if g != nil {
		s.groupID, s.description = g.id, g.description
		s.cfg.numNodes = int32(len(g.members))
	} else {
		s.clusterID = c.id
	}
	r.snapshots[name] = s
	return s, nil
}

// createSnapshot takes a manual snapshot of an available cluster or replication group.
func (b *Backend) createSnapshot(call *core.Call, in *elasticache.CreateSnapshotInput) (*elasticache.CreateSnapshotOutput, error) {
	return settledTagged(b, call, in.Tags, func(r *region, tags map[string]string) (*elasticache.CreateSnapshotOutput, error) {
		var c *cluster
		var g *group
		var err error
		switch {
		case in.ReplicationGroupId != nil && in.CacheClusterId != nil:
			return nil, invalidCombination("Give CacheClusterId or ReplicationGroupId, not both.")
		case in.ReplicationGroupId != nil:
			if g, err = r.availableGroup(in.ReplicationGroupId); err != nil {
				return nil, err
			}
			c = r.clusters[g.members[0]]
		default:
			if c, err = r.lookupCluster(in.CacheClusterId); err != nil {
				return nil, err
			}
			if c.life.Status() != statusAvailable {
				return nil, clusterNotAvailable(c)
			}
		}
		s, err := b.snapshotOf(call, r, aws.ToString(in.SnapshotName), c, g)
		if err != nil {
			return nil, err
		}
		if err := b.tags.Replace(s.arn, tags); err != nil {
			delete(r.snapshots, s.name)
			return nil, err
		}
		return &elasticache.CreateSnapshotOutput{Snapshot: ptr(s.describe())}, nil
	})
}

// describeSnapshots describes the region's manual snapshots, filtered by name, cluster or group
// and source, by pages of 20 to 50 (50 by default).
func (b *Backend) describeSnapshots(call *core.Call, in *elasticache.DescribeSnapshotsInput) (*elasticache.DescribeSnapshotsOutput, error) {
	if m := in.MaxRecords; m != nil && (*m < 20 || *m > 50) {
		return nil, invalidValue("Invalid value %d for MaxRecords. Must be between 20 and 50", *m)
	}
	size := aws.Int32(50)
	if in.MaxRecords != nil {
		size = in.MaxRecords
	}
	return settled(b, call, func(r *region) (*elasticache.DescribeSnapshotsOutput, error) {
		if in.SnapshotName != nil {
			if _, ok := r.snapshots[*in.SnapshotName]; !ok {
				return nil, snapshotNotFound(*in.SnapshotName)
			}
		}
		var names []string
		for _, name := range core.SortedKeys(r.snapshots) {
			s := r.snapshots[name]
			if (in.SnapshotName != nil && name != *in.SnapshotName) || (in.CacheClusterId != nil && s.clusterID != *in.CacheClusterId) ||
				(in.ReplicationGroupId != nil && s.groupID != *in.ReplicationGroupId) || (in.SnapshotSource != nil && *in.SnapshotSource != "manual") {
				continue
			}
			names = append(names, name)
		}
		snapshots, next, err := describedPage(names, in.Marker, size, func(name string) types.Snapshot { return r.snapshots[name].describe() })
		return &elasticache.DescribeSnapshotsOutput{Snapshots: snapshots, Marker: next}, err
	})
}

// deleteSnapshot deletes an available snapshot.
func (b *Backend) deleteSnapshot(call *core.Call, in *elasticache.DeleteSnapshotInput) (*elasticache.DeleteSnapshotOutput, error) {
	return settled(b, call, func(r *region) (*elasticache.DeleteSnapshotOutput, error) {
		name := aws.ToString(in.SnapshotName)
		s, ok := r.snapshots[name]
		if !ok {
			return nil, snapshotNotFound(name)
		}
		if s.status != statusAvailable {
			return nil, core.Errorf("InvalidSnapshotState", "Snapshot %s is not in available state: it is %s.", name, s.status)
		}
		delete(r.snapshots, name)
		b.tags.Delete(s.arn)
		s.status = statusDeleting
		return &elasticache.DeleteSnapshotOutput{Snapshot: ptr(s.describe())}, nil
	})
}
