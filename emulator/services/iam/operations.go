package iam

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are IAM's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateRole":                              core.Op(b.createRole),
		"GetRole":                                 core.Op(b.getRole),
		"UpdateRole":                              core.Op(b.updateRole),
		"UpdateRoleDescription":                   core.Op(b.updateRoleDescription),
		"UpdateAssumeRolePolicy":                  core.Op(b.updateAssumeRolePolicy),
		"DeleteRole":                              core.Op(b.deleteRole),
		"ListRoles":                               core.Op(b.listRoles),
		"PutRolePermissionsBoundary":              core.Op(b.putRolePermissionsBoundary),
		"DeleteRolePermissionsBoundary":           core.Op(b.deleteRolePermissionsBoundary),
		"CreatePolicy":                            core.Op(b.createPolicy),
		"GetPolicy":                               core.Op(b.getPolicy),
		"DeletePolicy":                            core.Op(b.deletePolicy),
		"ListPolicies":                            core.Op(b.listPolicies),
		"CreatePolicyVersion":                     core.Op(b.createPolicyVersion),
		"GetPolicyVersion":                        core.Op(b.getPolicyVersion),
		"DeletePolicyVersion":                     core.Op(b.deletePolicyVersion),
		"ListPolicyVersions":                      core.Op(b.listPolicyVersions),
		"SetDefaultPolicyVersion":                 core.Op(b.setDefaultPolicyVersion),
		"AttachRolePolicy":                        core.Op(b.attachRolePolicy),
		"DetachRolePolicy":                        core.Op(b.detachRolePolicy),
		"ListAttachedRolePolicies":                core.Op(b.listAttachedRolePolicies),
		"PutRolePolicy":                           core.Op(b.putRolePolicy),
		"GetRolePolicy":                           core.Op(b.getRolePolicy),
		"DeleteRolePolicy":                        core.Op(b.deleteRolePolicy),
		"ListRolePolicies":                        core.Op(b.listRolePolicies),
		"CreateInstanceProfile":                   core.Op(b.createInstanceProfile),
		"GetInstanceProfile":                      core.Op(b.getInstanceProfile),
		"DeleteInstanceProfile":                   core.Op(b.deleteInstanceProfile),
		"AddRoleToInstanceProfile":                core.Op(b.addRoleToInstanceProfile),
		"RemoveRoleFromInstanceProfile":           core.Op(b.removeRoleFromInstanceProfile),
		"ListInstanceProfilesForRole":             core.Op(b.listInstanceProfilesForRole),
		"CreateOpenIDConnectProvider":             core.Op(b.createOpenIDConnectProvider),
		"GetOpenIDConnectProvider":                core.Op(b.getOpenIDConnectProvider),
		"DeleteOpenIDConnectProvider":             core.Op(b.deleteOpenIDConnectProvider),
		"ListOpenIDConnectProviders":              core.Op(b.listOpenIDConnectProviders),
		"AddClientIDToOpenIDConnectProvider":      core.Op(b.addClientIDToOpenIDConnectProvider),
		"RemoveClientIDFromOpenIDConnectProvider": core.Op(b.removeClientIDFromOpenIDConnectProvider),
		"UpdateOpenIDConnectProviderThumbprint":   core.Op(b.updateOpenIDConnectProviderThumbprint),
	}
}
