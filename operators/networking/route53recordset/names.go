package route53recordset

import (
	"strings"

	"github.com/runner-codes/infra-operator/operators/networking/api/v1alpha1"
	"github.com/runner-codes/infra-operator/operators/networking/route53owner"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// maxName is the longest domain name DNS allows, with its final dot.
const maxName = 255

// validate refuses, before any AWS call, what admission cannot: tags, which record sets do not
// have.
func validate(r *v1alpha1.Route53RecordSet) error {
	if len(r.Spec.Tags) > 0 {
		return managed.Terminal(condition.ReasonInvalidSpec, "Route 53 record sets carry no tags: remove spec.tags (the zone's tags are the Route53HostedZone's)")
	}
	return nil
}

// fqdn returns the full name, in lower case with its final dot, of the record set the spec
// names in the zone (a normal name): @ is the apex; a name that ends with a dot, or with the
// zone's name, is full and must lie in the zone; any other is relative to the zone.
func fqdn(name, zone string) (string, error) {
	n := strings.ToLower(name)
	apex := strings.TrimSuffix(zone, ".")
	var full string
	switch {
	case n == "@":
		full = zone
	case strings.HasSuffix(n, "."):
		full = n
	case n == apex || strings.HasSuffix(n, "."+apex):
		full = n + "."
	default:
		full = n + "." + zone
	}
	if full != zone && !strings.HasSuffix(full, "."+zone) {
		return "", managed.Terminal(condition.ReasonInvalidSpec, "record set name %s is not in hosted zone %s: give a name relative to the zone, or a full name that ends with %s", name, zone, zone)
	}
	if marker := route53owner.Name(full, "cname"); len(full) > maxName || len(marker) > maxName {
		return "", managed.Terminal(condition.ReasonInvalidSpec, "record set name %s is too long: its ownership marker %s would be over the %d characters DNS allows", full, marker, maxName)
	}
	return full, nil
}

// normal returns a name as Route 53 lists it, made comparable: lower case, with its final dot,
// and a wildcard label as *.
func normal(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSuffix(name, "."))+".", `\052`, "*")
}

// externalName is the identifier recorded on the object: the zone, the full name, the type and
// the set identifier, which find the record set again while the object is deleted (its
// references are not resolved then).
func externalName(zoneID, full, typ, set string) string {
	id := zoneID + "/" + full + "/" + typ
	if set != "" {
		id += "/" + set
	}
	return id
}

// parseExternalName reads an identifier externalName wrote; ok is false for another.
func parseExternalName(id string) (zoneID, full, typ, set string, ok bool) {
	parts := strings.SplitN(id, "/", 4)
	if len(parts) < 3 {
		return "", "", "", "", false
	}
	if len(parts) == 4 {
		set = parts[3]
	}
	return parts[0], parts[1], parts[2], set, true
}
