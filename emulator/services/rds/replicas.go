package rds

import (
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// derived are the settings a request that makes an instance from another (a read replica, a
// restore) may give in place of the source's, and its tags. The fields are named as those
// requests name them, so that derivedFrom copies them.
type derived struct {
	DBInstanceClass, DBSubnetGroupName, AvailabilityZone, DBParameterGroupName *string
	MultiAZ, PubliclyAccessible, DeletionProtection, CopyTagsToSnapshot        *bool
	VpcSecurityGroupIds                                                        []string
	Tags                                                                       []types.Tag
}

// derivedFrom returns the derived settings of a request that makes an instance from another.
func derivedFrom(in any) derived {
	var d derived
	core.Fill(&d, in)
	return d
}

// derive returns a new instance id made from src (a live instance, or the one a snapshot
// recorded): the same engine, version, storage, encryption and master user, with the request's
// settings d in place of the source's, checked as CreateDBInstance checks them. The caller
// starts its creation (startCreating) once it has set what differs.
func (r *region) derive(call *core.Call, id string, src instance, d derived) (*instance, error) {
	i := src
	i.id, i.arn, i.resourceID, i.host = id, r.scope.ARN("rds", "db:"+id), newResourceID(), endpointHost(r.scope, id)
	i.created, i.readableAt, i.transition = call.Now, call.Now.Add(time.Duration(call.Fault.ReadAfterCreateDelay)), call.Transition
	i.life, i.gone = core.NewLifecycle(phase{status: statusAvailable}), false
	i.pending, i.maintenanceAt, i.passwordPending = changes{}, time.Time{}, false
	i.replicaOf, i.replicas = "", nil
	i.paramStatus, i.deletionProtection = "in-sync", false
	i.securityGroups = slices.Clone(src.securityGroups)
	if d.DBInstanceClass != nil {
		if err := checkClass(*d.DBInstanceClass); err != nil {
			return nil, err
		}
		i.class = *d.DBInstanceClass
	}
	set(&i.multiAZ, d.MultiAZ)
	set(&i.public, d.PubliclyAccessible)
	set(&i.deletionProtection, d.DeletionProtection)
	set(&i.copyTags, d.CopyTagsToSnapshot)
	if d.VpcSecurityGroupIds != nil {
		if err := checkSecurityGroups(d.VpcSecurityGroupIds); err != nil {
			return nil, err
		}
		i.securityGroups = d.VpcSecurityGroupIds
	}
	if d.DBSubnetGroupName != nil || d.AvailabilityZone != nil {
		if err := r.placeInstance(&i, d.DBSubnetGroupName, d.AvailabilityZone); err != nil {
			return nil, err
		}
	}
	if d.DBParameterGroupName != nil {
		name, err := r.paramGroupFor(i.eng, i.engineVersion, *d.DBParameterGroupName)
		if err != nil {
			return nil, err
		}
		i.paramGroup = name
	}
	return &i, nil
}

// startCreating starts the instance's creation at call: creating for a transition, then
// backing up when it keeps backups.
func (i *instance) startCreating(call *core.Call) {
	i.life.Start(phase{status: statusCreating}, call.Now, call.Transition)
	if i.backupRetention > 0 {
		i.life.Then(phase{status: statusBackingUp}, call.Transition)
	}
}

// addDerived starts the creation of i, an instance made from another, and records it with the
// request's tags; it returns i described. The caller holds the backend's mutex.
func (r *region) addDerived(call *core.Call, i *instance, tags []types.Tag) (*types.DBInstance, error) {
	i.startCreating(call)
	if err := r.add(call, i, tags); err != nil {
		return nil, err
	}
	out := r.describe(i, call.Now)
	return &out, nil
}

// add records a new instance with the request's tags, or AWS's error for an identifier in use.
// The caller holds the backend's mutex.
func (r *region) add(call *core.Call, i *instance, tags []types.Tag) error {
	if r.instance(i.id, call.Now) != nil {
		return core.Errorf("DBInstanceAlreadyExists", "DB instance already exists")
	}
	if err := r.tags.Merge(requestTags(tags), i.arn); err != nil {
		return err
	}
	r.instances[i.id] = i
	return nil
}

// createDBInstanceReadReplica makes a read replica of an instance that keeps automated backups,
// as AWS requires: the source's engine, version, storage and master user, no backups of its own
// (ReadReplicaSourceDBInstanceIdentifier names the source, whose
// ReadReplicaDBInstanceIdentifiers list it), and the request's class, placement and groups.
func (b *Backend) createDBInstanceReadReplica(call *core.Call, in *rds.CreateDBInstanceReadReplicaInput) (*rds.CreateDBInstanceReadReplicaOutput, error) {
	return creating(b, call, instanceKind, "DBInstanceIdentifier", in.DBInstanceIdentifier, false, func(r *region, id string) (*rds.CreateDBInstanceReadReplicaOutput, error) {
		src := r.instance(aws.ToString(in.SourceDBInstanceIdentifier), call.Now)
		switch {
		case src == nil:
			return nil, instanceNotFound(aws.ToString(in.SourceDBInstanceIdentifier))
		case src.replicaOf != "" && src.eng.name != "mysql" && src.eng.name != "mariadb":
			return nil, invalidCombination("Read replicas of read replicas are supported only for MySQL and MariaDB.")
		case src.backupRetention == 0:
			return nil, core.Errorf("InvalidDBInstanceState", "Automated backups are not enabled for this database instance. To enable automated "+
				"backups, use ModifyDBInstance to set the backup retention period to a non-zero value.")
		case src.status() != statusAvailable && src.status() != statusBackingUp:
			return nil, core.Errorf("InvalidDBInstanceState", "DB Instance %s is not in available state.", src.id)
		}
		d := derivedFrom(in)
		i, err := r.derive(call, id, *src, d)
		if err != nil {
			return nil, err
		}
		i.backupRetention, i.replicaOf = 0, src.id
		out, err := r.addDerived(call, i, d.Tags)
		if err != nil {
			return nil, err
		}
		src.replicas = append(src.replicas, i.id)
		return &rds.CreateDBInstanceReadReplicaOutput{DBInstance: out}, nil
	})
}

// promoteReadReplica makes an available read replica a standalone instance: it is modifying for
// a transition, keeps backups for BackupRetentionPeriod days (1 by default), and its source no
// longer lists it.
func (b *Backend) promoteReadReplica(call *core.Call, in *rds.PromoteReadReplicaInput) (*rds.PromoteReadReplicaOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.PromoteReadReplicaOutput, error) {
		i := r.instance(aws.ToString(in.DBInstanceIdentifier), call.Now)
		switch {
		case i == nil:
			return nil, instanceNotFound(aws.ToString(in.DBInstanceIdentifier))
		case i.replicaOf == "":
			return nil, core.Errorf("InvalidDBInstanceState", "DB Instance %s is not a read replica.", i.id)
		case i.status() != statusAvailable:
			return nil, core.Errorf("InvalidDBInstanceState", "DB Instance %s is not in available state.", i.id)
		}
		retention := int32(1)
		if in.BackupRetentionPeriod != nil {
			retention = *in.BackupRetentionPeriod
		}
		if err := checkRetention(retention); err != nil {
			return nil, err
		}
		r.unlinkReplicas(&instance{id: i.id, replicaOf: i.replicaOf})
		i.replicaOf, i.backupRetention = "", retention
		if in.PreferredBackupWindow != nil {
			i.backupWindow = *in.PreferredBackupWindow
		}
		i.life.Start(phase{status: statusModifying}, call.Now, call.Transition)
		out := r.describe(i, call.Now)
		return &rds.PromoteReadReplicaOutput{DBInstance: &out}, nil
	})
}

// unlinkReplicas forgets the replica links of an instance that goes (or is promoted): its
// source no longer lists it, and its replicas become standalone instances, as AWS promotes the
// replicas of a deleted source. The caller holds the backend's mutex.
func (r *region) unlinkReplicas(i *instance) {
	if src, ok := r.instances[i.replicaOf]; ok {
		src.replicas = slices.DeleteFunc(src.replicas, func(id string) bool { return strings.EqualFold(id, i.id) })
	}
	for _, id := range i.replicas {
		if rep, ok := r.instances[id]; ok {
			rep.replicaOf = ""
		}
	}
}
