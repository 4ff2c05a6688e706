package route53

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The limits of one ChangeResourceRecordSets batch: 1,000 records (ResourceRecord elements), as
// AWS documents.
const maxBatchRecords = 1000

// Record types Route 53 serves (the Developer Guide's Supported DNS record types).
var recordTypes = []types.RRType{types.RRTypeA, types.RRTypeAaaa, types.RRTypeCaa, types.RRTypeCname, types.RRTypeDs,
	types.RRTypeMx, types.RRTypeNaptr, types.RRTypeNs, types.RRTypePtr, types.RRTypeSoa, types.RRTypeSpf, types.RRTypeSrv,
	types.RRTypeTxt, types.RRTypeTlsa, types.RRTypeSshfp, types.RRTypeSvcb, types.RRTypeHttps}

// invalidInput returns Route 53's InvalidInput with "Invalid request: " and the problem.
func invalidInput(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidInput", "Invalid request: "+format, args...)
}

// invalidBatch returns Route 53's InvalidChangeBatch with one message.
func invalidBatch(format string, args ...any) *core.APIError {
	return core.Errorf("InvalidChangeBatch", format, args...)
}

// described returns how AWS's InvalidInput texts name a change: its action, name, type and set
// identifier ("null" when it has none).
func described(c types.Change) string {
	r := c.ResourceRecordSet
	set := "null"
	if r.SetIdentifier != nil {
		set = *r.SetIdentifier
	}
	return fmt.Sprintf("Change with [Action=%s, Name=%s, Type=%s, SetIdentifier=%s]", c.Action, aws.ToString(r.Name), r.Type, set)
}

// bracketed returns how AWS's InvalidChangeBatch texts name a record set.
func bracketed(r *types.ResourceRecordSet) string {
	if r.SetIdentifier != nil {
		return fmt.Sprintf("[name='%s', type='%s', set-identifier='%s']", aws.ToString(r.Name), r.Type, *r.SetIdentifier)
	}
	return fmt.Sprintf("[name='%s', type='%s']", aws.ToString(r.Name), r.Type)
}

// checkBatch checks what a batch's changes say about themselves, before any meets the zone: an
// action and a record set in every change, at most maxBatchRecords records, and each record
// set's own rules (checkRecordSet). It returns the record sets with their names normalised.
func checkBatch(batch *types.ChangeBatch, zone string) ([]types.Change, error) {
	if batch == nil || len(batch.Changes) == 0 {
		return nil, core.Errorf("InvalidInput", "1 validation error detected: Value null at 'changeBatch.changes' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
	out := make([]types.Change, 0, len(batch.Changes))
	count := 0
	for i, c := range batch.Changes {
		if !slices.Contains(c.Action.Values(), c.Action) {
			return nil, core.Errorf("InvalidInput", "1 validation error detected: Value '%s' at 'changeBatch.changes.%d.member.action' failed to satisfy constraint: Member must satisfy enum value set: [CREATE, DELETE, UPSERT]", c.Action, i+1)
		}
		if c.ResourceRecordSet == nil {
			return nil, core.Errorf("InvalidInput", "1 validation error detected: Value null at 'changeBatch.changes.%d.member.resourceRecordSet' failed to satisfy constraint: Member must not be null", i+1)
		}
		r := *c.ResourceRecordSet
		count += len(r.ResourceRecords)
		name, ok := normalName(aws.ToString(r.Name))
		if !ok {
			return nil, invalidBatch("RRSet with DNS name %s is not a valid domain name.", aws.ToString(r.Name))
		}
		r.Name = aws.String(name)
		if r.AliasTarget != nil {
			alias := *r.AliasTarget
			alias.DNSName = aws.String(strings.ToLower(strings.TrimSuffix(aws.ToString(alias.DNSName), ".")) + ".")
			alias.HostedZoneId = aws.String(zoneID(alias.HostedZoneId))
			r.AliasTarget = &alias
		}
		c.ResourceRecordSet = &r
		if err := checkRecordSet(c, i+1, zone); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if count > maxBatchRecords {
		return nil, invalidBatch("Number of records limit of %d exceeded.", maxBatchRecords)
	}
	return out, nil
}

// checkRecordSet checks one change's record set on its own (the n-th of its batch): a type Route
// 53 serves, either an alias target or a TTL with records, a routing policy exactly when there is
// a set identifier, a name inside the zone, no CNAME at the apex, and values of the type's form.
func checkRecordSet(c types.Change, n int, zone string) error {
	r := c.ResourceRecordSet
	if !slices.Contains(recordTypes, r.Type) {
		return core.Errorf("InvalidInput", "1 validation error detected: Value '%s' at 'changeBatch.changes.%d.member.resourceRecordSet.type' failed to satisfy constraint: Member must satisfy enum value set: %v", r.Type, n, recordTypes)
	}
	plain := r.TTL != nil || len(r.ResourceRecords) > 0
	switch {
	case r.AliasTarget != nil && plain:
		return invalidInput("Expected exactly one of [AliasTarget, all of [TTL, and ResourceRecords], or TrafficPolicyInstanceId], but found more than one in %s", described(c))
	case r.AliasTarget == nil && (r.TTL == nil || len(r.ResourceRecords) == 0):
		return invalidInput("Expected exactly one of [AliasTarget, all of [TTL, and ResourceRecords], or TrafficPolicyInstanceId], but found none in %s", described(c))
	}
	if err := checkPolicy(c, n); err != nil {
		return err
	}
	name := aws.ToString(r.Name)
	if !inZone(name, zone) {
		return invalidBatch("RRSet with DNS name %s is not permitted in zone %s", name, zone)
	}
	if r.Type == types.RRTypeCname && name == zone {
		return invalidBatch("RRSet of type CNAME with DNS name %s is not permitted at apex in zone %s", name, zone)
	}
	if r.TTL != nil && (*r.TTL < 0 || *r.TTL > 2147483647) {
		return invalidInput("TTL %d is not between 0 and 2147483647 in %s", *r.TTL, described(c))
	}
	return checkValues(r)
}

// checkPolicy checks the routing policy of the n-th change's record set: a set identifier needs
// exactly one policy (Weight, Region, Failover, GeoLocation, MultiValueAnswer,
// GeoProximityLocation or CidrRoutingConfig) and a policy needs a set identifier; a weight is 0
// to 255, a region and a failover one of AWS's values.
func checkPolicy(c types.Change, n int) error {
	r := c.ResourceRecordSet
	policies := 0
	for _, set := range []bool{r.Weight != nil, r.Region != "", r.Failover != "", r.GeoLocation != nil, r.MultiValueAnswer != nil,
		r.GeoProximityLocation != nil, r.CidrRoutingConfig != nil} {
		if set {
			policies++
		}
	}
	const expected = "Expected exactly one of [Weight, Region, Failover, GeoLocation, MultiValueAnswer, GeoProximityLocation, or CidrRoutingConfig]"
	switch {
	case r.SetIdentifier == nil && policies > 0:
		return invalidInput("Missing field 'SetIdentifier' in %s", described(c))
	case r.SetIdentifier != nil && policies == 0:
		return invalidInput("%s, but found none in %s", expected, described(c))
	case policies > 1:
		return invalidInput("%s, but found more than one in %s", expected, described(c))
	case r.Weight != nil && (*r.Weight < 0 || *r.Weight > 255):
		return core.Errorf("InvalidInput", "1 validation error detected: Value '%d' at 'changeBatch.changes.%d.member.resourceRecordSet.weight' failed to satisfy constraint: Member must be between 0 and 255", *r.Weight, n)
	case r.Region != "" && !slices.Contains(r.Region.Values(), r.Region):
		return core.Errorf("InvalidInput", "1 validation error detected: Value '%s' at 'changeBatch.changes.%d.member.resourceRecordSet.region' failed to satisfy constraint: Member must satisfy enum value set: %v", r.Region, n, r.Region.Values())
	case r.Failover != "" && !slices.Contains(r.Failover.Values(), r.Failover):
		return core.Errorf("InvalidInput", "1 validation error detected: Value '%s' at 'changeBatch.changes.%d.member.resourceRecordSet.failover' failed to satisfy constraint: Member must satisfy enum value set: [PRIMARY, SECONDARY]", r.Failover, n)
	}
	return nil
}

// checkValues checks the values of a record set against its type: IPv4 addresses for A, IPv6
// for AAAA, a single value for CNAME, and the number of fields of MX (2), SRV (4) and CAA (3).
func checkValues(r *types.ResourceRecordSet) error {
	if r.Type == types.RRTypeCname && len(r.ResourceRecords) > 1 {
		return invalidBatch("RRSet of type CNAME with DNS name %s contains more than one value.", aws.ToString(r.Name))
	}
	fields := map[types.RRType]int{types.RRTypeMx: 2, types.RRTypeSrv: 4, types.RRTypeCaa: 3}
	for _, rr := range r.ResourceRecords {
		v := aws.ToString(rr.Value)
		switch r.Type {
		case types.RRTypeA:
			if a, err := netip.ParseAddr(v); err != nil || !a.Is4() {
				return invalidRecord("ARRDATAIllegalIPv4Address (Value is not a valid IPv4 address)", v)
			}
		case types.RRTypeAaaa:
			if a, err := netip.ParseAddr(v); err != nil || !a.Is6() || a.Is4In6() {
				return invalidRecord("AAAARRDATAIllegalIPv6Address (Value is not a valid IPv6 address)", v)
			}
		case types.RRTypeMx, types.RRTypeSrv, types.RRTypeCaa:
			// A CAA value's last field is a quoted string that may hold spaces.
			if n, want := len(strings.Fields(v)), fields[r.Type]; n < want || n > want && r.Type != types.RRTypeCaa {
				return invalidRecord(fmt.Sprintf("%sRRDATAIllegalFieldCount (Value should have %d fields)", r.Type, want), v)
			}
		}
		if v == "" {
			return invalidRecord("RRDATAEmpty (Value is empty)", v)
		}
	}
	return nil
}

// invalidRecord returns AWS's InvalidChangeBatch for a value that does not parse as its type.
func invalidRecord(problem, value string) error {
	return invalidBatch("Invalid Resource Record: 'FATAL problem: %s encountered with '%s''", problem, value)
}
