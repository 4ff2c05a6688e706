package rdsinstance

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdsinsights"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdspassword"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planModify plans one ModifyDBInstance with only the differing settings of the applied spec
// (see plan and applied: the subnet group the operator owns counts as dbSubnetGroupName) and the
// password when its Secret changed, applied now or in the maintenance window as
// spec.applyImmediately says. RDS applies the password, backups and deletion protection at once
// either way. The password's version is recorded once RDS has taken the password. The plan
// shows the values of the settings (see shown), never the password's. For a read replica
// (replica), what it inherits from its source is not compared.
func (d *driver) planModify(changes *managed.Plan, i *v1alpha1.RDSInstance, inst *types.DBInstance, pw rdspassword.Password, replica bool) {
	spec := applied(i)
	if replica {
		// A read replica follows its source's engine version and password, and keeps no
		// backups of its own.
		spec.EngineVersion, spec.BackupRetentionPeriod = "", nil
	}
	in, fields := plan(spec, inst)
	if pw.Version != i.Status.MasterUserPasswordVersion && !replica {
		in.MasterUserPassword, fields = aws.String(pw.Value), append(fields, "masterUserPassword")
	}
	id := aws.ToString(inst.DBInstanceIdentifier)
	in.DBInstanceIdentifier, in.ApplyImmediately = aws.String(id), aws.Bool(i.Spec.ApplyImmediately)
	changes.AddFieldValues(fields, shown(spec, inst), func(ctx context.Context) error {
		if _, err := d.api.ModifyDBInstance(ctx, in); err != nil {
			if w := groupError(spec, err); w != nil {
				return w
			}
			return fmt.Errorf("modify DB instance %s (%s): %w", id, strings.Join(fields, ", "), err)
		}
		if in.MasterUserPassword != nil {
			i.Status.MasterUserPasswordVersion = pw.Version
		}
		return nil
	})
}

// plan compares the instance's modifiable settings with the spec. It returns the
// ModifyDBInstance request that brings the instance in line (only the differing fields are
// set; planModify adds the identifier, ApplyImmediately and the password) and the names of the
// fields that differ. A setting the spec leaves unset is not managed. When applyImmediately is
// false, a setting whose spec value is already pending (RDS keeps it for the maintenance
// window) does not differ, so it is not sent again on every reconcile. Tags are planned by
// planTags, the password by planModify.
func plan(s *v1alpha1.RDSInstanceSpec, inst *types.DBInstance) (*rds.ModifyDBInstanceInput, []string) {
	p := pending(s, inst)
	in := &rds.ModifyDBInstanceInput{}
	var fields []string
	// change records field and sets it in the request when it differs, and reports whether it does.
	change := func(field string, differs bool, set func()) bool {
		if differs {
			fields = append(fields, field)
			set()
		}
		return differs
	}
	change("dbInstanceClass", target(inst.DBInstanceClass, p.DBInstanceClass) != s.DBInstanceClass, func() { in.DBInstanceClass = aws.String(s.DBInstanceClass) })
	// The spec's version is the user's explicit choice, so a major upgrade is allowed.
	change("engineVersion", s.EngineVersion != "" && !sameVersion(s.EngineVersion, target(inst.EngineVersion, p.EngineVersion)), func() {
		in.EngineVersion, in.AllowMajorVersionUpgrade = aws.String(s.EngineVersion), aws.Bool(true)
	})
	// Storage autoscaling may have grown the volume beyond the spec; it never shrinks.
	change("allocatedStorage", target(inst.AllocatedStorage, p.AllocatedStorage) < s.AllocatedStorage, func() { in.AllocatedStorage = aws.Int32(s.AllocatedStorage) })
	change("maxAllocatedStorage", s.MaxAllocatedStorage != nil && aws.ToInt32(inst.MaxAllocatedStorage) != *s.MaxAllocatedStorage, func() { in.MaxAllocatedStorage = s.MaxAllocatedStorage })
	if change("storageType", s.StorageType != "" && target(inst.StorageType, p.StorageType) != s.StorageType, func() { in.StorageType = aws.String(s.StorageType) }) {
		// A change of storage type takes the new type's IOPS and throughput along.
		in.Iops, in.StorageThroughput = s.Iops, s.StorageThroughput
	}
	change("iops", s.Iops != nil && target(inst.Iops, p.Iops) != *s.Iops, func() { in.Iops = s.Iops })
	change("storageThroughput", s.StorageThroughput != nil && target(inst.StorageThroughput, p.StorageThroughput) != *s.StorageThroughput, func() { in.StorageThroughput = s.StorageThroughput })
	change("multiAZ", target(inst.MultiAZ, p.MultiAZ) != s.MultiAZ, func() { in.MultiAZ = aws.Bool(s.MultiAZ) })
	change("backupRetentionPeriod", s.BackupRetentionPeriod != nil && target(inst.BackupRetentionPeriod, p.BackupRetentionPeriod) != *s.BackupRetentionPeriod,
		func() { in.BackupRetentionPeriod = s.BackupRetentionPeriod })
	change("preferredBackupWindow", s.PreferredBackupWindow != "" && !strings.EqualFold(aws.ToString(inst.PreferredBackupWindow), s.PreferredBackupWindow),
		func() { in.PreferredBackupWindow = aws.String(s.PreferredBackupWindow) })
	change("preferredMaintenanceWindow", s.PreferredMaintenanceWindow != "" && !strings.EqualFold(aws.ToString(inst.PreferredMaintenanceWindow), s.PreferredMaintenanceWindow),
		func() { in.PreferredMaintenanceWindow = aws.String(s.PreferredMaintenanceWindow) })
	change("port", s.Port != nil && inst.Endpoint != nil && target(inst.Endpoint.Port, p.Port) != *s.Port, func() { in.DBPortNumber = s.Port })
	change("vpcSecurityGroupIDs", len(s.VPCSecurityGroupIDs) > 0 && !managed.SameSet(s.VPCSecurityGroupIDs, securityGroups(inst)), func() { in.VpcSecurityGroupIds = s.VPCSecurityGroupIDs })
	change("dbSubnetGroupName", s.DBSubnetGroupName != "" && !strings.EqualFold(target(subnetGroup(inst), p.DBSubnetGroupName), s.DBSubnetGroupName),
		func() { in.DBSubnetGroupName = aws.String(s.DBSubnetGroupName) })
	change("dbParameterGroupName", s.DBParameterGroupName != "" && !hasParameterGroup(inst, s.DBParameterGroupName), func() { in.DBParameterGroupName = aws.String(s.DBParameterGroupName) })
	change("optionGroupName", s.OptionGroupName != "" && !hasOptionGroup(inst, s.OptionGroupName, !s.ApplyImmediately), func() { in.OptionGroupName = aws.String(s.OptionGroupName) })
	change("publiclyAccessible", aws.ToBool(inst.PubliclyAccessible) != s.PubliclyAccessible, func() { in.PubliclyAccessible = aws.Bool(s.PubliclyAccessible) })
	change("autoMinorVersionUpgrade", s.AutoMinorVersionUpgrade != nil && aws.ToBool(inst.AutoMinorVersionUpgrade) != *s.AutoMinorVersionUpgrade,
		func() { in.AutoMinorVersionUpgrade = s.AutoMinorVersionUpgrade })
	change("copyTagsToSnapshot", aws.ToBool(inst.CopyTagsToSnapshot) != s.CopyTagsToSnapshot, func() { in.CopyTagsToSnapshot = aws.Bool(s.CopyTagsToSnapshot) })
	change("performanceInsights", s.PerformanceInsights != nil && !rdsinsights.Same(s.PerformanceInsights, inst), func() {
		in.EnablePerformanceInsights, in.PerformanceInsightsRetentionPeriod, in.PerformanceInsightsKMSKeyId = rdsinsights.Settings(s.PerformanceInsights)
	})
	change("deletionProtection", s.DeletionProtection != nil && aws.ToBool(inst.DeletionProtection) != *s.DeletionProtection, func() { in.DeletionProtection = s.DeletionProtection })
	return in, fields
}

// pending returns the values RDS keeps for the maintenance window that plan takes as the
// instance's: none with applyImmediately, as a change still pending on an available instance
// (left by an earlier applyImmediately false) is sent again, so that RDS applies it now.
func pending(s *v1alpha1.RDSInstanceSpec, inst *types.DBInstance) *types.PendingModifiedValues {
	if p := inst.PendingModifiedValues; p != nil && !s.ApplyImmediately {
		return p
	}
	return &types.PendingModifiedValues{}
}

// shown returns, by field, how a plan shows the settings plan compares: the value the instance
// has or will have (see plan) and the spec's, in the same form. The parameter and option groups
// (an instance may be in several, some pending) and Performance Insights (its key named by
// ARN, key ID or alias) are compared in a normal form, so theirs are not shown.
func shown(s *v1alpha1.RDSInstanceSpec, inst *types.DBInstance) map[string]managed.Values {
	p := pending(s, inst)
	var port int32
	if inst.Endpoint != nil {
		port = target(inst.Endpoint.Port, p.Port)
	}
	set := func(ids []string) []string {
		return slices.Compact(slices.Sorted(slices.Values(append([]string{}, ids...))))
	}
	return map[string]managed.Values{
		"dbInstanceClass":            managed.ValuesOf(target(inst.DBInstanceClass, p.DBInstanceClass), s.DBInstanceClass),
		"engineVersion":              managed.ValuesOf(target(inst.EngineVersion, p.EngineVersion), s.EngineVersion),
		"allocatedStorage":           managed.ValuesOf(target(inst.AllocatedStorage, p.AllocatedStorage), s.AllocatedStorage),
		"maxAllocatedStorage":        managed.ValuesOf(aws.ToInt32(inst.MaxAllocatedStorage), aws.ToInt32(s.MaxAllocatedStorage)),
		"storageType":                managed.ValuesOf(target(inst.StorageType, p.StorageType), s.StorageType),
		"iops":                       managed.ValuesOf(target(inst.Iops, p.Iops), aws.ToInt32(s.Iops)),
		"storageThroughput":          managed.ValuesOf(target(inst.StorageThroughput, p.StorageThroughput), aws.ToInt32(s.StorageThroughput)),
		"multiAZ":                    managed.ValuesOf(target(inst.MultiAZ, p.MultiAZ), s.MultiAZ),
		"backupRetentionPeriod":      managed.ValuesOf(target(inst.BackupRetentionPeriod, p.BackupRetentionPeriod), aws.ToInt32(s.BackupRetentionPeriod)),
		"preferredBackupWindow":      managed.ValuesOf(aws.ToString(inst.PreferredBackupWindow), s.PreferredBackupWindow),
		"preferredMaintenanceWindow": managed.ValuesOf(aws.ToString(inst.PreferredMaintenanceWindow), s.PreferredMaintenanceWindow),
		"port":                       managed.ValuesOf(port, aws.ToInt32(s.Port)),
		"vpcSecurityGroupIDs":        managed.ValuesOf(set(securityGroups(inst)), set(s.VPCSecurityGroupIDs)),
		"dbSubnetGroupName":          managed.ValuesOf(target(subnetGroup(inst), p.DBSubnetGroupName), s.DBSubnetGroupName),
		"publiclyAccessible":         managed.ValuesOf(aws.ToBool(inst.PubliclyAccessible), s.PubliclyAccessible),
		"autoMinorVersionUpgrade":    managed.ValuesOf(aws.ToBool(inst.AutoMinorVersionUpgrade), aws.ToBool(s.AutoMinorVersionUpgrade)),
		"copyTagsToSnapshot":         managed.ValuesOf(aws.ToBool(inst.CopyTagsToSnapshot), s.CopyTagsToSnapshot),
		"deletionProtection":         managed.ValuesOf(aws.ToBool(inst.DeletionProtection), aws.ToBool(s.DeletionProtection)),
	}
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

// sameVersion reports whether the engine version got is the version want asks for: the same,
// or a minor version of it ("14" asks for any 14.x).
func sameVersion(want, got string) bool {
	return got == want || strings.HasPrefix(got, want+".")
}

// securityGroups returns the VPC security groups of the instance, leaving out those being
// removed.
func securityGroups(inst *types.DBInstance) []string {
	var ids []string
	for _, g := range inst.VpcSecurityGroups {
		if aws.ToString(g.Status) != "removing" {
			ids = append(ids, aws.ToString(g.VpcSecurityGroupId))
		}
	}
	return ids
}

// subnetGroup returns the name of the instance's DB subnet group, or nil.
func subnetGroup(inst *types.DBInstance) *string {
	if inst.DBSubnetGroup == nil {
		return nil
	}
	return inst.DBSubnetGroup.DBSubnetGroupName
}

// hasParameterGroup reports whether the instance uses the DB parameter group name.
func hasParameterGroup(inst *types.DBInstance, name string) bool {
	return slices.ContainsFunc(inst.DBParameterGroups, func(g types.DBParameterGroupStatus) bool {
		return strings.EqualFold(aws.ToString(g.DBParameterGroupName), name)
	})
}

// hasOptionGroup reports whether the instance uses the option group name, or is about to
// (being applied, or pending when pending counts).
func hasOptionGroup(inst *types.DBInstance, name string, pending bool) bool {
	return slices.ContainsFunc(inst.OptionGroupMemberships, func(g types.OptionGroupMembership) bool {
		switch aws.ToString(g.Status) {
		case "pending-removal", "removing":
			return false
		case "pending-apply":
			return pending && strings.EqualFold(aws.ToString(g.OptionGroupName), name)
		}
		return strings.EqualFold(aws.ToString(g.OptionGroupName), name)
	})
}
