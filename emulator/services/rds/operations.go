package rds

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are RDS's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateDBInstance":                core.Op(b.createDBInstance),
		"DescribeDBInstances":             core.Op(b.describeDBInstances),
		"ModifyDBInstance":                core.Op(b.modifyDBInstance),
		"DeleteDBInstance":                core.Op(b.deleteDBInstance),
		"CreateDBSubnetGroup":             core.Op(b.createDBSubnetGroup),
		"DescribeDBSubnetGroups":          core.Op(b.describeDBSubnetGroups),
		"ModifyDBSubnetGroup":             core.Op(b.modifyDBSubnetGroup),
		"DeleteDBSubnetGroup":             core.Op(b.deleteDBSubnetGroup),
		"CreateDBParameterGroup":          core.Op(b.createDBParameterGroup),
		"DescribeDBParameterGroups":       core.Op(b.describeDBParameterGroups),
		"DeleteDBParameterGroup":          core.Op(b.deleteDBParameterGroup),
		"ModifyDBParameterGroup":          core.Op(b.modifyDBParameterGroup),
		"ResetDBParameterGroup":           core.Op(b.resetDBParameterGroup),
		"DescribeDBParameters":            core.Op(b.describeDBParameters),
		"RebootDBInstance":                core.Op(b.rebootDBInstance),
		"CreateDBSnapshot":                core.Op(b.createDBSnapshot),
		"CreateDBInstanceReadReplica":     core.Op(b.createDBInstanceReadReplica),
		"PromoteReadReplica":              core.Op(b.promoteReadReplica),
		"RestoreDBInstanceFromDBSnapshot": core.Op(b.restoreDBInstanceFromDBSnapshot),
		"RestoreDBInstanceToPointInTime":  core.Op(b.restoreDBInstanceToPointInTime),
		"CreateOptionGroup":               core.Op(b.createOptionGroup),
		"DescribeOptionGroups":            core.Op(b.describeOptionGroups),
		"DeleteOptionGroup":               core.Op(b.deleteOptionGroup),
		"DescribeDBSnapshots":             core.Op(b.describeDBSnapshots),
		"DeleteDBSnapshot":                core.Op(b.deleteDBSnapshot),
		// Aurora DB clusters and their parameter groups and snapshots.
		"CreateDBCluster":                  core.Op(b.createDBCluster),
		"DescribeDBClusters":               core.Op(b.describeDBClusters),
		"ModifyDBCluster":                  core.Op(b.modifyDBCluster),
		"DeleteDBCluster":                  core.Op(b.deleteDBCluster),
		"FailoverDBCluster":                core.Op(b.failoverDBCluster),
		"CreateDBClusterParameterGroup":    core.Op(b.createDBClusterParameterGroup),
		"DescribeDBClusterParameterGroups": core.Op(b.describeDBClusterParameterGroups),
		"ModifyDBClusterParameterGroup":    core.Op(b.modifyDBClusterParameterGroup),
		"ResetDBClusterParameterGroup":     core.Op(b.resetDBClusterParameterGroup),
		"DeleteDBClusterParameterGroup":    core.Op(b.deleteDBClusterParameterGroup),
		"DescribeDBClusterParameters":      core.Op(b.describeDBClusterParameters),
		"CreateDBClusterSnapshot":          core.Op(b.createDBClusterSnapshot),
		"DescribeDBClusterSnapshots":       core.Op(b.describeDBClusterSnapshots),
		"DeleteDBClusterSnapshot":          core.Op(b.deleteDBClusterSnapshot),
		"RestoreDBClusterFromSnapshot":     core.Op(b.restoreDBClusterFromSnapshot),
	}
}
