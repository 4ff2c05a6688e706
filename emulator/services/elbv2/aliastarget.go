package elbv2

import (
	"strings"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// AliasZone returns the Route 53 hosted zone (the CanonicalHostedZoneId) of the load balancer of
// the account whose DNS name is name, in any region, for the emulated Route 53's checks of alias
// targets; ok is false when the account has none of that name.
func (b *Backend) AliasZone(account, name string) (zone string, ok bool) {
	return core.Search(b.state, account, func(r *region) (string, bool) {
		for _, lb := range r.lbs {
			if strings.EqualFold(lb.dns, name) {
				return hostedZone(lb.arn, lb.typ), true
			}
		}
		return "", false
	})
}
