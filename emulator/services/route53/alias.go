package route53

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"
)

// AliasTargets is what Route 53 needs of a service whose resources alias records target
// (Elastic Load Balancing, CloudFront, API Gateway): the hosted zone that serves the DNS name of
// one of an account's resources. The services' backends implement it.
type AliasTargets interface {
	// AliasZone returns the Route 53 hosted zone of the account's resource whose DNS name is
	// name (lower case, without the final dot); ok is false when the service has none.
	AliasZone(account, name string) (zone string, ok bool)
}

// AliasThrough makes ChangeResourceRecordSets check alias targets that name a load balancer
// (…elb.amazonaws.com), a CloudFront distribution (….cloudfront.net) or an API Gateway domain
// (….execute-api.<region>.amazonaws.com) against the services that make them, as AWS does: the
// resource must exist in the account and be served in the alias's hosted zone. Other alias
// targets (S3 website endpoints, Elastic Beanstalk, VPC endpoints, Global Accelerator) are taken
// as given. The server calls it once, before serving.
func (b *Backend) AliasThrough(targets ...AliasTargets) { b.aliases = append(b.aliases, targets...) }

// checked reports whether name (lower case, without the final dot) is the DNS name of a
// resource of a service whose alias targets are checked.
func checked(name string) bool {
	return strings.HasSuffix(name, ".elb.amazonaws.com") || strings.HasSuffix(name, ".cloudfront.net") ||
		strings.Contains(name, ".execute-api.") && strings.HasSuffix(name, ".amazonaws.com")
}

// targetName returns the resource name an alias's DNS name stands for: lower case, without the
// final dot, and without the dualstack. prefix a load balancer's alias may carry.
func targetName(dns string) string {
	return strings.TrimPrefix(strings.ToLower(strings.TrimSuffix(dns, ".")), "dualstack.")
}

// aliasZones returns, by target name, the hosted zone of each alias target of a batch whose
// service is checked ("" when the account has no such resource), looked up before the batch
// meets its zone so that no other service is asked while Route 53's lock is held.
func (b *Backend) aliasZones(account string, batch *types.ChangeBatch) map[string]string {
	zones := map[string]string{}
	if batch == nil || len(b.aliases) == 0 {
		return zones
	}
	for _, c := range batch.Changes {
		if c.ResourceRecordSet == nil || c.ResourceRecordSet.AliasTarget == nil || c.Action == types.ChangeActionDelete {
			continue
		}
		name := targetName(aws.ToString(c.ResourceRecordSet.AliasTarget.DNSName))
		if _, done := zones[name]; done || !checked(name) {
			continue
		}
		zones[name] = ""
		for _, t := range b.aliases {
			if zone, ok := t.AliasZone(account, name); ok {
				zones[name] = zone
				break
			}
		}
	}
	return zones
}

// checkAlias returns the InvalidChangeBatch AWS answers for an alias record set r
// of account a whose target is in another zone: a record of another hosted zone of the account
// that is outside it or missing, or a load balancer, distribution or API domain (zones, from
// aliasZones) that the account does not have or that another hosted zone serves.
func checkAlias(a *account, r *types.ResourceRecordSet, zones map[string]string) error {
	alias := r.AliasTarget
	target, zid := aws.ToString(alias.DNSName), aws.ToString(alias.HostedZoneId)
	notWithin := func() error {
		return invalidBatch("Tried to create an alias that targets %s, type %s in zone %s, but the alias target name does not lie within the target zone", target, r.Type, zid)
	}
	notFound := func() error {
		return invalidBatch("Tried to create an alias that targets %s, type %s in zone %s, but that target was not found", target, r.Type, zid)
	}
	if other, ok := a.zones[zid]; ok {
		if !inZone(target, other.name) {
			return notWithin()
		}
		for k := range other.records {
			if k.name == target && k.typ == string(r.Type) {
				return nil
			}
		}
		return notFound()
	}
	zone, looked := zones[targetName(target)]
	switch {
	case !looked:
		return nil
	case zone == "":
		return notFound()
	case zone != zid:
		return notWithin()
	}
	return nil
}
