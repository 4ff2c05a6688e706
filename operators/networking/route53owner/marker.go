// Package route53owner records which object owns a Route 53 record set, with a TXT record
// beside it (a marker), as external-dns's TXT registry does. Route 53 keeps no tags or other
// metadata on a record set, and a change's comment cannot be read back once the change is
// forgotten, so a record written with the record set, in the same change batch, is the only
// ownership that survives.
//
// The marker of a record set of type T at name N is a TXT record set at
// _infra-operator-<t>.N (t the type in lower case): a name of its own, since a CNAME shares its
// name with no other record; a wildcard N keeps its * label, which Route 53 takes literally
// anywhere but leftmost. A record set under a routing policy has a marker under the same set
// identifier, with weighted routing of weight 0 whatever the record set's policy (a marker is
// never queried, and weighted routing has no limit on set identifiers nor needs a health check
// or region). The marker's one value is "heritage=infra-operator,owner=<namespace>/<name>,uid=<UID>",
// split into strings of 255 characters when longer, as TXT values are.
package route53owner

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53/types"
)

// Heritage is the marker's heritage field, which says the marker is infra-operator's.
const Heritage = "infra-operator"

// prefix begins the first label of a marker's name.
const prefix = "_infra-operator-"

// markerTTL is the TTL of a marker record set.
const markerTTL = 300

// maxString is the longest character string of a TXT value.
const maxString = 255

// Owner is the object a marker names.
type Owner struct {
	// Namespace and Name are the object's.
	Namespace, Name string
	// UID is the object's UID, which decides ownership.
	UID string
}

// String returns namespace/name.
func (o Owner) String() string { return o.Namespace + "/" + o.Name }

// Name returns the name of the marker of a record set of type typ at name (a full name, with
// or without its final dot; the marker's has the record set's form).
func Name(name, typ string) string {
	return prefix + strings.ToLower(typ) + "." + name
}

// Value returns the TXT value of a marker that names o: quoted, in strings of at most 255
// characters.
func Value(o Owner) string {
	text := "heritage=" + Heritage + ",owner=" + o.String() + ",uid=" + o.UID
	var parts []string
	for len(text) > maxString {
		parts = append(parts, `"`+text[:maxString]+`"`)
		text = text[maxString:]
	}
	return strings.Join(append(parts, `"`+text+`"`), " ")
}

// Parse reads the owner from a marker's TXT value; ok is false for a value that is not an
// infra-operator marker.
func Parse(value string) (o Owner, ok bool) {
	var text strings.Builder
	for _, part := range strings.Split(value, `" "`) {
		text.WriteString(strings.Trim(part, `"`))
	}
	fields := map[string]string{}
	for _, kv := range strings.Split(text.String(), ",") {
		if k, v, found := strings.Cut(kv, "="); found {
			fields[k] = v
		}
	}
	if fields["heritage"] != Heritage || fields["uid"] == "" {
		return Owner{}, false
	}
	o.UID = fields["uid"]
	o.Namespace, o.Name, _ = strings.Cut(fields["owner"], "/")
	return o, true
}

// Of returns the owner the marker record set m names, if it is a marker.
func Of(m *types.ResourceRecordSet) (Owner, bool) {
	if m == nil || m.Type != types.RRTypeTxt || len(m.ResourceRecords) != 1 {
		return Owner{}, false
	}
	return Parse(aws.ToString(m.ResourceRecords[0].Value))
}

// RecordSet returns the marker of record set r (its name as r gives it) naming o.
func RecordSet(r *types.ResourceRecordSet, o Owner) *types.ResourceRecordSet {
	m := &types.ResourceRecordSet{Name: aws.String(Name(aws.ToString(r.Name), string(r.Type))), Type: types.RRTypeTxt, TTL: aws.Int64(markerTTL),
		ResourceRecords: []types.ResourceRecord{{Value: aws.String(Value(o))}}}
	if r.SetIdentifier != nil {
		m.SetIdentifier, m.Weight = aws.String(*r.SetIdentifier), aws.Int64(0)
	}
	return m
}
