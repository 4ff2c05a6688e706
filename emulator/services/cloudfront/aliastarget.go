package cloudfront

import (
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// hostedZone is the Route 53 hosted zone of every distribution's domain name.
const hostedZone = "Z2FDTNDATAQYW2"

// AliasZone returns CloudFront's hosted zone when the account owner has a distribution whose domain
// name is name, for the emulated Route 53's checks of alias targets.
func (b *Backend) AliasZone(owner, name string) (zone string, ok bool) {
	return core.Search(b.state, owner, func(a *account) (string, bool) {
		for _, d := range a.distributions {
			if strings.EqualFold(d.domain, name) {
				return hostedZone, true
			}
		}
		return "", false
	})
}
