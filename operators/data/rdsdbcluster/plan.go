package rdsdbcluster

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"
	"github.com/aws/aws-sdk-go-v2/service/rds/types"

	"github.com/runner-codes/infra-operator/operators/data/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/data/internal/rdspassword"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// planModify plans one ModifyDBCluster with the cluster's settings that differ from the spec
// (see plan) and the password: the Secret's when it changed since it was last applied, or the
// switch between a password of a Secret and one RDS manages in Secrets Manager. Changes apply
// now or in the maintenance window as spec.applyImmediately says. The password's version is
// recorded once RDS has taken it. The plan shows the values of the settings, never the
// password's.
func (d *driver) planModify(changes *managed.Plan, c *v1alpha1.RDSDBCluster, cl *types.DBCluster, pw rdspassword.Password) {
	s := &c.Spec
	in, fields, shown := plan(s, cl)
	managedByRDS := cl.MasterUserSecret != nil
	switch {
	case s.ManageMasterUserPassword && !managedByRDS:
		in.ManageMasterUserPassword, in.MasterUserSecretKmsKeyId = aws.Bool(true), optional(s.MasterUserSecretKMSKeyID)
		fields = append(fields, "manageMasterUserPassword")
	case !s.ManageMasterUserPassword && managedByRDS:
		in.ManageMasterUserPassword, in.MasterUserPassword = aws.Bool(false), aws.String(pw.Value)
		fields = append(fields, "manageMasterUserPassword", "masterUserPassword")
	case !s.ManageMasterUserPassword && pw.Version != c.Status.MasterUserPasswordVersion:
		in.MasterUserPassword, fields = aws.String(pw.Value), append(fields, "masterUserPassword")
	}
	id := aws.ToString(cl.DBClusterIdentifier)
	in.DBClusterIdentifier, in.ApplyImmediately = aws.String(id), aws.Bool(s.ApplyImmediately)
	changes.AddFieldValues(fields, shown, func(ctx context.Context) error {
		if _, err := d.api.ModifyDBCluster(ctx, in); err != nil {
			if w := groupError(s, err); w != nil {
				return w
			}
			return fmt.Errorf("modify DB cluster %s (%s): %w", id, strings.Join(fields, ", "), err)
		}
		if in.MasterUserPassword != nil {
			c.Status.MasterUserPasswordVersion = pw.Version
		}
		return nil
	})
}

// plan compares the cluster's modifiable settings with the spec. It returns the
// ModifyDBCluster request that brings the cluster in line (only the differing fields are set),
// the names of the fields that differ, and how a plan shows each (AWS's value and the spec's).
// A setting the spec leaves unset is not managed. When applyImmediately is false, a setting
// whose spec value is already pending does not differ, so it is not sent again on every pass.
func plan(s *v1alpha1.RDSDBClusterSpec, cl *types.DBCluster) (*rds.ModifyDBClusterInput, []string, map[string]managed.Values) {
	p := &types.ClusterPendingModifiedValues{}
	if cl.PendingModifiedValues != nil && !s.ApplyImmediately {
		p = cl.PendingModifiedValues
	}
	in := &rds.ModifyDBClusterInput{}
	var fields []string
	shown := map[string]managed.Values{}
	// change records field, with the values shown, and sets it in the request when it differs.
	change := func(field string, differs bool, current, desired any, set func()) {
		if differs {
			fields, shown[field] = append(fields, field), managed.ValuesOf(current, desired)
			set()
		}
	}
	version := target(cl.EngineVersion, p.EngineVersion)
	// The spec's version is the user's explicit choice, so a major upgrade is allowed.
	change("engineVersion", s.EngineVersion != "" && version != s.EngineVersion && !strings.HasPrefix(version, s.EngineVersion+"."), version, s.EngineVersion, func() {
		in.EngineVersion, in.AllowMajorVersionUpgrade = aws.String(s.EngineVersion), aws.Bool(true)
	})
	retention := target(cl.BackupRetentionPeriod, p.BackupRetentionPeriod)
	change("backupRetentionPeriod", s.BackupRetentionPeriod != nil && retention != *s.BackupRetentionPeriod, retention, aws.ToInt32(s.BackupRetentionPeriod),
		func() { in.BackupRetentionPeriod = s.BackupRetentionPeriod })
	change("preferredBackupWindow", s.PreferredBackupWindow != "" && !strings.EqualFold(aws.ToString(cl.PreferredBackupWindow), s.PreferredBackupWindow),
		aws.ToString(cl.PreferredBackupWindow), s.PreferredBackupWindow, func() { in.PreferredBackupWindow = aws.String(s.PreferredBackupWindow) })
	change("preferredMaintenanceWindow", s.PreferredMaintenanceWindow != "" && !strings.EqualFold(aws.ToString(cl.PreferredMaintenanceWindow), s.PreferredMaintenanceWindow),
		aws.ToString(cl.PreferredMaintenanceWindow), s.PreferredMaintenanceWindow, func() { in.PreferredMaintenanceWindow = aws.String(s.PreferredMaintenanceWindow) })
	change("port", s.Port != nil && aws.ToInt32(cl.Port) != *s.Port, aws.ToInt32(cl.Port), aws.ToInt32(s.Port), func() { in.Port = s.Port })
	groups := securityGroups(cl)
	change("vpcSecurityGroupIDs", len(s.VPCSecurityGroupIDs) > 0 && !managed.SameSet(s.VPCSecurityGroupIDs, groups), sorted(groups), sorted(s.VPCSecurityGroupIDs),
		func() { in.VpcSecurityGroupIds = s.VPCSecurityGroupIDs })
	change("dbClusterParameterGroupName", s.DBClusterParameterGroupName != "" && !strings.EqualFold(aws.ToString(cl.DBClusterParameterGroup), s.DBClusterParameterGroupName),
		aws.ToString(cl.DBClusterParameterGroup), s.DBClusterParameterGroupName, func() { in.DBClusterParameterGroupName = aws.String(s.DBClusterParameterGroupName) })
	change("deletionProtection", s.DeletionProtection != nil && aws.ToBool(cl.DeletionProtection) != *s.DeletionProtection,
		aws.ToBool(cl.DeletionProtection), aws.ToBool(s.DeletionProtection), func() { in.DeletionProtection = s.DeletionProtection })
	if want := scaling(s.ServerlessV2Scaling); want != nil {
		have := cl.ServerlessV2ScalingConfiguration
		differs := have == nil || aws.ToFloat64(have.MinCapacity) != aws.ToFloat64(want.MinCapacity) || aws.ToFloat64(have.MaxCapacity) != aws.ToFloat64(want.MaxCapacity)
		change("serverlessV2Scaling", differs, capacityRange(have), capacityRange(&types.ServerlessV2ScalingConfigurationInfo{MinCapacity: want.MinCapacity, MaxCapacity: want.MaxCapacity}),
			func() { in.ServerlessV2ScalingConfiguration = want })
	}
	return in, fields, shown
}

// scaling returns the Serverless v2 capacity range of a request for want, nil when the spec
// sets none.
func scaling(want *v1alpha1.RDSServerlessV2Scaling) *types.ServerlessV2ScalingConfiguration {
	if want == nil {
		return nil
	}
	return &types.ServerlessV2ScalingConfiguration{MinCapacity: aws.Float64(want.MinCapacity.Float()), MaxCapacity: aws.Float64(want.MaxCapacity.Float())}
}

// capacityRange shows a cluster's Serverless v2 capacity range as "min-max", "" when it has
// none.
func capacityRange(have *types.ServerlessV2ScalingConfigurationInfo) string {
	if have == nil {
		return ""
	}
	return fmt.Sprintf("%g-%g", aws.ToFloat64(have.MinCapacity), aws.ToFloat64(have.MaxCapacity))
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

// securityGroups returns the VPC security groups of the cluster, leaving out those being
// removed.
func securityGroups(cl *types.DBCluster) []string {
	var ids []string
	for _, g := range cl.VpcSecurityGroups {
		if aws.ToString(g.Status) != "removing" {
			ids = append(ids, aws.ToString(g.VpcSecurityGroupId))
		}
	}
	return ids
}

// sorted returns ids sorted, without duplicates, for a plan to show.
func sorted(ids []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(append([]string{}, ids...))))
}
