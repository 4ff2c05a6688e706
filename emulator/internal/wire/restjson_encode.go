package wire

import (
	"io"
	"net/http"
	"reflect"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/traits"
)

// EncodeRESTJSON encodes out, a pointer to an SDK output struct, for a restJson1 response:
// members bound to headers or the status code there, the payload member as the body (JSON for
// structures, raw for strings and blobs), and otherwise every other member in one JSON
// document, keyed by jsonName or name.
func EncodeRESTJSON(out any, schema *smithy.Schema, status int) RESTResponse {
	res := RESTResponse{Status: status, Header: http.Header{}}
	v := reflect.ValueOf(out).Elem()
	if schema == nil {
		schema = SchemaFor(v.Type())
	}
	enc := &JSONEncoder{Keys: jsonKey}
	enc.WriteStruct(schema)
	payload := false
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		m := memberFold(schema, v.Type().Field(i).Name)
		if m == nil || isZero(f) || Synthesized(m) || res.bind(m, f) {
			continue
		}
		if _, ok := smithy.SchemaDirectTrait[*traits.HTTPPayload](m); ok {
			payload = true
			res.setJSONPayload(m, f)
			continue
		}
		WriteValue(enc, m, f)
	}
	enc.CloseStruct()
	if !payload {
		res.Body = enc.Bytes()
	}
	return res
}

func (res *RESTResponse) setJSONPayload(m *smithy.Schema, f reflect.Value) {
	if m.Type() == smithy.ShapeTypeStructure {
		enc := &JSONEncoder{Keys: jsonKey}
		WriteValue(enc, m, f)
		res.Body = enc.Bytes()
		return
	}
	f = reflect.Indirect(f)
	switch f.Kind() {
	case reflect.String:
		res.Body = []byte(f.String())
	case reflect.Slice:
		res.Body = f.Bytes()
	case reflect.Interface:
		if r, ok := f.Interface().(io.Reader); ok {
			res.Stream = r
		}
	}
}
