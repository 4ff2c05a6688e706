package dynamodb

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are DynamoDB's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateTable":               core.Op(b.createTable),
		"DescribeTable":             core.Op(b.describeTable),
		"UpdateTable":               core.Op(b.updateTable),
		"DeleteTable":               core.Op(b.deleteTable),
		"ListTables":                core.Op(b.listTables),
		"UpdateTimeToLive":          core.Op(b.updateTimeToLive),
		"DescribeTimeToLive":        core.Op(b.describeTimeToLive),
		"UpdateContinuousBackups":   core.Op(b.updateContinuousBackups),
		"DescribeContinuousBackups": core.Op(b.describeContinuousBackups),
	}
}
