package rds

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/rds"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// modifyDBCluster changes a cluster as AWS's "Modifying an Amazon Aurora DB cluster" describes:
// backups, windows, deletion protection, tags to snapshots, security groups, port, log exports,
// Serverless v2 capacity and the DB cluster parameter group apply at once (a new parameter group
// leaves the members pending-reboot); a new master password is reset in a
// resetting-master-credentials step (PendingModifiedValues.MasterUserPassword "****" meanwhile);
// an engine version upgrade waits for the maintenance window, or with ApplyImmediately is made
// in an upgrading step (PendingModifiedValues.EngineVersion until it ends).
func (b *Backend) modifyDBCluster(call *core.Call, in *rds.ModifyDBClusterInput) (*rds.ModifyDBClusterOutput, error) {
	return core.Locked(b.state, call, func(r *region) (*rds.ModifyDBClusterOutput, error) {
		c, err := clusterKind.available(r, in.DBClusterIdentifier, call.Now, func(c *cluster) error { return clusterState("DBCluster %s is not in available state.", c.id) })
		if err != nil {
			return nil, err
		}
		if in.NewDBClusterIdentifier != nil {
			return nil, invalidValue("The emulator does not support renaming DB clusters (NewDBClusterIdentifier).")
		}
		// Modify a copy, so that a request refused half-way changes nothing.
		next := *c
		paramsChanged, err := r.modifyCluster(&next, in)
		if err != nil {
			return nil, err
		}
		next.transition = call.Transition
		switch {
		case next.pendingVersion != nil && aws.ToBool(in.ApplyImmediately):
			next.life.Start(phase{status: statusUpgrading, applies: true}, call.Now, call.Transition)
		case next.passwordPending:
			next.life.Start(phase{status: statusResetting}, call.Now, call.Transition)
		}
		if next.pendingVersion != nil && !aws.ToBool(in.ApplyImmediately) {
			next.maintenanceAt = nextMaintenance(call.Now, next.maintenanceWindow)
		}
		switch before := c.secret; {
		case before == "" && next.secret != "":
			if err := b.createClusterSecret(r.scope, &next); err != nil {
				return nil, err
			}
		case before != "" && next.secret == "":
			b.deleteSecret(r.scope, before)
		}
		*c = next
		if paramsChanged {
			for _, i := range r.members(c, call.Now) {
				i.clusterParamStatus = "pending-reboot"
			}
		}
		out := r.describeCluster(c, call.Now)
		return &rds.ModifyDBClusterOutput{DBCluster: &out}, nil
	})
}

// modifyCluster validates a ModifyDBCluster request and makes its changes to c. paramsChanged
// reports a new DB cluster parameter group, which the members apply when they reboot.
func (r *region) modifyCluster(c *cluster, in *rds.ModifyDBClusterInput) (paramsChanged bool, err error) {
	if in.BackupRetentionPeriod != nil {
		if err := checkClusterRetention(*in.BackupRetentionPeriod); err != nil {
			return false, err
		}
		c.backupRetention = *in.BackupRetentionPeriod
	}
	if in.PreferredBackupWindow != nil || in.PreferredMaintenanceWindow != nil {
		if err := setWindows(&c.backupWindow, &c.maintenanceWindow, in.PreferredBackupWindow, in.PreferredMaintenanceWindow); err != nil {
			return false, err
		}
	}
	set(&c.deletionProtection, in.DeletionProtection)
	set(&c.copyTags, in.CopyTagsToSnapshot)
	if in.VpcSecurityGroupIds != nil {
		if err := checkSecurityGroups(in.VpcSecurityGroupIds); err != nil {
			return false, err
		}
		c.securityGroups = slices.Clone(in.VpcSecurityGroupIds)
	}
	if in.Port != nil {
		if *in.Port < 1150 || *in.Port > 65535 {
			return false, invalidValue("Invalid port %d: valid ports are 1150-65535.", *in.Port)
		}
		c.port = *in.Port
	}
	if in.ServerlessV2ScalingConfiguration != nil {
		if c.scaling, err = checkScaling(in.ServerlessV2ScalingConfiguration); err != nil {
			return false, err
		}
	}
	if l := in.CloudwatchLogsExportConfiguration; l != nil {
		if err := checkLogTypes(c.eng, append(slices.Clone(l.EnableLogTypes), l.DisableLogTypes...)); err != nil {
			return false, err
		}
		exports := slices.DeleteFunc(slices.Clone(c.logExports), func(t string) bool { return slices.Contains(l.DisableLogTypes, t) })
		for _, t := range l.EnableLogTypes {
			if !slices.Contains(exports, t) {
				exports = append(exports, t)
			}
		}
		c.logExports = exports
	}
	if paramsChanged, err = r.modifyClusterEngine(c, in); err != nil {
		return false, err
	}
	return paramsChanged, c.modifyPassword(r.scope, in)
}

// modifyClusterEngine stages an engine version upgrade (a major one needs
// AllowMajorVersionUpgrade, and a new DB cluster parameter group when the current one is custom),
// and changes the DB cluster parameter group.
func (r *region) modifyClusterEngine(c *cluster, in *rds.ModifyDBClusterInput) (paramsChanged bool, err error) {
	version := c.engineVersion
	if in.EngineVersion != nil {
		if version, err = c.eng.version(*in.EngineVersion); err != nil {
			return false, err
		}
		if versionLess(version, c.engineVersion) {
			return false, invalidCombination("Cannot upgrade %s from %s to %s", c.eng.name, c.engineVersion, version)
		}
		c.pendingVersion, c.pendingParamGroup = nil, nil
		if version != c.engineVersion {
			c.pendingVersion = aws.String(version)
		}
	}
	params := aws.ToString(in.DBClusterParameterGroupName)
	if c.eng.major(version) != c.eng.major(c.engineVersion) {
		if !aws.ToBool(in.AllowMajorVersionUpgrade) {
			return false, invalidCombination("The AllowMajorVersionUpgrade flag must be present when upgrading to a new major version.")
		}
		if params == "" && !strings.HasPrefix(c.paramGroup, "default.") {
			return false, invalidCombination("The current DB cluster parameter group %s is custom. You must explicitly specify a new DB cluster "+
				"parameter group, either default or custom, for the engine version upgrade.", c.paramGroup)
		}
		name, err := r.clusterParamGroupFor(c.eng, version, params)
		if err != nil {
			return false, err
		}
		c.pendingParamGroup = &name
		return false, nil
	}
	if params == "" {
		return false, nil
	}
	name, err := r.clusterParamGroupFor(c.eng, version, params)
	if err != nil || name == c.paramGroup {
		return false, err
	}
	c.paramGroup = name
	return true, nil
}

// modifyPassword sets a new master password (pending until the resetting step ends), or turns
// the management of the password by Secrets Manager on or off.
func (c *cluster) modifyPassword(scope core.Scope, in *rds.ModifyDBClusterInput) error {
	manage := in.ManageMasterUserPassword
	switch {
	case manage != nil && *manage && in.MasterUserPassword != nil:
		return invalidCombination("You can't specify MasterUserPassword when ManageMasterUserPassword is enabled.")
	case manage != nil && *manage && c.secret == "":
		c.manageSecret(scope, in.MasterUserSecretKmsKeyId)
		c.passwordPending = true
		return nil
	case manage != nil && !*manage && c.secret != "" && in.MasterUserPassword == nil:
		return invalidCombination("You must specify MasterUserPassword when you turn off ManageMasterUserPassword.")
	case in.MasterUserPassword == nil:
		return nil
	case c.secret != "" && (manage == nil || *manage):
		return invalidCombination("You can't specify MasterUserPassword for a DB cluster whose master user password is managed by Secrets Manager.")
	}
	if err := c.eng.checkPassword(*in.MasterUserPassword); err != nil {
		return err
	}
	c.masterPassword, c.secret, c.secretKMS, c.passwordPending = *in.MasterUserPassword, "", "", true
	return nil
}
