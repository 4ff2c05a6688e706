// Package refdocs renders the field reference of the CRDs into the documentation pages and
// checks that the pages carry the current one. The generator (e2e/cmd/refdocs) writes the
// pages; the e2e tests fail when a page is stale.
package refdocs

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// MaxDepth is how many levels of a spec are flattened into dotted paths: a field nested
// deeper is left to `kubectl explain`.
const MaxDepth = 5

// Field is one row of a kind's field reference.
type Field struct {
	// Path is the field's dotted path under spec; "[]" marks the items of a list.
	Path string
	// Type is the field's type as Go would write it: string, []object, map[string]string...
	Type string
	// Required is true when the field's parent requires it.
	Required bool
	// Description is the schema's description, followed by its enum, default and, for an
	// object cut at MaxDepth, where its fields are documented.
	Description string
}

// CommonFields returns the JSON names of the fields every managed kind embeds from
// shared.ManagedSpec, in declaration order.
func CommonFields() []string {
	t := reflect.TypeFor[shared.ManagedSpec]()
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// SpecSchema returns the spec schema of crd's served version.
func SpecSchema(crd *apiextensionsv1.CustomResourceDefinition) (*apiextensionsv1.JSONSchemaProps, error) {
	for _, v := range crd.Spec.Versions {
		if !v.Served || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		spec, ok := v.Schema.OpenAPIV3Schema.Properties["spec"]
		if !ok {
			return nil, fmt.Errorf("%s: version %s has no spec", crd.Spec.Names.Kind, v.Name)
		}
		return &spec, nil
	}
	return nil, fmt.Errorf("%s: no served version with a schema", crd.Spec.Names.Kind)
}

// Fields flattens spec into rows, depth first in alphabetical order, leaving out the
// top-level fields named in skip.
func Fields(spec *apiextensionsv1.JSONSchemaProps, skip []string) []Field {
	var out []Field
	walk(spec, "", 1, skip, &out)
	return out
}

// walk appends the properties of s at the given depth, prefixing their names with prefix.
func walk(s *apiextensionsv1.JSONSchemaProps, prefix string, depth int, skip []string, out *[]Field) {
	required := make(map[string]bool, len(s.Required))
	for _, name := range s.Required {
		required[name] = true
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		if depth == 1 && slices.Contains(skip, name) {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := s.Properties[name]
		path := prefix + name
		child, childPrefix := nested(&p, path)
		f := Field{Path: path, Type: typeOf(&p), Required: required[name], Description: describe(&p)}
		if child != nil && depth >= MaxDepth {
			f.Description = strings.TrimSpace(f.Description + " Its fields: `kubectl explain` this path.")
		}
		*out = append(*out, f)
		if child != nil && depth < MaxDepth {
			walk(child, childPrefix, depth+1, skip, out)
		}
	}
}

// nested returns the object schema whose properties are listed under p (p itself, or its
// items for a list of objects) and the prefix of their paths, or nil when p has none.
func nested(p *apiextensionsv1.JSONSchemaProps, path string) (*apiextensionsv1.JSONSchemaProps, string) {
	if len(p.Properties) > 0 {
		return p, path + "."
	}
	if p.Items != nil && p.Items.Schema != nil && len(p.Items.Schema.Properties) > 0 {
		return p.Items.Schema, path + "[]."
	}
	return nil, ""
}

// typeOf writes a schema's type the way Go would: []string, map[string]string, object.
func typeOf(s *apiextensionsv1.JSONSchemaProps) string {
	switch {
	case s.XIntOrString:
		return "int or string"
	case s.Type == "array" && s.Items != nil && s.Items.Schema != nil:
		return "[]" + typeOf(s.Items.Schema)
	case s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
		return "map[string]" + typeOf(s.AdditionalProperties.Schema)
	case s.Type == "":
		return "any"
	case s.Format != "":
		return s.Type + " (" + s.Format + ")"
	}
	return s.Type
}

// describe returns the schema's description on one line, with its enum and default.
func describe(s *apiextensionsv1.JSONSchemaProps) string {
	parts := []string{strings.Join(strings.Fields(s.Description), " ")}
	if len(s.Enum) > 0 {
		values := make([]string, 0, len(s.Enum))
		for _, v := range s.Enum {
			values = append(values, "`"+literal(v.Raw)+"`")
		}
		parts = append(parts, "One of "+strings.Join(values, ", ")+".")
	}
	if s.Default != nil {
		parts = append(parts, "Default `"+literal(s.Default.Raw)+"`.")
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// literal returns a JSON value as written in YAML: a string without its quotes.
func literal(raw []byte) string {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	return string(raw)
}
