package eks

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are EKS's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"CreateCluster":             core.Op(b.createCluster),
		"DescribeCluster":           core.Op(b.describeCluster),
		"ListClusters":              core.Op(b.listClusters),
		"DeleteCluster":             core.Op(b.deleteCluster),
		"UpdateClusterConfig":       core.Op(b.updateClusterConfig),
		"UpdateClusterVersion":      core.Op(b.updateClusterVersion),
		"AssociateEncryptionConfig": core.Op(b.associateEncryptionConfig),
		"DescribeUpdate":            core.Op(b.describeUpdate),
		"ListUpdates":               core.Op(b.listUpdates),
		"CreateNodegroup":           core.Op(b.createNodegroup),
		"DescribeNodegroup":         core.Op(b.describeNodegroup),
		"ListNodegroups":            core.Op(b.listNodegroups),
		"UpdateNodegroupConfig":     core.Op(b.updateNodegroupConfig),
		"UpdateNodegroupVersion":    core.Op(b.updateNodegroupVersion),
		"DeleteNodegroup":           core.Op(b.deleteNodegroup),
		"CreateAddon":               core.Op(b.createAddon),
		"DescribeAddon":             core.Op(b.describeAddon),
		"ListAddons":                core.Op(b.listAddons),
		"UpdateAddon":               core.Op(b.updateAddon),
		"DeleteAddon":               core.Op(b.deleteAddon),
		"DescribeAddonVersions":     core.Op(b.describeAddonVersions),
		// Access entries and access policies (access.go, accessentry.go, accesspolicy.go).
		"CreateAccessEntry":            core.Op(b.createAccessEntry),
		"DescribeAccessEntry":          core.Op(b.describeAccessEntry),
		"UpdateAccessEntry":            core.Op(b.updateAccessEntry),
		"DeleteAccessEntry":            core.Op(b.deleteAccessEntry),
		"ListAccessEntries":            core.Op(b.listAccessEntries),
		"AssociateAccessPolicy":        core.Op(b.associateAccessPolicy),
		"DisassociateAccessPolicy":     core.Op(b.disassociateAccessPolicy),
		"ListAssociatedAccessPolicies": core.Op(b.listAssociatedAccessPolicies),
		"ListAccessPolicies":           core.Op(b.listAccessPolicies),
		// Pod Identity associations (podidentity.go).
		"CreatePodIdentityAssociation":   core.Op(b.createPodIdentityAssociation),
		"DescribePodIdentityAssociation": core.Op(b.describePodIdentityAssociation),
		"UpdatePodIdentityAssociation":   core.Op(b.updatePodIdentityAssociation),
		"DeletePodIdentityAssociation":   core.Op(b.deletePodIdentityAssociation),
		"ListPodIdentityAssociations":    core.Op(b.listPodIdentityAssociations),
	}
}
