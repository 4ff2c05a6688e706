package wire

import (
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/traits"
)

// DecodeQuery decodes the parameters of an awsQuery request into in, a pointer to an SDK input
// struct; schema is the input's schema from the service's API model, or nil (see inputSchema).
// Parameter names follow the model: members by name or xmlName, lists as Name.member.N (or
// Name.N when flattened), maps as Name.entry.N.key / .value, nested members as Name.Member.
//
// Keys are matched without regard to case: schemas synthesized for SDK modules without their
// own (see SchemaFor) know members by Go field name ("Arn"), while the wire uses the model's
// member name ("arn").
func DecodeQuery(form url.Values, in any, schema *smithy.Schema) error {
	return decodeForm(form, in, schema, awsQuery)
}

// DecodeEC2Query decodes the parameters of an ec2Query request into in: members by their
// ec2QueryName, else their xmlName capitalised, else their name; every list as Name.N.
func DecodeEC2Query(form url.Values, in any, schema *smithy.Schema) error {
	return decodeForm(form, in, schema, ec2Query)
}

// dialect is how a query protocol names parameters.
type dialect struct {
	// name returns the parameter name of member m named name.
	name func(m *smithy.Schema, name string) string
	// flat reports whether list l is sent as Name.N rather than Name.member.N.
	flat func(l *smithy.Schema) bool
}

var (
	awsQuery = dialect{name: queryName, flat: flattened}
	ec2Query = dialect{name: ec2Name, flat: func(*smithy.Schema) bool { return true }}
)

// queryName is a member's awsQuery parameter name: its xmlName, else its name; a flattened list
// takes the name of its items when they have one (ListArg of Foo items is sent as Foo.1).
func queryName(m *smithy.Schema, name string) string {
	if (m.Type() == smithy.ShapeTypeList || m.Type() == smithy.ShapeTypeSet) && flattened(m) {
		if n := xmlName(m.ListMember(), ""); n != "" {
			return n
		}
	}
	return xmlName(m, name)
}

func ec2Name(m *smithy.Schema, name string) string {
	if t, ok := smithy.SchemaDirectTrait[*traits.EC2QueryName](m); ok && t.Name != "" {
		return t.Name
	}
	if n := xmlName(m, ""); n != "" {
		return strings.ToUpper(n[:1]) + n[1:]
	}
	if m.TargetID().Namespace == synthesizedNamespace && (m.Type() == smithy.ShapeTypeList || m.Type() == smithy.ShapeTypeSet) {
		return singular(name)
	}
	return name
}

// singular names the items of a list member newer than the API model, which EC2 sends under
// the singular of the SDK's plural field name (AvailabilityZoneAddresses as
// AvailabilityZoneAddress.N, SecondaryAllocationIds as SecondaryAllocationId.N).
func singular(name string) string {
	switch {
	case strings.HasSuffix(name, "sses"):
		return strings.TrimSuffix(name, "es")
	case strings.HasSuffix(name, "ies"):
		return strings.TrimSuffix(name, "ies") + "y"
	}
	return strings.TrimSuffix(name, "s")
}

func decodeForm(form url.Values, in any, schema *smithy.Schema, d dialect) error {
	folded := make(url.Values, len(form))
	for k, v := range form {
		folded[strings.ToLower(k)] = v
	}
	schema = inputSchema(in, schema)
	tree := d.queryStruct(folded, schema, "")
	if tree == nil {
		return nil
	}
	return assign(reflect.ValueOf(in).Elem(), schema, tree)
}

// queryValue returns the value of member s under key, or nil when the form holds none. Nested
// shapes are entered only when some parameter lies under key, which also ends the descent into
// recursive shapes.
func (d dialect) queryValue(form url.Values, s *smithy.Schema, key string) any {
	switch s.Type() {
	case smithy.ShapeTypeStructure, smithy.ShapeTypeUnion, smithy.ShapeTypeList, smithy.ShapeTypeSet, smithy.ShapeTypeMap:
		if !hasKey(form, key) {
			return nil
		}
	}
	switch s.Type() {
	case smithy.ShapeTypeStructure, smithy.ShapeTypeUnion:
		return d.queryStruct(form, s, key+".")
	case smithy.ShapeTypeList, smithy.ShapeTypeSet:
		return d.queryList(form, s, key)
	case smithy.ShapeTypeMap:
		return d.queryMap(form, s, key)
	default:
		if vs, ok := form[strings.ToLower(key)]; ok && len(vs) > 0 {
			return vs[0]
		}
		return nil
	}
}

// queryStruct returns the members of a struct under prefix, or nil when none is present.
func (d dialect) queryStruct(form url.Values, s *smithy.Schema, prefix string) any {
	out := map[string]any{}
	for name, member := range s.Members() {
		if v := d.queryValue(form, member, prefix+d.name(member, name)); v != nil {
			out[name] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (d dialect) queryList(form url.Values, s *smithy.Schema, key string) any {
	base := key + "."
	if !d.flat(s) {
		base += itemName(form, s, key) + "."
	}
	var items []any
	for i := 1; ; i++ {
		item := d.queryValue(form, s.ListMember(), base+strconv.Itoa(i))
		if item == nil {
			break
		}
		items = append(items, item)
	}
	if items == nil && hasKey(form, key) {
		return []any{} // An empty list is sent as the bare key.
	}
	if items == nil {
		return nil
	}
	return items
}

// itemName returns the name under which a list's items are sent: the model's; for a list
// synthesized from a Go type (a member newer than the model, which cannot name its items), the
// name the request uses, such as "item" in TagSpecifications.item.1.
func itemName(form url.Values, s *smithy.Schema, key string) string {
	if Synthesized(s) {
		prefix := strings.ToLower(key) + "."
		for k := range form {
			rest, ok := strings.CutPrefix(k, prefix)
			name, _, nested := strings.Cut(rest, ".")
			if _, err := strconv.Atoi(name); ok && nested && err != nil {
				return name
			}
		}
	}
	return xmlName(s.ListMember(), "member")
}

func (d dialect) queryMap(form url.Values, s *smithy.Schema, key string) any {
	base := key + "."
	if !flattened(s) {
		base += "entry."
	}
	keyName, valueName := xmlName(s.MapKey(), "key"), xmlName(s.MapValue(), "value")
	out := map[string]any{}
	for i := 1; ; i++ {
		entry := base + strconv.Itoa(i) + "."
		k, ok := form[strings.ToLower(entry+keyName)]
		if !ok || len(k) == 0 {
			break
		}
		out[k[0]] = d.queryValue(form, s.MapValue(), entry+valueName)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func hasKey(form url.Values, key string) bool {
	key = strings.ToLower(key)
	if _, ok := form[key]; ok {
		return true
	}
	for k := range form {
		if strings.HasPrefix(k, key+".") {
			return true
		}
	}
	return false
}
