package apigateway

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are API Gateway's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateRestApi":         core.Op(b.createRestAPI),
		"GetRestApi":            core.Op(b.getRestAPI),
		"GetRestApis":           core.Op(b.getRestAPIs),
		"UpdateRestApi":         core.Op(b.updateRestAPI),
		"DeleteRestApi":         core.Op(b.deleteRestAPI),
		"GetResources":          core.Op(b.getResources),
		"GetResource":           core.Op(b.getResource),
		"CreateResource":        core.Op(b.createResource),
		"DeleteResource":        core.Op(b.deleteResource),
		"PutMethod":             core.Op(b.putMethod),
		"GetMethod":             core.Op(b.getMethod),
		"UpdateMethod":          core.Op(b.updateMethod),
		"DeleteMethod":          core.Op(b.deleteMethod),
		"PutIntegration":        core.Op(b.putIntegration),
		"GetIntegration":        core.Op(b.getIntegration),
		"UpdateIntegration":     core.Op(b.updateIntegration),
		"DeleteIntegration":     core.Op(b.deleteIntegration),
		"CreateDeployment":      core.Op(b.createDeployment),
		"GetDeployment":         core.Op(b.getDeployment),
		"GetDeployments":        core.Op(b.getDeployments),
		"DeleteDeployment":      core.Op(b.deleteDeployment),
		"CreateStage":           core.Op(b.createStage),
		"GetStage":              core.Op(b.getStage),
		"GetStages":             core.Op(b.getStages),
		"UpdateStage":           core.Op(b.updateStage),
		"DeleteStage":           core.Op(b.deleteStage),
		"CreateDomainName":      core.Op(b.createDomainName),
		"GetDomainName":         core.Op(b.getDomainName),
		"GetDomainNames":        core.Op(b.getDomainNames),
		"UpdateDomainName":      core.Op(b.updateDomainName),
		"DeleteDomainName":      core.Op(b.deleteDomainName),
		"CreateBasePathMapping": core.Op(b.createBasePathMapping),
		"GetBasePathMapping":    core.Op(b.getBasePathMapping),
		"GetBasePathMappings":   core.Op(b.getBasePathMappings),
		"DeleteBasePathMapping": core.Op(b.deleteBasePathMapping),
		"CreateVpcLink":         core.Op(b.createVpcLink),
		"GetVpcLink":            core.Op(b.getVpcLink),
		"GetVpcLinks":           core.Op(b.getVpcLinks),
		"DeleteVpcLink":         core.Op(b.deleteVpcLink),
	}
}
