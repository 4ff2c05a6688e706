package route53

import (
	"cmp"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// The default and largest MaxItems of ListHostedZonesByName and ListResourceRecordSets.
const (
	maxZonesPage   = 100
	maxRecordsPage = 300
)

// pageSize returns a request's MaxItems, or def when it gives none; MaxItems above def count as
// def, as on AWS, and below 1 answer InvalidInput.
func pageSize(maxItems *int32, def int) (int, error) {
	if maxItems == nil {
		return def, nil
	}
	if *maxItems < 1 {
		return 0, core.Errorf("InvalidInput", "1 validation error detected: Value '%d' at 'maxItems' failed to satisfy constraint: Member must be greater than or equal to 1", *maxItems)
	}
	return min(int(*maxItems), def), nil
}

// listHostedZonesByName lists the account's hosted zones by name with its labels reversed, then
// by id, from DNSName (and HostedZoneId) on.
func (b *Backend) listHostedZonesByName(call *core.Call, in *route53.ListHostedZonesByNameInput) (*route53.ListHostedZonesByNameOutput, error) {
	size, err := pageSize(in.MaxItems, maxZonesPage)
	if err != nil {
		return nil, err
	}
	start, id := "", zoneID(in.HostedZoneId)
	if in.DNSName != nil {
		n, ok := normalName(*in.DNSName)
		if !ok {
			return nil, core.Errorf("InvalidDomainName", "%s is not a valid domain name.", *in.DNSName)
		}
		start = reversed(n)
	} else if id != "" {
		return nil, core.Errorf("InvalidInput", "Invalid request: HostedZoneId needs a DNSName.")
	}
	return core.Locked(b.state, call, func(a *account) (*route53.ListHostedZonesByNameOutput, error) {
		zones := make([]*zone, 0, len(a.zones))
		for _, z := range a.zones {
			if c := cmp.Compare(reversed(z.name), start); c > 0 || c == 0 && z.id >= id {
				zones = append(zones, z)
			}
		}
		slices.SortFunc(zones, func(x, y *zone) int {
			return cmp.Or(cmp.Compare(reversed(x.name), reversed(y.name)), cmp.Compare(x.id, y.id))
		})
		out := &route53.ListHostedZonesByNameOutput{DNSName: in.DNSName, HostedZoneId: in.HostedZoneId, MaxItems: aws.Int32(int32(size)), HostedZones: []types.HostedZone{}}
		if len(zones) > size {
			out.IsTruncated, out.NextDNSName, out.NextHostedZoneId = true, aws.String(zones[size].name), aws.String(zones[size].id)
			zones = zones[:size]
		}
		for _, z := range zones {
			out.HostedZones = append(out.HostedZones, z.view())
		}
		return out, nil
	})
}

// listResourceRecordSets lists a zone's record sets in AWS's order from StartRecordName (and
// StartRecordType and StartRecordIdentifier) on.
func (b *Backend) listResourceRecordSets(call *core.Call, in *route53.ListResourceRecordSetsInput) (*route53.ListResourceRecordSetsOutput, error) {
	size, err := pageSize(in.MaxItems, maxRecordsPage)
	if err != nil {
		return nil, err
	}
	var start recordKey
	if in.StartRecordName != nil {
		n, ok := normalName(*in.StartRecordName)
		if !ok {
			return nil, core.Errorf("InvalidInput", "Invalid request: StartRecordName %s is not a valid domain name.", *in.StartRecordName)
		}
		start = recordKey{name: n, typ: string(in.StartRecordType), set: aws.ToString(in.StartRecordIdentifier)}
	} else if in.StartRecordType != "" {
		return nil, core.Errorf("InvalidInput", "The input is not valid: StartRecordType requires a StartRecordName.")
	}
	return hostedZone(b, call, in.HostedZoneId, func(_ *account, z *zone) (*route53.ListResourceRecordSetsOutput, error) {
		all := z.sorted()
		from := 0
		if start.name != "" {
			from, _ = slices.BinarySearchFunc(all, start, func(r *types.ResourceRecordSet, k recordKey) int { return keyOf(r).compare(k) })
		}
		page := all[from:]
		out := &route53.ListResourceRecordSetsOutput{MaxItems: aws.Int32(int32(size)), ResourceRecordSets: make([]types.ResourceRecordSet, 0, min(size, len(page)))}
		if len(page) > size {
			next := page[size]
			out.IsTruncated, out.NextRecordName, out.NextRecordType, out.NextRecordIdentifier = true, next.Name, next.Type, next.SetIdentifier
			page = page[:size]
		}
		for _, r := range page {
			out.ResourceRecordSets = append(out.ResourceRecordSets, *r)
		}
		return out, nil
	})
}
