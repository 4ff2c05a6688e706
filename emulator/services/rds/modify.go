package rds

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// changes are the modifications AWS keeps in PendingModifiedValues until the maintenance window
// or ApplyImmediately; nil fields are not changing. optionGroup and paramGroup (set by a major
// version upgrade) change along with them but are not reported there.
type changes struct {
	class, engineVersion, storageType, caCert, subnetGroup *string
	storage, iops, throughput, backupRetention             *int32
	multiAZ                                                *bool
	optionGroup, paramGroup                                *string
}

func (c changes) empty() bool { return c == changes{} }

// apply makes the changes to the instance.
func (c changes) apply(i *instance) {
	set(&i.class, c.class)
	set(&i.engineVersion, c.engineVersion)
	set(&i.storageType, c.storageType)
	set(&i.caCert, c.caCert)
	set(&i.subnetGroup, c.subnetGroup)
	set(&i.storage, c.storage)
	set(&i.iops, c.iops)
	set(&i.throughput, c.throughput)
	set(&i.backupRetention, c.backupRetention)
	set(&i.multiAZ, c.multiAZ)
	set(&i.optionGroup, c.optionGroup)
	if c.paramGroup != nil {
		i.paramGroup, i.paramStatus = *c.paramGroup, "in-sync" // The upgrade rebooted the instance.
	}
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// report writes the changes into PendingModifiedValues.
func (c changes) report(p *types.PendingModifiedValues) {
	p.DBInstanceClass, p.EngineVersion, p.StorageType = c.class, c.engineVersion, c.storageType
	p.CACertificateIdentifier, p.DBSubnetGroupName = c.caCert, c.subnetGroup
	p.AllocatedStorage, p.Iops, p.StorageThroughput = c.storage, c.iops, c.throughput
	p.BackupRetentionPeriod, p.MultiAZ = c.backupRetention, c.multiAZ
}

// stage makes v the pending value of a setting whose current value is cur; a value equal to the
// current one cancels what was pending.
func stage[T comparable](pending **T, cur, v T) {
	if v == cur {
		*pending = nil
		return
	}
	*pending = &v
}

// target returns the value a setting will have: its pending value, else its current one.
func target[T any](pending *T, cur T) T {
	if pending != nil {
		return *pending
	}
	return cur
}

func (b *Backend) modifyDBInstance(call *core.Call, in *rds.ModifyDBInstanceInput) (*rds.ModifyDBInstanceOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.ModifyDBInstanceOutput, error) {
		i, err := instanceKind.available(r, in.DBInstanceIdentifier, call.Now, func(i *instance) error {
			return core.Errorf("InvalidDBInstanceState", "Database instance is not in available state.")
		})
		if err != nil {
			return nil, err
		}
		if in.NewDBInstanceIdentifier != nil {
			return nil, invalidValue("The emulator does not support renaming DB instances (NewDBInstanceIdentifier).")
		}
		if err := checkMemberModify(i, in); err != nil {
			return nil, err
		}
		// Modify a copy, so that a request refused half-way changes nothing.
		next := *i
		restart, err := r.modify(&next, in)
		if err != nil {
			return nil, err
		}
		next.transition = call.Transition
		switch {
		case aws.ToBool(in.ApplyImmediately) && !next.pending.empty():
			next.applyPending(call.Now)
		case restart:
			next.life.Start(phase{status: statusModifying}, call.Now, call.Transition)
		case next.passwordPending:
			next.life.Start(phase{status: statusResetting}, call.Now, call.Transition)
		}
		if !aws.ToBool(in.ApplyImmediately) && !next.pending.empty() {
			next.maintenanceAt = nextMaintenance(call.Now, next.maintenanceWindow)
		}
		*i = next
		out := r.describe(i, call.Now)
		return &rds.ModifyDBInstanceOutput{DBInstance: &out}, nil
	})
}

// modify validates a ModifyDBInstance request and makes its changes to i: at once, or into
// i.pending. restart reports whether a change applied at once puts the instance through a
// modifying step.
func (r *region) modify(i *instance, in *rds.ModifyDBInstanceInput) (restart bool, err error) {
	if in.DBInstanceClass != nil {
		if err := checkClass(*in.DBInstanceClass); err != nil {
			return false, err
		}
		stage(&i.pending.class, i.class, *in.DBInstanceClass)
	}
	if in.MultiAZ != nil {
		stage(&i.pending.multiAZ, i.multiAZ, *in.MultiAZ)
	}
	if in.CACertificateIdentifier != nil {
		if !caCertificates[*in.CACertificateIdentifier] {
			return false, core.NotFoundf("CertificateNotFound", "Certificate not found: %s", *in.CACertificateIdentifier)
		}
		stage(&i.pending.caCert, i.caCert, *in.CACertificateIdentifier)
	}
	if in.DBSubnetGroupName != nil {
		g, ok := r.subnetGroups[strings.ToLower(*in.DBSubnetGroupName)]
		if !ok {
			return false, subnetGroupNotFound(*in.DBSubnetGroupName)
		}
		stage(&i.pending.subnetGroup, i.subnetGroup, g.name)
	}
	if err := i.modifyStorage(in); err != nil {
		return false, err
	}
	if err := i.modifyBackups(in); err != nil {
		return false, err
	}
	paramRestart, err := r.modifyEngine(i, in)
	if err != nil {
		return false, err
	}
	if in.OptionGroupName != nil {
		name, err := r.optionGroupFor(i.eng, target(i.pending.engineVersion, i.engineVersion), *in.OptionGroupName)
		if err != nil {
			return false, err
		}
		stage(&i.pending.optionGroup, i.optionGroup, name)
	}
	if err := i.setInsights(r.scope, in.EnablePerformanceInsights, in.PerformanceInsightsKMSKeyId, in.PerformanceInsightsRetentionPeriod); err != nil {
		return false, err
	}
	if in.PromotionTier != nil {
		if *in.PromotionTier < 0 || *in.PromotionTier > 15 {
			return false, invalidValue("Invalid PromotionTier %d: valid values are 0 to 15.", *in.PromotionTier)
		}
		i.promotionTier = *in.PromotionTier
	}
	set(&i.deletionProtection, in.DeletionProtection)
	set(&i.copyTags, in.CopyTagsToSnapshot)
	set(&i.autoMinor, in.AutoMinorVersionUpgrade)
	set(&i.maxStorage, in.MaxAllocatedStorage)
	networkRestart, err := i.modifyNetwork(in)
	if err != nil {
		return false, err
	}
	passwordRestart, err := i.modifyPassword(r.scope, in)
	if err != nil {
		return false, err
	}
	return paramRestart || networkRestart || passwordRestart, nil
}

// modifyStorage stages a new storage type, size, IOPS or throughput, checked as a whole against
// the engine's limits. A size that grows by less than 10% grows by 10%, as on AWS.
func (i *instance) modifyStorage(in *rds.ModifyDBInstanceInput) error {
	if in.StorageType == nil && in.AllocatedStorage == nil && in.Iops == nil && in.StorageThroughput == nil {
		return nil
	}
	storageType := target(i.pending.storageType, i.storageType)
	set(&storageType, in.StorageType)
	size := target(i.pending.storage, i.storage)
	if in.AllocatedStorage != nil {
		size = *in.AllocatedStorage
		if size < i.storage {
			return invalidValue("Invalid storage size: the allocated storage can't be reduced (from %d to %d GiB).", i.storage, size)
		}
		if least := (i.storage*11 + 9) / 10; size > i.storage && size < least {
			size = least
		}
	}
	iops, throughput := target(i.pending.iops, i.iops), target(i.pending.throughput, i.throughput)
	if storageType != "gp3" || size < i.eng.gp3Threshold {
		throughput = 0 // Only gp3 volumes, at or above the threshold, provision throughput.
		if storageType != "io1" && storageType != "io2" {
			iops = 0
		}
	}
	set(&iops, in.Iops)
	set(&throughput, in.StorageThroughput)
	if err := i.eng.checkStorage(storageType, size, iops, throughput); err != nil {
		return err
	}
	stage(&i.pending.storageType, i.storageType, storageType)
	stage(&i.pending.storage, i.storage, size)
	stage(&i.pending.iops, i.iops, iops)
	stage(&i.pending.throughput, i.throughput, throughput)
	return nil
}

// modifyBackups changes the backup retention and windows. Retention changes between two non-zero
// values apply at once; turning backups on or off waits, as on AWS.
func (i *instance) modifyBackups(in *rds.ModifyDBInstanceInput) error {
	if in.BackupRetentionPeriod != nil {
		days := *in.BackupRetentionPeriod
		if err := checkRetention(days); err != nil {
			return err
		}
		if (days == 0) == (i.backupRetention == 0) {
			i.backupRetention, i.pending.backupRetention = days, nil
		} else {
			stage(&i.pending.backupRetention, i.backupRetention, days)
		}
	}
	if in.PreferredBackupWindow == nil && in.PreferredMaintenanceWindow == nil {
		return nil
	}
	return setWindows(&i.backupWindow, &i.maintenanceWindow, in.PreferredBackupWindow, in.PreferredMaintenanceWindow)
}

// modifyEngine stages an engine version upgrade, with the parameter and option groups of a new
// major version, and changes the parameter group (at once, with a modifying step).
func (r *region) modifyEngine(i *instance, in *rds.ModifyDBInstanceInput) (restart bool, err error) {
	version := target(i.pending.engineVersion, i.engineVersion)
	if in.EngineVersion != nil {
		if version, err = i.eng.version(*in.EngineVersion); err != nil {
			return false, err
		}
		if versionLess(version, i.engineVersion) {
			return false, invalidCombination("Cannot upgrade %s from %s to %s", i.eng.name, i.engineVersion, version)
		}
		stage(&i.pending.engineVersion, i.engineVersion, version)
		i.pending.paramGroup, i.pending.optionGroup = nil, nil
	}
	if i.eng.major(version) == i.eng.major(i.engineVersion) {
		if in.DBParameterGroupName == nil {
			return false, nil
		}
		name, err := r.paramGroupFor(i.eng, version, *in.DBParameterGroupName)
		if err != nil || name == i.paramGroup {
			return false, err
		}
		i.paramGroup, i.paramStatus = name, "applying"
		return true, nil
	}
	// A major version upgrade: asked for now, or pending from an earlier request.
	params := aws.ToString(in.DBParameterGroupName)
	if in.EngineVersion != nil {
		if !aws.ToBool(in.AllowMajorVersionUpgrade) {
			return false, invalidCombination("The AllowMajorVersionUpgrade flag must be present when upgrading to a new major version.")
		}
		if params == "" && !strings.HasPrefix(i.paramGroup, "default.") {
			return false, invalidCombination("The current DB parameter group %s is custom. You must explicitly specify a new DB parameter group, "+
				"either default or custom, for the engine version upgrade.", i.paramGroup)
		}
		if strings.HasPrefix(i.optionGroup, "default:") {
			i.pending.optionGroup = aws.String(i.eng.defaultOptionGroup(version))
		}
	} else if params == "" {
		return false, nil
	}
	if params, err = r.paramGroupFor(i.eng, version, params); err != nil {
		return false, err
	}
	i.pending.paramGroup = &params
	return false, nil
}

// modifyNetwork changes the port, public accessibility, security groups and IAM authentication,
// which AWS applies at once with a modifying step.
func (i *instance) modifyNetwork(in *rds.ModifyDBInstanceInput) (restart bool, err error) {
	if in.DBPortNumber != nil && *in.DBPortNumber != i.port {
		if *in.DBPortNumber < 1150 || *in.DBPortNumber > 65535 {
			return false, invalidValue("Invalid port %d: valid ports are 1150-65535.", *in.DBPortNumber)
		}
		i.port, restart = *in.DBPortNumber, true
	}
	if in.PubliclyAccessible != nil && *in.PubliclyAccessible != i.public {
		i.public, restart = *in.PubliclyAccessible, true
	}
	if in.VpcSecurityGroupIds != nil && !slices.Equal(in.VpcSecurityGroupIds, i.securityGroups) {
		if err := checkSecurityGroups(in.VpcSecurityGroupIds); err != nil {
			return false, err
		}
		i.securityGroups, restart = in.VpcSecurityGroupIds, true
	}
	if in.EnableIAMDatabaseAuthentication != nil && *in.EnableIAMDatabaseAuthentication != i.iamAuth {
		i.iamAuth, restart = *in.EnableIAMDatabaseAuthentication, true
	}
	return restart, nil
}

// modifyPassword sets a new master password (pending until the next step ends), or turns the
// management of the password by Secrets Manager on or off.
func (i *instance) modifyPassword(scope core.Scope, in *rds.ModifyDBInstanceInput) (restart bool, err error) {
	manage := in.ManageMasterUserPassword
	switch {
	case manage != nil && *manage && in.MasterUserPassword != nil:
		return false, invalidCombination("You can't specify MasterUserPassword when ManageMasterUserPassword is enabled.")
	case manage != nil && *manage && i.secret == "":
		i.secret, i.masterPassword = secretARN(scope, i.resourceID), ""
		return true, nil
	case manage != nil && !*manage && i.secret != "" && in.MasterUserPassword == nil:
		return false, invalidCombination("You must specify MasterUserPassword when you turn off ManageMasterUserPassword.")
	case in.MasterUserPassword == nil:
		return false, nil
	case i.secret != "" && (manage == nil || *manage):
		return false, invalidCombination("You can't specify MasterUserPassword for a DB instance whose master user password is managed by Secrets Manager.")
	}
	if err := i.eng.checkPassword(*in.MasterUserPassword); err != nil {
		return false, err
	}
	restart = i.secret != ""
	i.masterPassword, i.secret, i.passwordPending = *in.MasterUserPassword, "", true
	return restart, nil
}
