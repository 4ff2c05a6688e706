package wire

import (
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/traits"
)

// Some SDK service modules at the versions this project can use (STS among them) predate the
// SDK's schema-based serde: their types have no schemas. For those, SchemaFor synthesizes a
// schema from the Go type, whose field names are the model's member names, and WriteValue walks
// a value through any ShapeSerializer, so the same codecs serve both kinds of module.

var synthesized sync.Map // reflect.Type -> *smithy.Schema

// synthesizedNamespace marks the shape IDs of synthesized schemas.
const synthesizedNamespace = "emulator.synthesized"

// Synthesized reports whether member m was synthesized from a Go type rather than taken from a
// model, so that its HTTP binding is unknown.
func Synthesized(m *smithy.Schema) bool {
	return m.TargetID().Namespace == synthesizedNamespace || m.ID().Namespace == synthesizedNamespace
}

var (
	timeType     = reflect.TypeOf(time.Time{})
	metadataName = "ResultMetadata"
)

// SchemaFor returns a schema for the Go type t, built from its exported fields when it is a
// struct.
func SchemaFor(t reflect.Type) *smithy.Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s, ok := synthesized.Load(t); ok {
		return s.(*smithy.Schema)
	}
	s := build(t, map[reflect.Type]*smithy.Schema{})
	actual, _ := synthesized.LoadOrStore(t, s)
	return actual.(*smithy.Schema)
}

func build(t reflect.Type, seen map[reflect.Type]*smithy.Schema) *smithy.Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s, ok := seen[t]; ok {
		return s
	}
	id := smithy.ShapeID{Namespace: synthesizedNamespace, Name: t.Name()}
	if t == timeType {
		return smithy.NewSchema(id, smithy.ShapeTypeTimestamp, 0)
	}
	switch t.Kind() {
	case reflect.Struct:
		s := smithy.NewSchema(id, smithy.ShapeTypeStructure, t.NumField())
		seen[t] = s
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || f.Name == metadataName {
				continue
			}
			s.AddMember(f.Name, build(f.Type, seen))
		}
		return s
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return smithy.NewSchema(id, smithy.ShapeTypeBlob, 0)
		}
		s := smithy.NewSchema(id, smithy.ShapeTypeList, 1)
		seen[t] = s
		s.AddMember("member", build(t.Elem(), seen))
		return s
	case reflect.Map:
		s := smithy.NewSchema(id, smithy.ShapeTypeMap, 2)
		seen[t] = s
		s.AddMember("key", smithy.NewSchema(id, smithy.ShapeTypeString, 0))
		s.AddMember("value", build(t.Elem(), seen))
		return s
	case reflect.Bool:
		return smithy.NewSchema(id, smithy.ShapeTypeBoolean, 0)
	case reflect.Int8, reflect.Int16, reflect.Int32:
		return smithy.NewSchema(id, smithy.ShapeTypeInteger, 0)
	case reflect.Int, reflect.Int64:
		return smithy.NewSchema(id, smithy.ShapeTypeLong, 0)
	case reflect.Float32, reflect.Float64:
		return smithy.NewSchema(id, smithy.ShapeTypeDouble, 0)
	case reflect.String:
		return smithy.NewSchema(id, smithy.ShapeTypeString, 0)
	default:
		return smithy.NewSchema(id, smithy.ShapeTypeDocument, 0)
	}
}

// Encode writes v, an SDK output struct, to enc: through its own Serialize method when the SDK
// module has schemas; otherwise by walking it with schema (from the service's API model) or,
// when schema is nil, with one synthesized from v's type.
func Encode(enc smithy.ShapeSerializer, v any, schema *smithy.Schema) {
	if s, ok := v.(smithy.Serializable); ok {
		s.Serialize(enc)
		return
	}
	rv := reflect.ValueOf(v)
	if schema == nil {
		schema = SchemaFor(rv.Type())
	}
	WriteValue(enc, schema, rv)
}

// WriteValue writes v with schema s to enc. Nil pointers, slices and maps are left out.
func WriteValue(enc smithy.ShapeSerializer, s *smithy.Schema, v reflect.Value) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Type() == timeType {
		enc.WriteTime(s, v.Interface().(time.Time))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		enc.WriteStruct(s)
		for i := 0; i < v.NumField(); i++ {
			if m := memberFold(s, v.Type().Field(i).Name); m != nil {
				WriteValue(enc, m, v.Field(i))
			}
		}
		enc.CloseStruct()
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			enc.WriteBlob(s, v.Bytes())
			return
		}
		enc.WriteList(s)
		for i := 0; i < v.Len(); i++ {
			WriteValue(enc, s.ListMember(), v.Index(i))
		}
		enc.CloseList()
	case reflect.Map:
		if v.IsNil() {
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		enc.WriteMap(s)
		for _, k := range keys {
			enc.WriteKey(s.MapKey(), k.String())
			WriteValue(enc, s.MapValue(), v.MapIndex(k))
		}
		enc.CloseMap()
	case reflect.String:
		enc.WriteString(s, v.String())
	case reflect.Bool:
		enc.WriteBool(s, v.Bool())
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int, reflect.Int64:
		enc.WriteInt64(s, v.Int())
	case reflect.Float32, reflect.Float64:
		enc.WriteFloat64(s, v.Float())
	}
}

// lowerCamel reports whether the members of a structure from an API model go by lowerCamel keys
// in JSON documents ("domainName" in API Gateway's and EKS's models, "FunctionName" in
// Lambda's), which the members Augment adds then follow.
func lowerCamel(s *smithy.Schema) bool {
	for name, m := range s.Members() {
		key := jsonKey(m, name)
		return key != "" && key[:1] == strings.ToLower(key[:1])
	}
	return false
}

// memberFold returns the member of s named name, ignoring case: Go fields are the model's member
// names, capitalised ("Arn" for "arn").
func memberFold(s *smithy.Schema, name string) *smithy.Schema {
	if m := s.Member(name); m != nil {
		return m
	}
	for n, m := range s.Members() {
		if strings.EqualFold(n, name) {
			return m
		}
	}
	return nil
}

// inputSchema returns the schema to decode in with: the SDK module's own when it has one, else
// the given one (from the service's API model), else one synthesized from in's type.
func inputSchema(in any, schema *smithy.Schema) *smithy.Schema {
	if s, ok := in.(smithy.Serializable); ok {
		return SchemaOf(s)
	}
	if schema != nil {
		return schema
	}
	return SchemaFor(reflect.TypeOf(in))
}

// Augment adds to a schema from an API model the members that t (the SDK's Go type for it) has
// and the model lacks: members newer than the model, named after their Go fields. It descends
// into members, lists and maps. It mutates the schema, so it runs when a service is registered,
// before any request is served.
func Augment(schema *smithy.Schema, t reflect.Type) {
	augment(schema, t, map[*smithy.Schema]bool{})
}

func augment(s *smithy.Schema, t reflect.Type, seen map[*smithy.Schema]bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	switch t.Kind() {
	case reflect.Struct:
		if t == timeType {
			return
		}
		camel := lowerCamel(s)
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || f.Name == metadataName {
				continue
			}
			if m := memberFold(s, f.Name); m != nil {
				augment(m, f.Type, seen)
				continue
			}
			if camel {
				s.AddMember(f.Name, SchemaFor(f.Type), &traits.JSONName{Name: strings.ToLower(f.Name[:1]) + f.Name[1:]})
			} else {
				s.AddMember(f.Name, SchemaFor(f.Type))
			}
		}
	case reflect.Slice:
		if t.Elem().Kind() != reflect.Uint8 {
			augment(s.ListMember(), t.Elem(), seen)
		}
	case reflect.Map:
		augment(s.MapValue(), t.Elem(), seen)
	}
}
