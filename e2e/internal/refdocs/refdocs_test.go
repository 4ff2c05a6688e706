package refdocs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// testCRD is a CRD with the common fields, a required field, an enum with a default, a list
// of objects and an object nested deeper than MaxDepth.
const testCRD = `
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget}
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        description: Widget is a <thing>.
        properties:
          spec:
            required: [providerRef, size]
            properties:
              providerRef: {type: object, description: ProviderRef names the AWSProvider to use., properties: {name: {type: string}}}
              tags: {type: object, additionalProperties: {type: string}}
              deletionPolicy: {type: string, enum: [Delete, Retain], default: Delete}
              managementPolicy: {type: string}
              driftPolicy: {type: string}
              changePolicy: {type: string}
              writeOutputsTo: {type: object}
              size:
                type: integer
                format: int32
                description: |-
                  Size is the widget's size
                  in units | parts.
              routes:
                type: array
                items:
                  type: object
                  required: [key]
                  properties:
                    key: {type: string}
                    a: {type: object, properties: {b: {type: object, properties: {c: {type: string}}}}}
`

// widget decodes testCRD.
func widget(t *testing.T) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict([]byte(testCRD), crd); err != nil {
		t.Fatal(err)
	}
	return crd
}

func TestCommonFieldsAreManagedSpec(t *testing.T) {
	want := []string{"providerRef", "tags", "deletionPolicy", "managementPolicy", "driftPolicy", "changePolicy", "writeOutputsTo"}
	if got := CommonFields(); !slices.Equal(got, want) {
		t.Errorf("CommonFields() = %v, want %v", got, want)
	}
}

func TestFieldsFlattenToMaxDepth(t *testing.T) {
	spec, err := SpecSchema(widget(t))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range Fields(spec, CommonFields()) {
		paths = append(paths, f.Path)
	}
	want := []string{"routes", "routes[].a", "routes[].a.b", "routes[].a.b.c", "routes[].key", "size"}
	if !slices.Equal(paths, want) {
		t.Fatalf("paths = %v, want %v", paths, want)
	}
	fields := Fields(spec, CommonFields())
	if f := fields[0]; f.Type != "[]object" || f.Required {
		t.Errorf("routes = %+v, want an optional []object", f)
	}
	if f := fields[4]; !f.Required {
		t.Errorf("routes[].key = %+v, want it required", f)
	}
	if f := fields[5]; f.Type != "integer (int32)" || f.Description != "Size is the widget's size in units | parts." {
		t.Errorf("size = %+v", f)
	}
}

func TestFieldsCutBelowMaxDepth(t *testing.T) {
	deep := &apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
		"d": {Type: "string"},
	}}
	s := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"x": *deep}}
	for range MaxDepth - 1 {
		s = apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"x": s}}
	}
	fields := Fields(&s, nil)
	if len(fields) != MaxDepth {
		t.Fatalf("got %d rows, want %d: %+v", len(fields), MaxDepth, fields)
	}
	if last := fields[len(fields)-1]; !strings.Contains(last.Description, "kubectl explain") {
		t.Errorf("the cut field does not say where its fields are: %+v", last)
	}
}

func TestKindSectionRendersTable(t *testing.T) {
	got, err := KindSection(widget(t), "../common.md#common-fields")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### Widget fields\n\nWidget is a &lt;thing&gt;.\n",
		"[common fields](../common.md#common-fields)",
		"| `size` | integer (int32) | yes | Size is the widget's size in units \\| parts. |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the section lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "| `deletionPolicy`") {
		t.Errorf("the section lists a common field:\n%s", got)
	}
}

func TestCommonSectionListsEnumAndDefault(t *testing.T) {
	got, err := CommonSection(widget(t))
	if err != nil {
		t.Fatal(err)
	}
	want := "| `deletionPolicy` | string |  | One of `Delete`, `Retain`. Default `Delete`. |\n"
	if !strings.Contains(got, want) || !strings.Contains(got, "| `providerRef` | object | yes |") {
		t.Errorf("CommonSection() =\n%s\nwant a line %q and a required providerRef", got, want)
	}
}

func TestKindSectionNeedsCommonFields(t *testing.T) {
	crd := widget(t)
	delete(crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties, "tags")
	if _, err := KindSection(crd, "x"); err == nil {
		t.Error("KindSection accepted a kind without the common field tags")
	}
}

func TestSplice(t *testing.T) {
	doc := "# Page\n\n" + Begin("fields") + "\nold\n" + End("fields") + "\n\nafter\n"
	got, err := Splice(doc, "fields", "new\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "# Page\n\n" + Begin("fields") + "\n\nnew\n\n" + End("fields") + "\n\nafter\n"
	if got != want {
		t.Errorf("Splice() = %q, want %q", got, want)
	}
	again, err := Splice(got, "fields", "new\n")
	if err != nil || again != got {
		t.Errorf("Splice is not stable: %q, %v", again, err)
	}
	if _, err := Splice("# Page\n", "fields", "x"); err == nil {
		t.Error("Splice accepted a page without markers")
	}
}

func TestApplyReportsAndRewritesStalePages(t *testing.T) {
	root := t.TempDir()
	page := filepath.Join(root, "page.md")
	stale := "# Page\n\n" + Begin("fields") + "\nold\n" + End("fields") + "\n"
	if err := os.WriteFile(page, []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks := []Block{{Page: "page.md", Name: "fields", Body: "new"}}
	changed, err := Apply(root, blocks, false)
	if err != nil || !slices.Equal(changed, []string{"page.md"}) {
		t.Fatalf("Apply(check) = %v, %v; want page.md stale", changed, err)
	}
	if b, _ := os.ReadFile(page); string(b) != stale {
		t.Fatal("Apply wrote the page while only checking")
	}
	if _, err := Apply(root, blocks, true); err != nil {
		t.Fatal(err)
	}
	if changed, err := Apply(root, blocks, false); err != nil || len(changed) != 0 {
		t.Errorf("after writing, Apply(check) = %v, %v; want nothing stale", changed, err)
	}
}

func TestBlocksPlacesCommonAndFamilyFields(t *testing.T) {
	blocks, err := Blocks([]Family{{Name: "toys", CRDs: []*apiextensionsv1.CustomResourceDefinition{widget(t)}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[0].Page != CommonPage || blocks[1].Page != "docs/families/toys.md" {
		t.Fatalf("Blocks() = %+v, want the common fields, then docs/families/toys.md", blocks)
	}
	if !strings.Contains(blocks[1].Body, "[common fields](../reconciling.md#common-fields)") {
		t.Errorf("the family block does not link the common fields:\n%s", blocks[1].Body)
	}
	if _, err := Blocks(nil); err == nil {
		t.Error("Blocks accepted no families")
	}
}
