package cloudfront

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are CloudFront's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateDistribution":         core.Op(b.createDistribution),
		"CreateDistributionWithTags": core.Op(b.createDistributionWithTags),
		"GetDistribution":            core.Op(b.getDistribution),
		"GetDistributionConfig":      core.Op(b.getDistributionConfig),
		"UpdateDistribution":         core.Op(b.updateDistribution),
		"DeleteDistribution":         core.Op(b.deleteDistribution),
		"ListDistributions":          core.Op(b.listDistributions),
		"CreateOriginAccessControl":  core.Op(b.createOriginAccessControl),
		"GetOriginAccessControl":     core.Op(b.getOriginAccessControl),
		"UpdateOriginAccessControl":  core.Op(b.updateOriginAccessControl),
		"DeleteOriginAccessControl":  core.Op(b.deleteOriginAccessControl),
		"ListOriginAccessControls":   core.Op(b.listOriginAccessControls),
		"ListCachePolicies":          core.Op(b.listCachePolicies),
		"GetCachePolicy":             core.Op(b.getCachePolicy),
		"ListOriginRequestPolicies":  core.Op(b.listOriginRequestPolicies),
		"GetOriginRequestPolicy":     core.Op(b.getOriginRequestPolicy),
		"TagResource":                core.Op(b.tagResource),
	}
}
