package managed

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// OutputTag is the struct tag with which a kind declares, on a field of its spec or status,
// a value an application needs (spec.writeOutputsTo): `output:"endpoint"` writes the field
// under the key endpoint, `output:""` under the field's JSON name. A field that holds a
// v1alpha1.SecretKeySelector (a password in a Secret) writes <key>SecretName and
// <key>SecretKey, and its value under <key> in an outputs Secret only.
const OutputTag = "output"

// Outputs are the values an application needs from one managed resource.
type Outputs struct {
	// Values are the plain values by key: identifiers, endpoints, ports, names.
	Values map[string]string
	// Secrets are the values that live in Secrets of the object's namespace, by key: they are
	// copied into an outputs Secret and never into a ConfigMap.
	Secrets map[string]v1alpha1.SecretKeySelector
}

// CollectOutputs returns the outputs o's kind declares with OutputTag on the fields of its
// Spec and Status (and of the structs they embed). Empty and zero values are left out: an
// endpoint AWS has not given yet is not written as "".
func CollectOutputs(o v1alpha1.Managed) Outputs {
	out := Outputs{Values: map[string]string{}, Secrets: map[string]v1alpha1.SecretKeySelector{}}
	v := reflect.Indirect(reflect.ValueOf(o))
	if v.Kind() != reflect.Struct {
		return out
	}
	for _, part := range []string{"Spec", "Status"} {
		if f := v.FieldByName(part); f.IsValid() && f.Kind() == reflect.Struct {
			collect(f, &out)
		}
	}
	return out
}

// OutputKeys returns the keys of the outputs o's kind declares, whether or not they have values
// now, sorted: the keys its documentation lists.
func OutputKeys(o v1alpha1.Managed) []string {
	var keys []string
	t := reflect.Indirect(reflect.ValueOf(o)).Type()
	for _, part := range []string{"Spec", "Status"} {
		if f, ok := t.FieldByName(part); ok && f.Type.Kind() == reflect.Struct {
			keys = appendKeys(keys, f.Type)
		}
	}
	slices.Sort(keys)
	return keys
}

// appendKeys adds to keys those the tagged fields of struct type t declare.
func appendKeys(keys []string, t reflect.Type) []string {
	for i := range t.NumField() {
		sf := t.Field(i)
		key, tagged := sf.Tag.Lookup(OutputTag)
		if !tagged {
			if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
				keys = appendKeys(keys, sf.Type)
			}
			continue
		}
		if key == "" {
			key, _, _ = strings.Cut(sf.Tag.Get("json"), ",")
		}
		ft := sf.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft == secretKeySelector {
			keys = append(keys, key, key+"SecretKey", key+"SecretName")
			continue
		}
		keys = append(keys, key)
	}
	return keys
}

var secretKeySelector = reflect.TypeFor[v1alpha1.SecretKeySelector]()

// collect adds the tagged fields of the struct v to out, descending into embedded structs.
func collect(v reflect.Value, out *Outputs) {
	t := v.Type()
	for i := range t.NumField() {
		sf, fv := t.Field(i), v.Field(i)
		key, tagged := sf.Tag.Lookup(OutputTag)
		if !tagged {
			if sf.Anonymous && fv.Kind() == reflect.Struct {
				collect(fv, out)
			}
			continue
		}
		if key == "" {
			key, _, _ = strings.Cut(sf.Tag.Get("json"), ",")
		}
		for fv.Kind() == reflect.Pointer {
			if fv.IsNil() {
				break
			}
			fv = fv.Elem()
		}
		if fv.Kind() == reflect.Pointer {
			continue
		}
		if fv.Type() == secretKeySelector {
			sel := fv.Interface().(v1alpha1.SecretKeySelector)
			if sel.Name != "" && sel.Key != "" {
				out.Values[key+"SecretName"] = sel.Name
				out.Values[key+"SecretKey"] = sel.Key
				out.Secrets[key] = sel
			}
			continue
		}
		if s, ok := scalar(fv); ok {
			out.Values[key] = s
		}
	}
}

// scalar renders a string, number, boolean or list of strings as an output value; ok is false
// for an empty or zero value and for other types.
func scalar(v reflect.Value) (string, bool) {
	switch v.Kind() {
	case reflect.String:
		return v.String(), v.String() != ""
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), v.Int() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10), v.Uint() != 0
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), true
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.String || v.Len() == 0 {
			return "", false
		}
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = v.Index(i).String()
		}
		return strings.Join(parts, ","), true
	}
	return "", false
}
