// Package acmcertificate manages AWS Certificate Manager certificates for the ACMCertificate
// kind: public certificates requested with DNS or email validation (their validation records
// written into a Route 53 hosted zone the spec names, or copied into the status for a DNS tool
// or a person to create, and the certificate Ready once ACM has issued it), and certificates imported from a Kubernetes TLS Secret, imported again
// into the same ARN whenever the Secret's certificate changes. The private key goes from the
// Secret to ACM only: it is never logged, kept or compared.
package acmcertificate

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/targets"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/provider"
)

// Tunables are the ACMCertificate kind's timings; a zero field takes its default. Tests
// shorten them.
type Tunables struct {
	// RecheckMin and RecheckMax bound how soon a certificate waiting for validation is looked
	// at again (defaults 2s and 5m): a quarter of its age, so that one whose records already
	// exist (ACM validates it within a minute or two) is seen issued soon, and one that waits
	// for days for a person costs few calls.
	RecheckMin, RecheckMax time.Duration
}

// withDefaults returns t with its zero fields set to their defaults.
func (t Tunables) withDefaults() Tunables {
	if t.RecheckMin <= 0 {
		t.RecheckMin = 2 * time.Second
	}
	if t.RecheckMax <= 0 {
		t.RecheckMax = 5 * time.Minute
	}
	return t
}

// Kind declares the ACMCertificate kind to the engine, with the timings t.
func Kind(t Tunables) managed.Kind[*v1alpha1.ACMCertificate, State] {
	t = t.withDefaults()
	return managed.Kind[*v1alpha1.ACMCertificate, State]{
		// ACM answers a request with a certificate pending validation, and an import with an
		// issued one, at once: the pass that creates one reports it.
		Connect: func(s *provider.Session, kube client.Reader, _ *v1alpha1.ACMCertificate) managed.Driver[*v1alpha1.ACMCertificate, State] {
			return &driver{api: provider.Client(s, "acm", func(c aws.Config) *acm.Client { return acm.NewFromConfig(c) }),
				dns: provider.Client(s, "route53", func(c aws.Config) *route53.Client { return route53.NewFromConfig(c) }), kube: kube, timing: t}
		},
		References: []managed.Ref[*v1alpha1.ACMCertificate]{
			// The operator writes the validation records into the zone.
			managed.One(targets.Route53HostedZone, "spec.hostedZoneRef", func(c *v1alpha1.ACMCertificate) (*shared.Reference, *string) {
				return c.Spec.HostedZoneRef, &c.Spec.HostedZoneID
			}).Writing(),
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

// driver manages one provider's certificates; dns writes their validation records into hosted
// zones, kube reads the TLS Secrets of imported ones (and the namespace's certificates that
// share validation records), and timing paces the looks at certificates waiting for validation.
type driver struct {
	api    acmAPI
	dns    route53API
	kube   client.Reader
	timing Tunables
}
