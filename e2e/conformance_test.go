package e2e

import (
	"github.com/runner-codes/infra-operator/cli"
	"os"
	"path/filepath"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"

	"github.com/runner-codes/infra-operator/emulator"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// repoRoot is the repository's root, seen from this package's directory.
const repoRoot = ".."

// TestConformance is the checklist of docs/adding-a-kind.md: it walks every kind the families
// declare and fails, naming the kind and what to do, when one lacks any of the places a kind
// touches (kindChecks), and it checks that every family directory is wired into the
// repository (familyChecks).
func TestConformance(t *testing.T) {
	c := loadConformance(t)
	referencing := 0
	for _, k := range c.kinds {
		referencing += len(k.Controller.Targets())
		t.Run(k.Family.Name+"/"+k.Name, func(t *testing.T) {
			for _, check := range kindChecks {
				for _, finding := range check.run(c, k) {
					t.Errorf("%s (%s family), %s: %s", k.Name, k.Family.Name, check.name, finding)
				}
			}
		})
	}
	if referencing == 0 {
		t.Error("no kind declares a reference: the RBAC check proves nothing")
	}
	dirs, err := familyDirs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range dirs {
		t.Run("family/"+name, func(t *testing.T) {
			for _, check := range familyChecks {
				for _, finding := range check.run(c, name) {
					t.Errorf("the %s family, %s: %s", name, check.name, finding)
				}
			}
		})
	}
}

// conformance is what the checks compare the kinds and families with, read once.
type conformance struct {
	// root is the repository's root.
	root string
	// families are cli.Families(), the families infractl runs.
	families []operator.Family
	// kinds are the kinds the families declare.
	kinds []declaredKind
	// crdKinds holds, by family, the kinds of the family's CRDs.
	crdKinds map[string]map[string]bool
	// plural maps every CRD's kind to its plural resource name.
	plural map[string]string
	// examples holds, by family, the example files under examples/<family>/ by the kind
	// they make.
	examples map[string]exampleIndex
	// benchmarked holds, by family, the kinds the family's benchmarks measure.
	benchmarked map[string]map[string]bool
	// docs is the text of README.md and of the pages under docs/.
	docs string
	// health holds the Argo CD health checks example's scripts by their argocd-cm key.
	health map[string]string
	// roles holds every family's ClusterRole by the family's name.
	roles map[string]rbacv1.ClusterRole
	// served are the emulator's services by SDK package.
	served map[string]emulator.ServedService
	// calls finds the SDK operations of a driver package.
	calls *sdkCalls
}

// loadConformance reads what the checks compare with, and fails t when it cannot.
func loadConformance(t *testing.T) *conformance {
	t.Helper()
	c := &conformance{root: repoRoot, families: cli.Families(), crdKinds: map[string]map[string]bool{},
		plural: map[string]string{}, examples: map[string]exampleIndex{},
		benchmarked: map[string]map[string]bool{}, roles: map[string]rbacv1.ClusterRole{},
		served: emulator.New(emulator.Options{}).Served(), calls: newSDKCalls(repoRoot)}
	var err error
	if c.kinds, err = declaredKinds(c.families); err != nil {
		t.Fatal(err)
	}
	if c.docs, err = outputsDocs(c.root); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(healthConfig)
	if err != nil {
		t.Fatal(err)
	}
	var cm struct{ Data map[string]string }
	if err := yaml.Unmarshal(b, &cm); err != nil {
		t.Fatalf("%s: %v", healthConfig, err)
	}
	c.health = cm.Data
	defs, err := CRDs()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range defs {
		c.plural[d.Spec.Names.Kind] = d.Spec.Names.Plural
	}
	documented, err := DocFamilies()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range documented {
		c.crdKinds[f.Name] = map[string]bool{}
		for _, d := range f.CRDs {
			c.crdKinds[f.Name][d.Spec.Names.Kind] = true
		}
	}
	for _, f := range c.families {
		c.examples[f.Name] = readExamples(t, filepath.Join(c.root, "examples", f.Name))
		if c.benchmarked[f.Name], err = benchmarkedKinds(c.root, f.Name, c.examples[f.Name]); err != nil {
			t.Fatal(err)
		}
		if c.roles[f.Name], err = familyRole(c.root, f.Name); err != nil {
			t.Fatal(err)
		}
	}
	return c
}
