package lambda

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are Lambda's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateFunction":               core.Op(b.createFunction),
		"GetFunction":                  core.Op(b.getFunction),
		"GetFunctionConfiguration":     core.Op(b.getFunctionConfiguration),
		"UpdateFunctionConfiguration":  core.Op(b.updateFunctionConfiguration),
		"UpdateFunctionCode":           core.Op(b.updateFunctionCode),
		"DeleteFunction":               core.Op(b.deleteFunction),
		"ListFunctions":                core.Op(b.listFunctions),
		"PublishVersion":               core.Op(b.publishVersion),
		"ListVersionsByFunction":       core.Op(b.listVersionsByFunction),
		"PutFunctionConcurrency":       core.Op(b.putFunctionConcurrency),
		"GetFunctionConcurrency":       core.Op(b.getFunctionConcurrency),
		"DeleteFunctionConcurrency":    core.Op(b.deleteFunctionConcurrency),
		"CreateFunctionUrlConfig":      core.Op(b.createFunctionURLConfig),
		"GetFunctionUrlConfig":         core.Op(b.getFunctionURLConfig),
		"UpdateFunctionUrlConfig":      core.Op(b.updateFunctionURLConfig),
		"DeleteFunctionUrlConfig":      core.Op(b.deleteFunctionURLConfig),
		"ListFunctionUrlConfigs":       core.Op(b.listFunctionURLConfigs),
		"AddPermission":                core.Op(b.addPermission),
		"RemovePermission":             core.Op(b.removePermission),
		"GetPolicy":                    core.Op(b.getPolicy),
		"GetFunctionCodeSigningConfig": core.Op(b.getFunctionCodeSigningConfig),
		"ListAliases":                  core.Op(b.listAliases),
		"CreateAlias":                  core.Op(b.createAlias),
		"GetAlias":                     core.Op(b.getAlias),
		"UpdateAlias":                  core.Op(b.updateAlias),
		"DeleteAlias":                  core.Op(b.deleteAlias),
		"CreateEventSourceMapping":     core.Op(b.createEventSourceMapping),
		"GetEventSourceMapping":        core.Op(b.getEventSourceMapping),
		"UpdateEventSourceMapping":     core.Op(b.updateEventSourceMapping),
		"DeleteEventSourceMapping":     core.Op(b.deleteEventSourceMapping),
		"ListEventSourceMappings":      core.Op(b.listEventSourceMappings),
	}
}
