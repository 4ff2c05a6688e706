package wire

import (
	"encoding/xml"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/traits"
)

// RESTResponse is an encoded REST response.
type RESTResponse struct {
	Status int
	Header http.Header
	Body   []byte
	// Stream is a streaming payload (an object's body) to copy after Body.
	Stream io.Reader
}

// EncodeREST encodes out, a pointer to an SDK output struct, as schema's HTTP bindings say:
// header members into headers, the payload member into the body (an XML document under
// element and namespace ns for structures, raw for strings and blobs), and other members into
// an XML document named element. When scalar names a member, the document is that member's
// value alone under an element of its name (S3's GetBucketLocation). Members newer than the
// model, whose binding the model cannot tell, are left out rather than guessed.
func EncodeREST(out any, schema *smithy.Schema, element, ns, scalar string, status int) RESTResponse {
	res := RESTResponse{Status: status, Header: http.Header{}}
	v := reflect.ValueOf(out).Elem()
	if schema == nil {
		schema = SchemaFor(v.Type())
	}
	if scalar != "" {
		f := reflect.Indirect(v.FieldByName(scalar))
		var text strings.Builder
		_ = xml.EscapeText(&text, []byte(f.String()))
		res.Body = []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<" + scalar + ` xmlns="` + ns + `">` + text.String() + "</" + scalar + ">")
		return res
	}
	enc := &XMLEncoder{}
	body := false
	enc.WriteStruct(schema)
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		m := memberFold(schema, v.Type().Field(i).Name)
		if m == nil || isZero(f) || Synthesized(m) {
			continue
		}
		if res.bind(m, f) {
			continue
		}
		if _, ok := smithy.SchemaDirectTrait[*traits.HTTPPayload](m); ok {
			res.setPayload(m, f, ns)
			continue
		}
		WriteValue(enc, m, f)
		body = true
	}
	enc.CloseStruct()
	if body {
		res.Body = []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<" + element + ` xmlns="` + ns + `">` + string(enc.Bytes()) + "</" + element + ">")
	}
	return res
}

// bind puts a member bound to a header, to prefixed headers or to the status code where it
// belongs, and reports whether it was one of those.
func (res *RESTResponse) bind(m *smithy.Schema, f reflect.Value) bool {
	if t, ok := smithy.SchemaDirectTrait[*traits.HTTPHeader](m); ok {
		res.Header.Set(t.Name, headerValue(f))
		return true
	}
	if t, ok := smithy.SchemaDirectTrait[*traits.HTTPPrefixHeaders](m); ok {
		iter := f.MapRange()
		for iter.Next() {
			res.Header.Set(t.Prefix+iter.Key().String(), iter.Value().String())
		}
		return true
	}
	if _, ok := smithy.SchemaDirectTrait[*traits.HTTPResponseCode](m); ok {
		if n := reflect.Indirect(f); n.Kind() == reflect.Int32 || n.Kind() == reflect.Int {
			res.Status = int(n.Int())
		}
		return true
	}
	return false
}

func (res *RESTResponse) setPayload(m *smithy.Schema, f reflect.Value, ns string) {
	for f.Kind() == reflect.Pointer && !f.IsNil() && f.Elem().Kind() != reflect.Struct {
		f = f.Elem()
	}
	switch {
	case m.Type() == smithy.ShapeTypeStructure:
		enc := &XMLEncoder{}
		WriteValue(enc, m, f)
		name := xmlName(m, m.MemberName())
		res.Body = []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<" + name + ` xmlns="` + ns + `">` + string(enc.Bytes()) + "</" + name + ">")
	case f.Kind() == reflect.String:
		res.Body = []byte(f.String())
	case f.Kind() == reflect.Slice:
		res.Body = f.Bytes()
	case f.Kind() == reflect.Interface:
		if r, ok := f.Interface().(io.Reader); ok {
			res.Stream = r
		}
	}
}

func isZero(f reflect.Value) bool {
	switch f.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
		return f.IsNil()
	case reflect.String:
		return f.Len() == 0 // An unset enum.
	}
	return false
}

// headerValue formats a header member: timestamps as HTTP dates, everything else as text.
func headerValue(f reflect.Value) string {
	for f.Kind() == reflect.Pointer {
		f = f.Elem()
	}
	if t, ok := f.Interface().(time.Time); ok {
		return t.UTC().Format(http.TimeFormat)
	}
	switch f.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(f.Bool())
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return strconv.FormatInt(f.Int(), 10)
	}
	return f.String()
}
