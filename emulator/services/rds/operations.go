package rds

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are RDS's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateDBInstance":          core.Op(b.createDBInstance),
		"DescribeDBInstances":       core.Op(b.describeDBInstances),
		"ModifyDBInstance":          core.Op(b.modifyDBInstance),
		"DeleteDBInstance":          core.Op(b.deleteDBInstance),
		"CreateDBSubnetGroup":       core.Op(b.createDBSubnetGroup),
		"DescribeDBSubnetGroups":    core.Op(b.describeDBSubnetGroups),
		"ModifyDBSubnetGroup":       core.Op(b.modifyDBSubnetGroup),
		"DeleteDBSubnetGroup":       core.Op(b.deleteDBSubnetGroup),
		"CreateDBParameterGroup":    core.Op(b.createDBParameterGroup),
		"DescribeDBParameterGroups": core.Op(b.describeDBParameterGroups),
		"DeleteDBParameterGroup":    core.Op(b.deleteDBParameterGroup),
		"CreateOptionGroup":         core.Op(b.createOptionGroup),
		"DescribeOptionGroups":      core.Op(b.describeOptionGroups),
		"DeleteOptionGroup":         core.Op(b.deleteOptionGroup),
		"DescribeDBSnapshots":       core.Op(b.describeDBSnapshots),
		"DeleteDBSnapshot":          core.Op(b.deleteDBSnapshot),
	}
}
