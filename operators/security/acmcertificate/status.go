package acmcertificate

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
)

// fillStatus copies what ACM said about the certificate into the status. The imported
// fingerprint is the driver's own record and is left as it is.
func fillStatus(c *v1alpha1.ACMCertificate, cert *types.CertificateDetail) {
	s := &c.Status
	s.ARN, s.Status, s.Type = aws.ToString(cert.CertificateArn), string(cert.Status), string(cert.Type)
	s.FailureReason = string(cert.FailureReason)
	s.DomainName, s.SubjectAlternativeNames = aws.ToString(cert.DomainName), cert.SubjectAlternativeNames
	s.KeyAlgorithm, s.Serial = string(cert.KeyAlgorithm), aws.ToString(cert.Serial)
	s.NotBefore, s.NotAfter = timeOf(cert.NotBefore), timeOf(cert.NotAfter)
	s.InUseBy = nil
	if len(cert.InUseBy) > 0 {
		s.InUseBy = cert.InUseBy
	}
	s.RenewalEligibility = string(cert.RenewalEligibility)
	s.DomainValidationOptions = nil
	for _, v := range cert.DomainValidationOptions {
		s.DomainValidationOptions = append(s.DomainValidationOptions, validation(v))
	}
}

// validation returns ACM's validation of one name as the status shows it.
func validation(v types.DomainValidation) v1alpha1.CertificateDomainValidation {
	out := v1alpha1.CertificateDomainValidation{DomainName: aws.ToString(v.DomainName), ValidationMethod: string(v.ValidationMethod),
		ValidationStatus: string(v.ValidationStatus), ValidationDomain: aws.ToString(v.ValidationDomain), ValidationEmails: v.ValidationEmails}
	if r := v.ResourceRecord; r != nil {
		out.ResourceRecord = &v1alpha1.CertificateResourceRecord{Name: aws.ToString(r.Name), Type: string(r.Type), Value: aws.ToString(r.Value)}
	}
	return out
}

// timeOf returns an AWS time as the status keeps it, nil when AWS gave none.
func timeOf(t *time.Time) *metav1.Time {
	if t == nil {
		return nil
	}
	m := metav1.NewTime(*t)
	return &m
}
