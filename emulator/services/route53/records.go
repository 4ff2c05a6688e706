package route53

import (
	"cmp"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"
)

// maxRecordSets is the quota of record sets a hosted zone may hold.
const maxRecordSets = 10000

// recordKey identifies a record set in a zone: its normal name, type and set identifier (empty
// for a simple record set).
type recordKey struct {
	name, typ, set string
}

// keyOf returns the key of a record set whose name is normal.
func keyOf(r *types.ResourceRecordSet) recordKey {
	return recordKey{name: aws.ToString(r.Name), typ: string(r.Type), set: aws.ToString(r.SetIdentifier)}
}

// compare orders keys as ListResourceRecordSets does: by name with its labels reversed, then by
// type, then by set identifier.
func (k recordKey) compare(o recordKey) int {
	return cmp.Or(cmp.Compare(reversed(k.name), reversed(o.name)), cmp.Compare(k.typ, o.typ), cmp.Compare(k.set, o.set))
}

// records are a zone's record sets by key.
type records map[recordKey]*types.ResourceRecordSet

// put stores a record set whose name is normal, replacing the one of its key.
func (rs records) put(r *types.ResourceRecordSet) { rs[keyOf(r)] = r }

// sorted returns the zone's record sets in ListResourceRecordSets' order.
func (z *zone) sorted() []*types.ResourceRecordSet {
	keys := make([]recordKey, 0, len(z.records))
	for k := range z.records {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, recordKey.compare)
	out := make([]*types.ResourceRecordSet, 0, len(keys))
	for _, k := range keys {
		out = append(out, z.records[k])
	}
	return out
}
