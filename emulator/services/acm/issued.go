package acm

import (
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/acm/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// IssuedNames returns the domain names (the domain first, then the other subject alternative
// names) of a certificate of scope that is ISSUED at time now, for the services that serve a
// certificate to viewers (CloudFront). ok is false when scope has no such certificate, or when it
// is pending validation, expired or otherwise not issued.
func (b *Backend) IssuedNames(scope core.Scope, arn string, now time.Time) (names []string, ok bool) {
	names = core.With(b.state, scope, func(r *region) []string {
		c, found := r.certs[arn]
		if !found || now.Before(c.readableAt) {
			return nil
		}
		c.settle(now)
		if c.status != types.CertificateStatusIssued {
			return nil
		}
		return slices.Clone(c.sans)
	})
	return names, names != nil
}
