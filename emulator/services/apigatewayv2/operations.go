package apigatewayv2

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are API Gateway v2's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateApi":               core.Op(b.createAPI),
		"GetApi":                  core.Op(b.getAPI),
		"GetApis":                 core.Op(b.getAPIs),
		"UpdateApi":               core.Op(b.updateAPI),
		"DeleteApi":               core.Op(b.deleteAPI),
		"DeleteCorsConfiguration": core.Op(b.deleteCORS),
		"CreateRoute":             core.Op(b.createRoute),
		"GetRoute":                core.Op(b.getRoute),
		"GetRoutes":               core.Op(b.getRoutes),
		"UpdateRoute":             core.Op(b.updateRoute),
		"DeleteRoute":             core.Op(b.deleteRoute),
		"CreateIntegration":       core.Op(b.createIntegration),
		"GetIntegration":          core.Op(b.getIntegration),
		"GetIntegrations":         core.Op(b.getIntegrations),
		"UpdateIntegration":       core.Op(b.updateIntegration),
		"DeleteIntegration":       core.Op(b.deleteIntegration),
		"CreateStage":             core.Op(b.createStage),
		"GetStage":                core.Op(b.getStage),
		"GetStages":               core.Op(b.getStages),
		"UpdateStage":             core.Op(b.updateStage),
		"DeleteStage":             core.Op(b.deleteStage),
		"DeleteAccessLogSettings": core.Op(b.deleteAccessLogSettings),
		"CreateDeployment":        core.Op(b.createDeployment),
		"GetDeployment":           core.Op(b.getDeployment),
		"GetDeployments":          core.Op(b.getDeployments),
		"DeleteDeployment":        core.Op(b.deleteDeployment),
		"CreateVpcLink":           core.Op(b.createVpcLink),
		"GetVpcLink":              core.Op(b.getVpcLink),
		"GetVpcLinks":             core.Op(b.getVpcLinks),
		"DeleteVpcLink":           core.Op(b.deleteVpcLink),
		"CreateDomainName":        core.Op(b.createDomainName),
		"GetDomainName":           core.Op(b.getDomainName),
		"GetDomainNames":          core.Op(b.getDomainNames),
		"UpdateDomainName":        core.Op(b.updateDomainName),
		"DeleteDomainName":        core.Op(b.deleteDomainName),
		"CreateApiMapping":        core.Op(b.createAPIMapping),
		"GetApiMapping":           core.Op(b.getAPIMapping),
		"GetApiMappings":          core.Op(b.getAPIMappings),
		"UpdateApiMapping":        core.Op(b.updateAPIMapping),
		"DeleteApiMapping":        core.Op(b.deleteAPIMapping),
	}
}
