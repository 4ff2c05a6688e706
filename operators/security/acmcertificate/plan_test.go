package acmcertificate

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// TestMismatch checks that a certificate found under the object's ARN is accepted when it is
// what the spec describes (names compared as sets, without regard to case, the defaults
// applied) and refused, naming the difference, when ACM could not change it to match.
func TestMismatch(t *testing.T) {
	requested := func(mutate func(*v1alpha1.ACMCertificateSpec)) *v1alpha1.ACMCertificate {
		c := &v1alpha1.ACMCertificate{Spec: v1alpha1.ACMCertificateSpec{DomainName: "example.com", SubjectAlternativeNames: []string{"www.example.com"}}}
		if mutate != nil {
			mutate(&c.Spec)
		}
		return c
	}
	issued := func(mutate func(*types.CertificateDetail)) *types.CertificateDetail {
		d := &types.CertificateDetail{CertificateArn: aws.String("arn:aws:acm:us-east-1:000000000000:certificate/1"), Type: types.CertificateTypeAmazonIssued,
			DomainName: aws.String("example.com"), SubjectAlternativeNames: []string{"example.com", "www.example.com"}, KeyAlgorithm: types.KeyAlgorithmRsa2048,
			DomainValidationOptions: []types.DomainValidation{{DomainName: aws.String("example.com"), ValidationMethod: types.ValidationMethodDns}}}
		if mutate != nil {
			mutate(d)
		}
		return d
	}
	imported := &v1alpha1.ACMCertificate{Spec: v1alpha1.ACMCertificateSpec{ImportFrom: &v1alpha1.ACMCertificateImport{}}}
	cases := map[string]struct {
		c    *v1alpha1.ACMCertificate
		cert *types.CertificateDetail
		text string // held by the refusal; "" means none
	}{
		"Same":      {c: requested(nil), cert: issued(nil)},
		"OtherCase": {c: requested(func(s *v1alpha1.ACMCertificateSpec) { s.DomainName = "Example.COM" }), cert: issued(nil)},
		"DomainTwice": {c: requested(func(s *v1alpha1.ACMCertificateSpec) {
			s.SubjectAlternativeNames = []string{"www.example.com", "example.com"}
		}), cert: issued(nil)},
		"OtherNames": {c: requested(nil), cert: issued(func(d *types.CertificateDetail) { d.SubjectAlternativeNames = []string{"example.com"} }),
			text: "names example.com, not example.com,www.example.com"},
		"OtherKey": {c: requested(func(s *v1alpha1.ACMCertificateSpec) { s.KeyAlgorithm = "EC_prime256v1" }), cert: issued(nil),
			text: "key algorithm RSA_2048, not EC_prime256v1"},
		"OtherMethod": {c: requested(func(s *v1alpha1.ACMCertificateSpec) { s.ValidationMethod = "EMAIL" }), cert: issued(nil),
			text: "validation method DNS, not EMAIL"},
		"ImportedForRequest": {c: requested(nil), cert: issued(func(d *types.CertificateDetail) { d.Type = types.CertificateTypeImported }),
			text: "type IMPORTED, not AMAZON_ISSUED"},
		"RequestedForImport": {c: imported, cert: issued(nil), text: "type AMAZON_ISSUED, not IMPORTED"},
		"Imported":           {c: imported, cert: issued(func(d *types.CertificateDetail) { d.Type = types.CertificateTypeImported })},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := mismatch(tc.c, tc.cert)
			if tc.text == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			term, ok := managed.AsTerminal(err)
			if !ok || term.Reason != condition.ReasonInvalidSpec || !strings.Contains(err.Error(), tc.text) || !strings.Contains(err.Error(), "create a new ACMCertificate") {
				t.Errorf("got %v, want an InvalidSpec refusal holding %q and the way out", err, tc.text)
			}
		})
	}
}
