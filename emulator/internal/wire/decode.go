package wire

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/smithy-go"
)

// assign stores raw, a tree of decoded wire values (map[string]any keyed by member name,
// []any, string, json.Number, bool), into v, an SDK struct or field, guided by its schema.
func assign(v reflect.Value, s *smithy.Schema, raw any) error {
	if raw == nil {
		return nil
	}
	if v.Kind() == reflect.Pointer {
		elem := reflect.New(v.Type().Elem())
		if err := assign(elem.Elem(), s, raw); err != nil {
			return err
		}
		v.Set(elem)
		return nil
	}
	if v.Type() == reflect.TypeOf(time.Time{}) {
		t, err := parseTime(raw)
		if err != nil {
			return err
		}
		v.Set(reflect.ValueOf(t))
		return nil
	}
	switch v.Kind() {
	case reflect.Struct:
		if done, err := assignUnions(v, raw); done {
			return err
		}
		obj, ok := raw.(map[string]any)
		if !ok {
			return fmt.Errorf("expected an object, got %T", raw)
		}
		for name, member := range s.Members() {
			val, ok := lookupFold(obj, name)
			if !ok {
				continue
			}
			field := fieldByName(v, name)
			if !field.IsValid() {
				continue
			}
			if err := assign(field, member, val); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
	case reflect.String:
		str, err := scalar(raw)
		if err != nil {
			return err
		}
		v.SetString(str)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		str, err := scalar(raw)
		if err != nil {
			return err
		}
		n, err := strconv.ParseInt(str, 10, 64)
		if err != nil {
			return fmt.Errorf("not an integer: %q", str)
		}
		v.SetInt(n)
	case reflect.Float32, reflect.Float64:
		str, err := scalar(raw)
		if err != nil {
			return err
		}
		f, err := strconv.ParseFloat(str, 64)
		if err != nil {
			return fmt.Errorf("not a number: %q", str)
		}
		v.SetFloat(f)
	case reflect.Bool:
		switch b := raw.(type) {
		case bool:
			v.SetBool(b)
		case string:
			v.SetBool(b == "true")
		default:
			return fmt.Errorf("expected a boolean, got %T", raw)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			str, err := scalar(raw)
			if err != nil {
				return err
			}
			b, err := base64.StdEncoding.DecodeString(str)
			if err != nil {
				return fmt.Errorf("not base64: %w", err)
			}
			v.SetBytes(b)
			return nil
		}
		items, ok := raw.([]any)
		if !ok {
			return fmt.Errorf("expected a list, got %T", raw)
		}
		out := reflect.MakeSlice(v.Type(), len(items), len(items))
		for i, item := range items {
			if err := assign(out.Index(i), s.ListMember(), item); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		v.Set(out)
	case reflect.Map:
		obj, ok := raw.(map[string]any)
		if !ok {
			return fmt.Errorf("expected a map, got %T", raw)
		}
		out := reflect.MakeMapWithSize(v.Type(), len(obj))
		for k, item := range obj {
			elem := reflect.New(v.Type().Elem()).Elem()
			if err := assign(elem, s.MapValue(), item); err != nil {
				return fmt.Errorf("[%s]: %w", k, err)
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), elem)
		}
		v.Set(out)
	case reflect.Interface:
		// Documents and unions are not decoded by this generic path.
	}
	return nil
}

// lookupFold returns obj[name], or the value of a key equal to name but for case, which is how
// members of synthesized schemas (named after Go fields) meet the wire's member names.
func lookupFold(obj map[string]any, name string) (any, bool) {
	if v, ok := obj[name]; ok {
		return v, true
	}
	for k, v := range obj {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}

func scalar(raw any) (string, error) {
	switch x := raw.(type) {
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	return "", fmt.Errorf("expected a scalar, got %T", raw)
}

func parseTime(raw any) (time.Time, error) {
	str, err := scalar(raw)
	if err != nil {
		return time.Time{}, err
	}
	if f, err := strconv.ParseFloat(str, 64); err == nil {
		return time.UnixMilli(int64(f * 1000)).UTC(), nil
	}
	for _, layout := range []string{time.RFC3339Nano, time.RFC1123} {
		if t, err := time.Parse(layout, str); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("not a timestamp: %q", str)
}

// fieldIndex caches, per struct type, the index of each field by lower-case name. The SDK names
// fields after the model's members, capitalised.
var fieldIndex sync.Map

func fieldByName(v reflect.Value, member string) reflect.Value {
	idx, ok := fieldIndex.Load(v.Type())
	if !ok {
		m := map[string]int{}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				m[strings.ToLower(f.Name)] = i
			}
		}
		idx, _ = fieldIndex.LoadOrStore(v.Type(), m)
	}
	i, ok := idx.(map[string]int)[strings.ToLower(member)]
	if !ok {
		return reflect.Value{}
	}
	return v.Field(i)
}

// DecodeJSON decodes an awsJson request body into in, a pointer to an SDK input struct; schema
// is the input's schema from the service's API model, or nil (see inputSchema).
func DecodeJSON(body []byte, in any, schema *smithy.Schema) error {
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return fmt.Errorf("decode JSON body: %w", err)
	}
	return assign(reflect.ValueOf(in).Elem(), inputSchema(in, schema), raw)
}
