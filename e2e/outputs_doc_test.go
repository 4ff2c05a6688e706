package e2e

import (
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// TestOutputsDocumented checks that README.md lists, for every managed kind, exactly the
// output keys the kind declares (spec.writeOutputsTo), as the line
// "- **Kind**: `key`, `key`...", and that every kind declares some.
func TestOutputsDocumented(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	if err := shared.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	for _, f := range Families() {
		for _, add := range f.AddToScheme {
			if err := add(scheme); err != nil {
				t.Fatal(err)
			}
		}
	}
	kinds, err := CRDKinds()
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range kinds {
		obj, err := scheme.New(shared.GroupVersion.WithKind(kind))
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		o, ok := obj.(shared.Managed)
		if !ok {
			continue
		}
		keys := managed.OutputKeys(o)
		if len(keys) == 0 {
			t.Errorf("%s declares no outputs", kind)
			continue
		}
		line := "- **" + kind + "**: `" + strings.Join(keys, "`, `") + "`\n"
		if !strings.Contains(string(readme), line) {
			t.Errorf("README.md lacks the outputs line of %s:\n%s", kind, line)
		}
	}
}
