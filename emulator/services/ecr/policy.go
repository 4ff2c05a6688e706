package ecr

import (
	"encoding/json"

	"github.com/aws/aws-sdk-go-v2/service/ecr"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// badPolicy is AWS's answer to a repository policy that is not a resource policy.
var badPolicy = invalidParameter("PolicyText", "Invalid repository policy provided")

// checkPolicy returns the error AWS gives a repository policy text, or nil: it must be at most
// 10,240 characters of a JSON policy document whose Statement is a statement or a non-empty
// list of them, each with Effect Allow or Deny, a Principal (it is a resource policy) and an
// Action. The emulator does not check the actions' names.
func checkPolicy(text string) error {
	if len(text) > 10240 {
		return invalidParameter("policyText", "must have length less than or equal to 10240")
	}
	type statement struct {
		Effect    string          `json:"Effect"`
		Principal json.RawMessage `json:"Principal"`
		Action    json.RawMessage `json:"Action"`
	}
	list, ok := core.PolicyStatements[statement](text)
	if !ok || len(list) == 0 {
		return badPolicy
	}
	for _, s := range list {
		if (s.Effect != "Allow" && s.Effect != "Deny") || len(s.Principal) == 0 || len(s.Action) == 0 {
			return badPolicy
		}
	}
	return nil
}

// policyNotFound is AWS's answer to a repository without a policy.
func policyNotFound(r *repository) error {
	return core.Errorf("RepositoryPolicyNotFoundException",
		"Repository policy does not exist for the repository with name '%s' in the registry with id '%s'", r.name, r.registryID)
}

// setRepositoryPolicy sets a repository's policy.
func (b *Backend) setRepositoryPolicy(call *core.Call, in *ecr.SetRepositoryPolicyInput) (*ecr.SetRepositoryPolicyOutput, error) {
	return putDocument[ecr.SetRepositoryPolicyOutput](b, repositoryPolicy, call, in.RegistryId, in.RepositoryName, in.PolicyText)
}

// getRepositoryPolicy returns a repository's policy.
func (b *Backend) getRepositoryPolicy(call *core.Call, in *ecr.GetRepositoryPolicyInput) (*ecr.GetRepositoryPolicyOutput, error) {
	return readDocument[ecr.GetRepositoryPolicyOutput](b, repositoryPolicy, call, in.RegistryId, in.RepositoryName, false)
}

// deleteRepositoryPolicy removes a repository's policy and returns it.
func (b *Backend) deleteRepositoryPolicy(call *core.Call, in *ecr.DeleteRepositoryPolicyInput) (*ecr.DeleteRepositoryPolicyOutput, error) {
	return readDocument[ecr.DeleteRepositoryPolicyOutput](b, repositoryPolicy, call, in.RegistryId, in.RepositoryName, true)
}
