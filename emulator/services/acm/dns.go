package acm

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm/types"
)

// DNS is what ACM needs of the emulated Route 53 to validate a domain through DNS: whether a
// public hosted zone of an account holds a name, and the values of the CNAME record set at that
// name. The Route 53 backend implements it.
type DNS interface {
	CNAME(account, name string) (covered bool, values []string)
}

// ValidateThrough makes ACM validate DNS-validated requests against the emulated Route 53, as AWS
// validates them against public DNS: a name that a public hosted zone of the requesting account
// holds is validated only once that zone has the name's validation CNAME record, with ACM's
// value. A name no emulated zone holds is validated after the transition time, as if its record
// had been created at once in a DNS the emulator cannot see. The server calls it once, before
// serving.
func (b *Backend) ValidateThrough(dns DNS) { b.dns = dns }

// recordsFound reports whether every name of a DNS-validated request is validated, noting each
// validated name: a name the emulated DNS holds once its validation record is there, any other
// name at once (the caller checks the transition time first). through is true when a name was
// validated through the emulated DNS. It is true for email validation and when no DNS is attached.
func (c *certificate) recordsFound() (found, through bool) {
	if c.method != types.ValidationMethodDns || c.dns == nil {
		return true, false
	}
	found = true
	for _, name := range c.sans {
		record := validationRecord(c.account, name)
		covered, values := c.dns.CNAME(c.account, aws.ToString(record.Name))
		switch {
		case !covered:
			c.validated[name] = true
		case slices.ContainsFunc(values, func(v string) bool { return sameName(v, aws.ToString(record.Value)) }):
			c.validated[name], through = true, true
		default:
			found = false
		}
	}
	return found, through
}

// sameName reports whether two domain names are the same, ignoring case and a trailing dot.
func sameName(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, "."), strings.TrimSuffix(b, "."))
}
