package route53

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// changeResourceRecordSets applies a batch of changes to a zone's record sets atomically: each
// change meets the zone as the changes before it left it, and the first that fails leaves the
// zone as it was.
func (b *Backend) changeResourceRecordSets(call *core.Call, in *route53.ChangeResourceRecordSetsInput) (*route53.ChangeResourceRecordSetsOutput, error) {
	aliases := b.aliasZones(call.Account, in.ChangeBatch)
	return hostedZone(b, call, in.HostedZoneId, func(a *account, z *zone) (*route53.ChangeResourceRecordSetsOutput, error) {
		changes, err := checkBatch(in.ChangeBatch, z.name)
		if err != nil {
			return nil, err
		}
		work := maps.Clone(z.records)
		for _, c := range changes {
			if err := apply(a, work, z, c, aliases); err != nil {
				return nil, err
			}
		}
		if _, ok := work[recordKey{name: z.name, typ: string(types.RRTypeSoa)}]; !ok {
			return nil, invalidBatch("A HostedZone must contain exactly one SOA record.")
		}
		if _, ok := work[recordKey{name: z.name, typ: string(types.RRTypeNs)}]; !ok {
			return nil, invalidBatch("A HostedZone must contain at least one NS record for the zone itself.")
		}
		if len(work) > maxRecordSets {
			return nil, invalidBatch("The hosted zone %s would hold more than the quota of %d resource record sets.", z.id, maxRecordSets)
		}
		z.records = work
		return &route53.ChangeResourceRecordSetsOutput{ChangeInfo: a.changes.submit(call, in.ChangeBatch.Comment)}, nil
	})
}

// apply makes one checked change to the working copy of zone z's record sets (of account a);
// aliases are the hosted zones of the batch's checked alias targets (aliasZones).
func apply(a *account, work records, z *zone, c types.Change, aliases map[string]string) error {
	r := c.ResourceRecordSet
	current, exists := work[keyOf(r)]
	switch c.Action {
	case types.ChangeActionDelete:
		if !exists {
			return invalidBatch("Tried to delete resource record set %s but it was not found", bracketed(r))
		}
		if !reflect.DeepEqual(canonical(current), canonical(r)) {
			return invalidBatch("Tried to delete resource record set %s but the values provided do not match the current values", bracketed(r))
		}
		delete(work, keyOf(r))
		return nil
	case types.ChangeActionCreate:
		if exists {
			return invalidBatch("Tried to create resource record set %s but it already exists", bracketed(r))
		}
	}
	if err := conflicts(work, z, r); err != nil {
		return err
	}
	if r.AliasTarget != nil && aws.ToString(r.AliasTarget.HostedZoneId) != z.id {
		if err := checkAlias(a, r, aliases); err != nil {
			return err
		}
	}
	work.put(r)
	return nil
}

// conflicts returns the InvalidChangeBatch a created or upserted record set r meets in the
// working copy: a CNAME beside records of other types at its name, a simple record set beside
// record sets of a routing policy of the same name and type (or the reverse), or an alias to a
// record set of the zone that is not there.
func conflicts(work records, z *zone, r *types.ResourceRecordSet) error {
	name := aws.ToString(r.Name)
	for k := range work {
		if k.name != name {
			continue
		}
		switch {
		case r.Type == types.RRTypeCname && k.typ != string(types.RRTypeCname):
			return invalidBatch("RRSet of type CNAME with DNS name %s is not permitted as it conflicts with other records with the same DNS name in zone %s", name, z.name)
		case r.Type != types.RRTypeCname && k.typ == string(types.RRTypeCname):
			// AWS's text has two spaces before CNAME.
			return invalidBatch("RRSet of type %s with DNS name %s is not permitted because a conflicting RRSet of type  CNAME with the same DNS name already exists in zone %s", r.Type, name, z.name)
		case k.typ == string(r.Type) && r.SetIdentifier == nil && k.set != "":
			return invalidBatch("RRSet with DNS name %s, type %s cannot be created as other RRSets exist with the same name and type with a SetIdentifier.", name, r.Type)
		case k.typ == string(r.Type) && r.SetIdentifier != nil && k.set == "":
			return invalidBatch("RRSet with DNS name %s, type %s, SetIdentifier %s cannot be created as a non-routing-policy set exists with the same name and type.", name, r.Type, *r.SetIdentifier)
		}
	}
	if alias := r.AliasTarget; alias != nil && aws.ToString(alias.HostedZoneId) == z.id {
		target := aws.ToString(alias.DNSName)
		for k := range work {
			if k.name == target && k.typ == string(r.Type) {
				return nil
			}
		}
		return invalidBatch("Tried to create an alias that targets %s, type %s in zone %s, but that target was not found", target, r.Type, z.id)
	}
	return nil
}

// canonical returns a copy of a record set with its values in order, so that a DELETE matches
// the record set whatever order it lists the values in.
func canonical(r *types.ResourceRecordSet) types.ResourceRecordSet {
	out := *r
	out.ResourceRecords = slices.Clone(r.ResourceRecords)
	slices.SortFunc(out.ResourceRecords, func(x, y types.ResourceRecord) int {
		return strings.Compare(aws.ToString(x.Value), aws.ToString(y.Value))
	})
	return out
}
