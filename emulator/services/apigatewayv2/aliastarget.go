package apigatewayv2

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// AliasZone returns the Route 53 hosted zone of the custom domain name of the account, in any
// region, whose API Gateway domain name is name, for the emulated Route 53's checks of alias
// targets.
func (b *Backend) AliasZone(account, name string) (zone string, ok bool) {
	for scope, r := range b.state.All() {
		if scope.Account != account {
			continue
		}
		for _, d := range r.domains {
			for _, cfg := range d.cfg.DomainNameConfigurations {
				if strings.EqualFold(aws.ToString(cfg.ApiGatewayDomainName), name) {
					return aws.ToString(cfg.HostedZoneId), true
				}
			}
		}
	}
	return "", false
}
