package acmcertificate

import (
	"cmp"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/acm/types"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
)

// maxNames is how many names ACM puts in one certificate at most, domainName included.
const maxNames = 100

// validationMethod returns the validation method the spec asks for, DNS unless it says.
func validationMethod(c *v1alpha1.ACMCertificate) types.ValidationMethod {
	return types.ValidationMethod(cmp.Or(c.Spec.ValidationMethod, string(types.ValidationMethodDns)))
}

// keyAlgorithm returns the key algorithm the spec asks for, RSA_2048 unless it says.
func keyAlgorithm(c *v1alpha1.ACMCertificate) types.KeyAlgorithm {
	return types.KeyAlgorithm(cmp.Or(c.Spec.KeyAlgorithm, string(types.KeyAlgorithmRsa2048)))
}

// transparency returns the certificate transparency logging preference the spec asks for,
// ENABLED unless it says.
func transparency(c *v1alpha1.ACMCertificate) types.CertificateTransparencyLoggingPreference {
	return types.CertificateTransparencyLoggingPreference(cmp.Or(c.Spec.CertificateTransparencyLoggingPreference,
		string(types.CertificateTransparencyLoggingPreferenceEnabled)))
}

// requestedNames returns every name a requested certificate covers, as ACM lists them: the
// domain name first, then the subject alternative names without repeats.
func requestedNames(c *v1alpha1.ACMCertificate) []string {
	names := []string{c.Spec.DomainName}
	for _, n := range c.Spec.SubjectAlternativeNames {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// idempotencyToken returns RequestCertificate's idempotency token for an object: its UID
// without the hyphens, 32 hexadecimal digits, which ACM's \w{1,32} accepts. A request repeated
// within the hour (its answer lost) answers the certificate of the first.
func idempotencyToken(uid k8stypes.UID) string {
	return strings.ReplaceAll(string(uid), "-", "")
}
