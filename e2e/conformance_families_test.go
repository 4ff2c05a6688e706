package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/chart"

	"github.com/runner-codes/infra-operator/charts"
	"github.com/runner-codes/infra-operator/cli/sandbox"
	"github.com/runner-codes/infra-operator/shared/operator"
)

// A familyCheck is one of the places a family is wired into: run returns what is missing for
// the family name, each finding a sentence that says what to do.
type familyCheck struct {
	name string
	run  func(c *conformance, name string) []string
}

// familyChecks are the places every family is wired into, which the new-family section of
// docs/adding-a-kind.md lists.
var familyChecks = []familyCheck{
	{"go.work", checkGoWork},
	{"charts", checkCharts},
	{"infractl", checkCLIFamilies},
	{"sandbox examples", checkSandboxExamples},
	{"integration tests", checkIntegrationTests},
	{"Dockerfile", checkDockerfile},
	{"declared kinds", checkEveryCRDDeclared},
}

// familyDirs returns the families of the repository at root: the directories under operators/
// that hold a go.mod, sorted.
func familyDirs(root string) ([]string, error) {
	mods, err := filepath.Glob(filepath.Join(root, "operators", "*", "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("find the families: %w", err)
	}
	names := make([]string, 0, len(mods))
	for _, m := range mods {
		names = append(names, filepath.Base(filepath.Dir(m)))
	}
	sort.Strings(names)
	return names, nil
}

// checkGoWork checks that go.work uses the family's module.
func checkGoWork(c *conformance, name string) []string {
	b, err := os.ReadFile(filepath.Join(c.root, "go.work"))
	if err != nil {
		return []string{err.Error()}
	}
	if regexp.MustCompile(`(?m)^\s*(use\s+)?\./operators/` + regexp.QuoteMeta(name) + `\s*$`).Match(b) {
		return nil
	}
	return []string{fmt.Sprintf("go.work does not use ./operators/%s: add it to the use block", name)}
}

// checkCharts checks that the charts module lists the family, that its chart exists and that
// the umbrella chart depends on it.
func checkCharts(c *conformance, name string) []string {
	var findings []string
	if !slices.Contains(charts.Families(), name) {
		findings = append(findings, fmt.Sprintf("charts.Families() does not list it: add %q to families and to the go:embed line in charts/charts.go", name))
	}
	if _, err := os.Stat(filepath.Join(c.root, "charts", name, "Chart.yaml")); err != nil {
		findings = append(findings, fmt.Sprintf("charts/%s/Chart.yaml does not exist: run `make charts`", name))
	}
	umbrella, err := charts.Load(charts.Umbrella)
	if err != nil {
		return append(findings, err.Error())
	}
	if !slices.ContainsFunc(umbrella.Metadata.Dependencies, func(d *chart.Dependency) bool { return d.Name == name }) {
		findings = append(findings, fmt.Sprintf("the umbrella chart does not depend on it: add %s to charts/%s/Chart.yaml's dependencies "+
			"(with condition %s.enabled), a %s section to its values, and run `make charts`", name, charts.Umbrella, name, name))
	}
	return findings
}

// checkCLIFamilies checks that infractl's families (cli.Families, cli/families.go), which the
// sandbox runs and the repository-wide checks walk, include the family.
func checkCLIFamilies(c *conformance, name string) []string {
	if slices.ContainsFunc(c.families, func(f operator.Family) bool { return f.Name == name }) {
		return nil
	}
	return []string{fmt.Sprintf("cli/families.go does not run it: add %s.Family() to Families() (and the module to cli/go.mod)", name)}
}

// checkSandboxExamples checks that examples/<family>/ holds examples and that the sandbox
// applies that directory.
func checkSandboxExamples(c *conformance, name string) []string {
	var findings []string
	if files, _ := filepath.Glob(filepath.Join(c.root, "examples", name, "*.yaml")); len(files) == 0 {
		findings = append(findings, fmt.Sprintf("examples/%s/ holds no example: add one per kind", name))
	}
	if !slices.Contains(sandbox.ExampleDirs, name) {
		findings = append(findings, fmt.Sprintf("the sandbox does not apply examples/%s/: add %q to ExampleDirs in cli/sandbox/examples.go", name, name))
	}
	return findings
}

// checkIntegrationTests checks that e2e/<family>/ holds the family's integration tests and
// benchmarks, which run its controllers against a real API server and the emulator.
func checkIntegrationTests(c *conformance, name string) []string {
	if files, _ := filepath.Glob(filepath.Join(c.root, "e2e", name, "*_test.go")); len(files) > 0 {
		return nil
	}
	return []string{fmt.Sprintf("e2e/%s/ holds no test: add its TestMain (testenv.Main), a harness, the kinds' tests and BenchmarkSeedExamples, as e2e/networking/ has", name)}
}

// checkDockerfile checks that the family's image can be built: from the repository's
// Dockerfile, which takes the family as the FAMILY build argument and builds its
// cmd/<family>-operator, or from a Dockerfile of its own, operators/<family>/Dockerfile.
func checkDockerfile(c *conformance, name string) []string {
	if _, err := os.Stat(filepath.Join(c.root, "operators", name, "Dockerfile")); err == nil {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(c.root, "Dockerfile"))
	if err != nil || !regexp.MustCompile(`(?m)^ARG FAMILY\b`).Match(b) {
		return []string{fmt.Sprintf("no Dockerfile builds it: neither a Dockerfile at the root with ARG FAMILY nor operators/%s/Dockerfile", name)}
	}
	if _, err := os.Stat(filepath.Join(c.root, "operators", name, "cmd", name+"-operator", "main.go")); err != nil {
		return []string{fmt.Sprintf("the Dockerfile builds operators/%s/cmd/%s-operator, which does not exist: add its main.go (operator.Main(%s.Family()))", name, name, name)}
	}
	return nil
}

// checkEveryCRDDeclared checks that every CRD of the family belongs to a kind the family
// declares in its Kinds, so that no kind escapes the other checks.
func checkEveryCRDDeclared(c *conformance, name string) []string {
	var findings []string
	for kind := range c.crdKinds[name] {
		if !slices.ContainsFunc(c.kinds, func(k declaredKind) bool { return k.Family.Name == name && k.Name == kind }) {
			findings = append(findings, fmt.Sprintf("its CRD of kind %s belongs to no kind of its Kinds: add engine.For(%s.Kind()) to operators/%s/family.go",
				kind, strings.ToLower(kind), name))
		}
	}
	slices.Sort(findings)
	return findings
}
