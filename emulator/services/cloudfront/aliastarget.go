package cloudfront

import "strings"

// hostedZone is the Route 53 hosted zone of every distribution's domain name.
const hostedZone = "Z2FDTNDATAQYW2"

// AliasZone returns CloudFront's hosted zone when the account has a distribution whose domain
// name is name, for the emulated Route 53's checks of alias targets.
func (b *Backend) AliasZone(account, name string) (zone string, ok bool) {
	for scope, a := range b.state.All() {
		if scope.Account != account {
			continue
		}
		for _, d := range a.distributions {
			if strings.EqualFold(d.domain, name) {
				return hostedZone, true
			}
		}
	}
	return "", false
}
