package e2e

import (
	"github.com/runner-codes/infra-operator/cli"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/runner-codes/infra-operator/e2e/internal/refdocs"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// TestOutputsDocumented checks that the reference page of each kind's family
// (docs/families/<family>.md) lists exactly the output keys the kind declares
// (spec.writeOutputsTo), as the line "- **Kind**: `key`, `key`...", and that every kind
// declares some.
func TestOutputsDocumented(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := shared.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	for _, f := range cli.Families() {
		for _, add := range f.AddToScheme {
			if err := add(scheme); err != nil {
				t.Fatal(err)
			}
		}
	}
	families, err := DocFamilies()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		page := refdocs.FamilyPage(f.Name)
		doc, err := os.ReadFile(filepath.Join("..", page))
		if err != nil {
			t.Errorf("the %s family has no reference page: %v", f.Name, err)
			continue
		}
		for _, crd := range f.CRDs {
			kind := crd.Spec.Names.Kind
			obj, err := scheme.New(shared.GroupVersion.WithKind(kind))
			if err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
			o, ok := obj.(shared.Managed)
			if !ok {
				continue
			}
			line, ok := outputsLine(kind, o)
			if !ok {
				t.Errorf("%s declares no outputs", kind)
				continue
			}
			if !strings.Contains(string(doc), line) {
				t.Errorf("%s lacks the outputs line of %s:\n%s", page, kind, line)
			}
		}
	}
}

// outputsLine returns the line "- **Kind**: `key`, `key`..." that documents the output keys
// of kind, whose empty object is o, and false when the kind declares none.
func outputsLine(kind string, o shared.Managed) (string, bool) {
	keys := managed.OutputKeys(o)
	if len(keys) == 0 {
		return "", false
	}
	return "- **" + kind + "**: `" + strings.Join(keys, "`, `") + "`\n", true
}
