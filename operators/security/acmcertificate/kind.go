// Package acmcertificate manages AWS Certificate Manager certificates for the ACMCertificate
// kind: public certificates requested with DNS or email validation (their validation records
// copied into the status for a DNS tool or a person to create, and the certificate Ready once
// ACM has issued it), and certificates imported from a Kubernetes TLS Secret, imported again
// into the same ARN whenever the Secret's certificate changes. The private key goes from the
// Secret to ACM only: it is never logged, kept or compared.
package acmcertificate

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// RecheckMin and RecheckMax bound how soon a certificate waiting for validation is looked at
// again: a quarter of its age, so that one whose records already exist (ACM validates it within
// a minute or two) is seen issued soon, and one that waits for days for a person costs few
// calls.
var (
	RecheckMin = 2 * time.Second
	RecheckMax = 5 * time.Minute
)

// Kind declares the ACMCertificate kind to the engine.
func Kind() managed.Kind[*v1alpha1.ACMCertificate, State] {
	return managed.Kind[*v1alpha1.ACMCertificate, State]{
		// ACM answers a request with a certificate pending validation, and an import with an
		// issued one, at once: the pass that creates one reports it.
		Connect: func(s *provider.Session, kube client.Reader) managed.Driver[*v1alpha1.ACMCertificate, State] {
			return &driver{api: provider.Client(s, "acm", func(c aws.Config) *acm.Client { return acm.NewFromConfig(c) }), kube: kube}
		},
		Secrets: func(c *v1alpha1.ACMCertificate) []string {
			if c.Spec.ImportFrom == nil {
				return nil
			}
			return []string{c.Spec.ImportFrom.SecretRef.Name}
		},
		Validate: validate,
	}
}

// validate refuses, before any AWS call, a request whose names ACM counts beyond its limit of
// 100 per certificate.
func validate(c *v1alpha1.ACMCertificate) error {
	if n := len(requestedNames(c)); n > maxNames {
		return fmt.Errorf("the certificate would cover %d names (domainName and subjectAlternativeNames); ACM allows %d", n, maxNames)
	}
	return nil
}

// driver manages one provider's certificates; kube reads the TLS Secrets of imported ones.
type driver struct {
	api  acmAPI
	kube client.Reader
}
