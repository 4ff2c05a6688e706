package ecr

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are ECR's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateRepository":              core.Op(b.createRepository),
		"DescribeRepositories":          core.Op(b.describeRepositories),
		"DeleteRepository":              core.Op(b.deleteRepository),
		"PutImageTagMutability":         core.Op(b.putImageTagMutability),
		"PutImageScanningConfiguration": core.Op(b.putImageScanningConfiguration),
		"PutLifecyclePolicy":            core.Op(b.putLifecyclePolicy),
		"GetLifecyclePolicy":            core.Op(b.getLifecyclePolicy),
		"DeleteLifecyclePolicy":         core.Op(b.deleteLifecyclePolicy),
		"SetRepositoryPolicy":           core.Op(b.setRepositoryPolicy),
		"GetRepositoryPolicy":           core.Op(b.getRepositoryPolicy),
		"DeleteRepositoryPolicy":        core.Op(b.deleteRepositoryPolicy),
		"PutImage":                      core.Op(b.putImage),
		"BatchGetImage":                 core.Op(b.batchGetImage),
		"InitiateLayerUpload":           core.Op(b.initiateLayerUpload),
		"UploadLayerPart":               core.Op(b.uploadLayerPart),
		"CompleteLayerUpload":           core.Op(b.completeLayerUpload),
		"BatchCheckLayerAvailability":   core.Op(b.batchCheckLayerAvailability),
		"ListImages":                    core.Op(b.listImages),
		"BatchDeleteImage":              core.Op(b.batchDeleteImage),
		"DescribeRegistry":              core.Op(b.describeRegistry),
		"PutReplicationConfiguration":   core.Op(b.putReplicationConfiguration),
	}
}
