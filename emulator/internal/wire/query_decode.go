package wire

import (
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"github.com/aws/smithy-go"
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
	folded := make(url.Values, len(form))
	for k, v := range form {
		folded[strings.ToLower(k)] = v
	}
	form = folded
	schema = inputSchema(in, schema)
	tree := queryStruct(form, schema, "")
	if tree == nil {
		return nil
	}
	return assign(reflect.ValueOf(in).Elem(), schema, tree)
}

func queryValue(form url.Values, s *smithy.Schema, key string) any {
	switch s.Type() {
	case smithy.ShapeTypeStructure, smithy.ShapeTypeUnion:
		return queryStruct(form, s, key+".")
	case smithy.ShapeTypeList, smithy.ShapeTypeSet:
		return queryList(form, s, key)
	case smithy.ShapeTypeMap:
		return queryMap(form, s, key)
	default:
		if vs, ok := form[strings.ToLower(key)]; ok && len(vs) > 0 {
			return vs[0]
		}
		return nil
	}
}

// queryStruct returns the members of a struct under prefix, or nil when none is present.
func queryStruct(form url.Values, s *smithy.Schema, prefix string) any {
	out := map[string]any{}
	for name, member := range s.Members() {
		if v := queryValue(form, member, prefix+xmlName(member, name)); v != nil {
			out[name] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func queryList(form url.Values, s *smithy.Schema, key string) any {
	base := key + "."
	if !flattened(s) {
		base += xmlName(s.ListMember(), "member") + "."
	}
	var items []any
	for i := 1; ; i++ {
		item := queryValue(form, s.ListMember(), base+strconv.Itoa(i))
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

func queryMap(form url.Values, s *smithy.Schema, key string) any {
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
		out[k[0]] = queryValue(form, s.MapValue(), entry+valueName)
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
