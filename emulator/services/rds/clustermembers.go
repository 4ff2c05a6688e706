package rds

import (
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// serverlessClass is the instance class of Aurora Serverless v2 instances.
const serverlessClass = "db.serverless"

// memberOf returns the "requested DB Instance will be a member of a DB Cluster" refusal of a
// setting the cluster holds, as AWS words it.
func memberOf(what string) error {
	return invalidCombination("The requested DB Instance will be a member of a DB Cluster. Set %s for the DB Cluster.", what)
}

// newClusterInstance validates a CreateDBInstance request that names a DB cluster and returns
// the new member: the cluster's engine and version, its storage, master user, database, port
// and backups, and the request's class, placement, parameter group and promotion tier.
func (r *region) newClusterInstance(call *core.Call, id string, in *rds.CreateDBInstanceInput) (*instance, error) {
	c := r.cluster(*in.DBClusterIdentifier, call.Now)
	switch {
	case c == nil:
		return nil, clusterNotFound(*in.DBClusterIdentifier)
	case c.status() == statusDeleting:
		return nil, clusterState("DB cluster %s is being deleted.", c.id)
	case aws.ToString(in.Engine) != c.eng.name:
		return nil, invalidCombination("The engine name requested for your DB instance (%s) doesn't match the engine name of your DB cluster (%s).",
			aws.ToString(in.Engine), c.eng.name)
	case in.AllocatedStorage != nil:
		return nil, memberOf("storage")
	case in.MasterUsername != nil:
		return nil, memberOf("master user name")
	case in.MasterUserPassword != nil, in.ManageMasterUserPassword != nil:
		return nil, memberOf("master user password")
	case in.StorageEncrypted != nil, in.KmsKeyId != nil:
		return nil, memberOf("storage encryption")
	case in.EngineVersion != nil && c.eng.major(*in.EngineVersion) != c.eng.major(c.engineVersion):
		return nil, invalidCombination("The engine version you requested for your DB instance (%s) does not match the engine version of your DB cluster (%s).",
			*in.EngineVersion, c.engineVersion)
	}
	class := aws.ToString(in.DBInstanceClass)
	if class == serverlessClass {
		if c.scaling == nil {
			return nil, invalidCombination("Serverless v2 maximum capacity 0.0 isn't valid. The maximum capacity must be at least 1.0.")
		}
	} else if err := checkClass(class); err != nil {
		return nil, err
	}
	i := &instance{
		id: id, arn: r.scope.ARN("rds", "db:"+id), resourceID: newResourceID(), eng: c.eng, host: endpointHost(r.scope, id),
		created: call.Now, readableAt: call.Now.Add(time.Duration(call.Fault.ReadAfterCreateDelay)), transition: call.Transition,
		life: core.NewLifecycle(phase{status: statusAvailable}), class: class, engineVersion: c.engineVersion, license: c.eng.license,
		storageType: "aurora", storage: 1, encrypted: c.encrypted, kmsKey: c.kmsKey,
		backupRetention: c.backupRetention, backupWindow: c.backupWindow, maintenanceWindow: defaultMaintenanceWindow,
		public: c.subnetGroup == "", autoMinor: true, copyTags: c.copyTags, paramStatus: "in-sync",
		dbName: c.dbName, masterUsername: c.masterUsername, port: c.port, caCert: defaultCACertificate,
		cluster: c.id, promotionTier: 1, clusterParamStatus: "in-sync",
	}
	if in.PromotionTier != nil {
		if i.promotionTier = *in.PromotionTier; i.promotionTier < 0 || i.promotionTier > 15 {
			return nil, invalidValue("Invalid PromotionTier %d: valid values are 0 to 15.", i.promotionTier)
		}
	}
	if in.PreferredMaintenanceWindow != nil {
		i.maintenanceWindow = *in.PreferredMaintenanceWindow
		if _, err := parseWindow("PreferredMaintenanceWindow", i.maintenanceWindow, true); err != nil {
			return nil, err
		}
	}
	set(&i.public, in.PubliclyAccessible)
	set(&i.autoMinor, in.AutoMinorVersionUpgrade)
	set(&i.copyTags, in.CopyTagsToSnapshot)
	if err := i.setInsights(r.scope, in.EnablePerformanceInsights, in.PerformanceInsightsKMSKeyId, in.PerformanceInsightsRetentionPeriod); err != nil {
		return nil, err
	}
	subnetGroup := in.DBSubnetGroupName
	if subnetGroup == nil && c.subnetGroup != "" {
		subnetGroup = aws.String(c.subnetGroup)
	}
	if err := r.placeInstance(i, subnetGroup, in.AvailabilityZone); err != nil {
		return nil, err
	}
	var err error
	if i.paramGroup, err = r.paramGroupFor(c.eng, c.engineVersion, aws.ToString(in.DBParameterGroupName)); err != nil {
		return nil, err
	}
	if i.optionGroup, err = r.optionGroupFor(c.eng, c.engineVersion, aws.ToString(in.OptionGroupName)); err != nil {
		return nil, err
	}
	i.life.Start(phase{status: statusCreating}, call.Now, call.Transition)
	return i, nil
}

// members returns the live member instances of a cluster, oldest first. The caller holds the
// backend's mutex.
func (r *region) members(c *cluster, now time.Time) []*instance {
	var out []*instance
	for _, id := range core.SortedKeys(r.instances) {
		if i := r.instance(id, now); i != nil && i.cluster == c.id {
			out = append(out, i)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].created.Before(out[b].created) })
	return out
}

// promote returns the member Aurora promotes to writer: the one with the best (lowest)
// promotion tier that is not being deleted, the oldest among equals; "" when there is none.
func promote(members []*instance, except string) string {
	best := ""
	tier := int32(16)
	for _, i := range members {
		if i.id != except && i.status() != statusDeleting && i.promotionTier < tier {
			best, tier = i.id, i.promotionTier
		}
	}
	return best
}

// writerOf returns the cluster's writer among its members: the one it has while it is a member,
// else the first one created (or the one promote picks once that one has gone).
func (c *cluster) writerOf(members []*instance) string {
	for _, i := range members {
		if i.id == c.writer {
			return c.writer
		}
	}
	c.writer = ""
	if len(members) > 0 {
		c.writer = members[0].id
		if members[0].status() == statusDeleting {
			if next := promote(members, ""); next != "" {
				c.writer = next
			}
		}
	}
	return c.writer
}

// memberList returns the cluster's DBClusterMembers.
func (r *region) memberList(c *cluster, now time.Time) []types.DBClusterMember {
	members := r.members(c, now)
	writer := c.writerOf(members)
	out := []types.DBClusterMember{}
	for _, i := range members {
		out = append(out, types.DBClusterMember{DBInstanceIdentifier: aws.String(i.id), IsClusterWriter: aws.Bool(i.id == writer),
			PromotionTier: aws.Int32(i.promotionTier), DBClusterParameterGroupStatus: aws.String(i.clusterParamStatus)})
	}
	return out
}

// memberDeleting fails the cluster over when its writer is being deleted and a reader can take
// over, as Aurora does.
func (r *region) memberDeleting(i *instance, now time.Time) {
	c := r.clusters[i.cluster]
	if c == nil {
		return
	}
	members := r.members(c, now)
	if c.writerOf(members) != i.id {
		return
	}
	if next := promote(members, i.id); next != "" {
		c.writer = next
	}
}

// describeMember completes a member instance's description with what its cluster holds.
func (r *region) describeMember(i *instance, d *types.DBInstance) {
	c := r.clusters[i.cluster]
	if c == nil {
		return
	}
	d.DBClusterIdentifier, d.PromotionTier = aws.String(c.id), aws.Int32(i.promotionTier)
	d.EngineVersion, d.MasterUsername = aws.String(c.engineVersion), aws.String(c.masterUsername)
	d.StorageEncrypted, d.KmsKeyId = aws.Bool(c.encrypted), nil
	if c.encrypted {
		d.KmsKeyId = aws.String(c.kmsKey)
	}
	d.BackupRetentionPeriod, d.PreferredBackupWindow = aws.Int32(c.backupRetention), aws.String(c.backupWindow)
	d.DBName, d.MasterUserSecret, d.LatestRestorableTime, d.VpcSecurityGroups = nil, nil, nil, nil
	if c.dbName != "" {
		d.DBName = aws.String(c.dbName)
	}
	if d.Endpoint != nil {
		d.Endpoint.Port = aws.Int32(c.port)
	}
	for _, sg := range c.securityGroups {
		d.VpcSecurityGroups = append(d.VpcSecurityGroups, types.VpcSecurityGroupMembership{VpcSecurityGroupId: aws.String(sg), Status: aws.String("active")})
	}
}

// checkMemberModify refuses, as AWS does, a ModifyDBInstance of a cluster member that changes
// what the cluster holds.
func checkMemberModify(i *instance, in *rds.ModifyDBInstanceInput) error {
	if i.cluster == "" {
		return nil
	}
	for what, given := range map[string]bool{
		"backup retention":      in.BackupRetentionPeriod != nil,
		"backup window":         in.PreferredBackupWindow != nil,
		"master user password":  in.MasterUserPassword != nil || in.ManageMasterUserPassword != nil,
		"the DB engine version": in.EngineVersion != nil,
		"storage":               in.AllocatedStorage != nil || in.StorageType != nil || in.Iops != nil || in.StorageThroughput != nil,
		"deletion protection":   in.DeletionProtection != nil,
		"the port":              in.DBPortNumber != nil,
		"VPC security groups":   in.VpcSecurityGroupIds != nil,
	} {
		if given {
			return invalidCombination("The specified DB Instance is a member of a cluster. Modify %s for the DB Cluster using the ModifyDbCluster API", what)
		}
	}
	return nil
}

// failoverDBCluster makes a reader (TargetDBInstanceIdentifier, or the one Aurora would promote)
// the cluster's writer; the old writer becomes a reader.
func (b *Backend) failoverDBCluster(call *core.Call, in *rds.FailoverDBClusterInput) (*rds.FailoverDBClusterOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.FailoverDBClusterOutput, error) {
		c, err := clusterKind.available(r, in.DBClusterIdentifier, call.Now, func(c *cluster) error { return clusterState("DB cluster %s is not in available state.", c.id) })
		if err != nil {
			return nil, err
		}
		members := r.members(c, call.Now)
		writer := c.writerOf(members)
		if len(members) < 2 {
			return nil, clusterState("Database cluster:%s should have at least two database instances for failover", c.id)
		}
		target := promote(members, writer)
		if in.TargetDBInstanceIdentifier != nil {
			target = ""
			for _, i := range members {
				if i.id == *in.TargetDBInstanceIdentifier || i.arn == *in.TargetDBInstanceIdentifier {
					target = i.id
					if i.status() != statusAvailable {
						return nil, core.Errorf("InvalidDBInstanceState", "Instance %s should be in valid state for failover.", i.id)
					}
				}
			}
			if target == "" {
				return nil, invalidValue("Cannot find target instance: %s", *in.TargetDBInstanceIdentifier)
			}
		}
		if target == "" {
			return nil, clusterState("Database cluster:%s should have at least two database instances in valid states or a valid target instance for failover.", c.id)
		}
		c.writer = target
		out := r.describeCluster(c, call.Now)
		return &rds.FailoverDBClusterOutput{DBCluster: &out}, nil
	})
}
