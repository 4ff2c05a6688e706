package route53

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// CNAME answers what the public DNS of an account's emulated hosted zones says of a name, for
// the services that validate a domain through DNS (ACM): covered is true when a public hosted zone
// of the account holds the name (its apex or below), and values are the values of the CNAME record
// set at that name in the most specific such zone, empty when there is none. Private zones answer
// only inside their VPCs, so they cover nothing here.
func (b *Backend) CNAME(accountID, name string) (covered bool, values []string) {
	n, ok := normalName(name)
	if !ok {
		return false, nil
	}
	covered = core.With(b.state, core.Scope{Account: accountID}, func(a *account) bool {
		var best *zone
		for _, z := range a.zones {
			if !z.private && inZone(n, z.name) && (best == nil || len(z.name) > len(best.name)) {
				best = z
			}
		}
		if best == nil {
			return false
		}
		if r, ok := best.records[recordKey{name: n, typ: string(types.RRTypeCname)}]; ok {
			for _, v := range r.ResourceRecords {
				values = append(values, aws.ToString(v.Value))
			}
		}
		return true
	})
	return covered, values
}
