package charts

import (
	"slices"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chartutil"

	"github.com/runner-codes/infra-operator/charts/internal/chartgen"
)

// TestGeneratedChartsAreCurrent fails when the charts on disk differ from what `make charts`
// makes of the skeleton, the generated CRDs and the generated RBAC: a forgotten `make charts`.
func TestGeneratedChartsAreCurrent(t *testing.T) {
	families, err := chartgen.Families("..")
	if err != nil {
		t.Fatal(err)
	}
	files, err := chartgen.Generate("..", families)
	if err != nil {
		t.Fatal(err)
	}
	stale, err := chartgen.Stale(".", families, files)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Errorf("the charts are stale, run `make charts`:\n%s", strings.Join(stale, "\n"))
	}
}

// TestFamiliesMatchTheRepository checks that the embedded families and the umbrella's
// dependencies are exactly the repository's operators.
func TestFamiliesMatchTheRepository(t *testing.T) {
	want, err := chartgen.Families("..")
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(slices.Values(Families())); !slices.Equal(got, want) {
		t.Errorf("Families() = %v, want the operators %v", got, want)
	}
	umbrella, err := chartutil.LoadChartfile(Umbrella + "/Chart.yaml")
	if err != nil {
		t.Fatalf("read the umbrella's Chart.yaml: %v", err)
	}
	var deps []string
	for _, d := range umbrella.Dependencies {
		if d.Repository != "file://../"+d.Name || d.Condition != d.Name+".enabled" {
			t.Errorf("dependency %s: repository %q, condition %q; want file://../%[1]s and %[1]s.enabled", d.Name, d.Repository, d.Condition)
		}
		deps = append(deps, d.Name)
	}
	if !slices.Equal(deps, Families()) {
		t.Errorf("the umbrella depends on %v, want %v", deps, Families())
	}
}
