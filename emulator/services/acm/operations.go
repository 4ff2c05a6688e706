package acm

import "github.com/runner-codes/infra-operator/emulator/internal/core"

// operations are ACM's operations by name.
func (b *Backend) operations() map[string]core.Operation {
	return map[string]core.Operation{
		"RequestCertificate":        core.Op(b.requestCertificate),
		"DescribeCertificate":       core.Op(b.describeCertificate),
		"ListCertificates":          core.Op(b.listCertificates),
		"GetCertificate":            core.Op(b.getCertificate),
		"ImportCertificate":         core.Op(b.importCertificate),
		"DeleteCertificate":         core.Op(b.deleteCertificate),
		"AddTagsToCertificate":      core.Op(b.addTagsToCertificate),
		"RemoveTagsFromCertificate": core.Op(b.removeTagsFromCertificate),
		"UpdateCertificateOptions":  core.Op(b.updateCertificateOptions),
	}
}
