package rdsinstance

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// plan compares the instance's modifiable settings with the spec. It returns the
// ModifyDBInstance request that brings the instance in line (only the differing fields are
// set; the caller adds the identifier and ApplyImmediately) and the names of the fields that
// differ. A setting the spec leaves unset is not managed. When applyImmediately is false, a
// setting whose spec value is already pending (RDS keeps it for the maintenance window) does
// not differ, so it is not sent again on every reconcile. Tags and the password are compared
// by Observe.
func plan(s *v1alpha1.RDSInstanceSpec, inst *types.DBInstance) (*rds.ModifyDBInstanceInput, managed.Diff) {
	p := inst.PendingModifiedValues
	if p == nil || s.ApplyImmediately {
		// With applyImmediately, a change still pending on an available instance (left by an
		// earlier applyImmediately false) is sent again, so that RDS applies it now.
		p = &types.PendingModifiedValues{}
	}
	in := &rds.ModifyDBInstanceInput{}
	var d managed.Diff
	if d.Check("dbInstanceClass", target(inst.DBInstanceClass, p.DBInstanceClass) != s.DBInstanceClass) {
		in.DBInstanceClass = aws.String(s.DBInstanceClass)
	}
	if s.EngineVersion != "" && d.Check("engineVersion", !sameVersion(s.EngineVersion, target(inst.EngineVersion, p.EngineVersion))) {
		// The spec's version is the user's explicit choice, so a major upgrade is allowed.
		in.EngineVersion, in.AllowMajorVersionUpgrade = aws.String(s.EngineVersion), aws.Bool(true)
	}
	if d.Check("allocatedStorage", target(inst.AllocatedStorage, p.AllocatedStorage) < s.AllocatedStorage) {
		// Storage autoscaling may have grown the volume beyond the spec; it never shrinks.
		in.AllocatedStorage = aws.Int32(s.AllocatedStorage)
	}
	if s.MaxAllocatedStorage != nil && d.Check("maxAllocatedStorage", aws.ToInt32(inst.MaxAllocatedStorage) != *s.MaxAllocatedStorage) {
		in.MaxAllocatedStorage = s.MaxAllocatedStorage
	}
	storageTypeChanges := s.StorageType != "" && d.Check("storageType", target(inst.StorageType, p.StorageType) != s.StorageType)
	if storageTypeChanges {
		in.StorageType = aws.String(s.StorageType)
	}
	if s.Iops != nil && (d.Check("iops", target(inst.Iops, p.Iops) != *s.Iops) || storageTypeChanges) {
		in.Iops = s.Iops // A change of storage type takes the new type's IOPS along.
	}
	if s.StorageThroughput != nil && (d.Check("storageThroughput", target(inst.StorageThroughput, p.StorageThroughput) != *s.StorageThroughput) || storageTypeChanges) {
		in.StorageThroughput = s.StorageThroughput
	}
	if d.Check("multiAZ", target(inst.MultiAZ, p.MultiAZ) != s.MultiAZ) {
		in.MultiAZ = aws.Bool(s.MultiAZ)
	}
	if s.BackupRetentionPeriod != nil && d.Check("backupRetentionPeriod", target(inst.BackupRetentionPeriod, p.BackupRetentionPeriod) != *s.BackupRetentionPeriod) {
		in.BackupRetentionPeriod = s.BackupRetentionPeriod
	}
	if s.PreferredBackupWindow != "" && d.Check("preferredBackupWindow", !strings.EqualFold(aws.ToString(inst.PreferredBackupWindow), s.PreferredBackupWindow)) {
		in.PreferredBackupWindow = aws.String(s.PreferredBackupWindow)
	}
	if s.PreferredMaintenanceWindow != "" && d.Check("preferredMaintenanceWindow", !strings.EqualFold(aws.ToString(inst.PreferredMaintenanceWindow), s.PreferredMaintenanceWindow)) {
		in.PreferredMaintenanceWindow = aws.String(s.PreferredMaintenanceWindow)
	}
	if s.Port != nil && inst.Endpoint != nil && d.Check("port", target(inst.Endpoint.Port, p.Port) != *s.Port) {
		in.DBPortNumber = s.Port
	}
	if len(s.VPCSecurityGroupIDs) > 0 && d.Check("vpcSecurityGroupIDs", !managed.SameSet(s.VPCSecurityGroupIDs, securityGroups(inst))) {
		in.VpcSecurityGroupIds = s.VPCSecurityGroupIDs
	}
	if s.DBSubnetGroupName != "" && d.Check("dbSubnetGroupName", !strings.EqualFold(target(subnetGroup(inst), p.DBSubnetGroupName), s.DBSubnetGroupName)) {
		in.DBSubnetGroupName = aws.String(s.DBSubnetGroupName)
	}
	if s.DBParameterGroupName != "" && d.Check("dbParameterGroupName", !hasParameterGroup(inst, s.DBParameterGroupName)) {
		in.DBParameterGroupName = aws.String(s.DBParameterGroupName)
	}
	if s.OptionGroupName != "" && d.Check("optionGroupName", !hasOptionGroup(inst, s.OptionGroupName, !s.ApplyImmediately)) {
		in.OptionGroupName = aws.String(s.OptionGroupName)
	}
	if d.Check("publiclyAccessible", aws.ToBool(inst.PubliclyAccessible) != s.PubliclyAccessible) {
		in.PubliclyAccessible = aws.Bool(s.PubliclyAccessible)
	}
	if s.AutoMinorVersionUpgrade != nil && d.Check("autoMinorVersionUpgrade", aws.ToBool(inst.AutoMinorVersionUpgrade) != *s.AutoMinorVersionUpgrade) {
		in.AutoMinorVersionUpgrade = s.AutoMinorVersionUpgrade
	}
	if d.Check("copyTagsToSnapshot", aws.ToBool(inst.CopyTagsToSnapshot) != s.CopyTagsToSnapshot) {
		in.CopyTagsToSnapshot = aws.Bool(s.CopyTagsToSnapshot)
	}
	if pi := s.PerformanceInsights; pi != nil && d.Check("performanceInsights", !samePerformanceInsights(pi, inst)) {
		in.EnablePerformanceInsights = aws.Bool(pi.Enabled)
		if pi.Enabled {
			in.PerformanceInsightsRetentionPeriod = pi.RetentionPeriod
			if pi.KMSKeyID != "" {
				in.PerformanceInsightsKMSKeyId = aws.String(pi.KMSKeyID)
			}
		}
	}
	if s.DeletionProtection != nil && d.Check("deletionProtection", aws.ToBool(inst.DeletionProtection) != *s.DeletionProtection) {
		in.DeletionProtection = s.DeletionProtection
	}
	return in, d
}

// target returns the value a setting will have: its pending value, else its current one.
func target[T any](current, pending *T) T {
	if pending != nil {
		return *pending
	}
	var v T
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

// samePerformanceInsights reports whether the instance's Performance Insights match want; the
// retention period and key are compared only when want sets them.
func samePerformanceInsights(want *v1alpha1.RDSPerformanceInsights, inst *types.DBInstance) bool {
	if aws.ToBool(inst.PerformanceInsightsEnabled) != want.Enabled {
		return false
	}
	if !want.Enabled {
		return true
	}
	if want.RetentionPeriod != nil && aws.ToInt32(inst.PerformanceInsightsRetentionPeriod) != *want.RetentionPeriod {
		return false
	}
	return want.KMSKeyID == "" || sameKey(want.KMSKeyID, aws.ToString(inst.PerformanceInsightsKMSKeyId))
}

// sameKey reports whether the KMS key ARN got is the key want names by ARN, key ID or alias.
func sameKey(want, got string) bool {
	return got == want || strings.HasSuffix(got, "/"+want) || strings.HasSuffix(got, ":"+want)
}
