package refdocs

import (
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// KindSection renders one kind's field reference: a heading "### <Kind> fields", the kind's
// description, a line naming the common fields (linked to commonLink) and the table of the
// kind's own spec fields.
func KindSection(crd *apiextensionsv1.CustomResourceDefinition, commonLink string) (string, error) {
	spec, err := SpecSchema(crd)
	if err != nil {
		return "", err
	}
	common := CommonFields()
	for _, name := range common {
		if _, ok := spec.Properties[name]; !ok {
			return "", fmt.Errorf("%s: the spec lacks the common field %s", crd.Spec.Names.Kind, name)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### %s fields\n\n", crd.Spec.Names.Kind)
	if d := kindDescription(crd); d != "" {
		b.WriteString(escape(d) + "\n\n")
	}
	fmt.Fprintf(&b, "`%s` (%s/%s, %s): `spec` has the [common fields](%s) (`%s`) and these.\n\n",
		crd.Spec.Names.Kind, crd.Spec.Group, servedVersion(crd), strings.ToLower(string(crd.Spec.Scope)),
		commonLink, strings.Join(common, "`, `"))
	b.WriteString(Table(Fields(spec, common)))
	return b.String(), nil
}

// CommonSection renders the table of the common fields as crd's schema declares them.
func CommonSection(crd *apiextensionsv1.CustomResourceDefinition) (string, error) {
	spec, err := SpecSchema(crd)
	if err != nil {
		return "", err
	}
	common := CommonFields()
	only := &apiextensionsv1.JSONSchemaProps{Required: spec.Required, Properties: map[string]apiextensionsv1.JSONSchemaProps{}}
	for _, name := range common {
		p, ok := spec.Properties[name]
		if !ok {
			return "", fmt.Errorf("%s: the spec lacks the common field %s", crd.Spec.Names.Kind, name)
		}
		only.Properties[name] = p
	}
	return Table(Fields(only, nil)), nil
}

// Table renders fields as a markdown table of path, type, required and description.
func Table(fields []Field) string {
	var b strings.Builder
	b.WriteString("| Field | Type | Required | Description |\n|---|---|---|---|\n")
	for _, f := range fields {
		required := ""
		if f.Required {
			required = "yes"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", f.Path, escape(f.Type), required, escape(f.Description))
	}
	return b.String()
}

// kindDescription returns the description of the kind's top-level schema on one line.
func kindDescription(crd *apiextensionsv1.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Served && v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			return strings.Join(strings.Fields(v.Schema.OpenAPIV3Schema.Description), " ")
		}
	}
	return ""
}

// servedVersion returns the name of crd's first served version.
func servedVersion(crd *apiextensionsv1.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Served {
			return v.Name
		}
	}
	return ""
}

// escape keeps text from breaking a table cell or turning into HTML or emphasis; code spans
// keep their text.
func escape(s string) string {
	var b strings.Builder
	code := false
	for _, r := range s {
		switch {
		case r == '`':
			code = !code
			b.WriteRune(r)
		case r == '|':
			b.WriteString(`\|`)
		case code:
			b.WriteRune(r)
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '*':
			b.WriteString(`\*`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
