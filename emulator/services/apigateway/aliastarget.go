package apigateway

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// AliasZone returns the Route 53 hosted zone of the custom domain name of the account, in any
// region, whose regional or distribution domain name is name, for the emulated Route 53's checks
// of alias targets.
func (b *Backend) AliasZone(account, name string) (zone string, ok bool) {
	return core.Search(b.state, account, func(r *region) (string, bool) {
		for _, d := range r.domains {
			switch {
			case strings.EqualFold(aws.ToString(d.cfg.RegionalDomainName), name):
				return aws.ToString(d.cfg.RegionalHostedZoneId), true
			case strings.EqualFold(aws.ToString(d.cfg.DistributionDomainName), name):
				return aws.ToString(d.cfg.DistributionHostedZoneId), true
			}
		}
		return "", false
	})
}
