package cli

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chartutil"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/runner-codes/infra-operator/charts"
)

// gitopsDocs returns the YAML documents of a GitOps example file.
func gitopsDocs(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	var docs []map[string]any
	for {
		var d map[string]any
		if err := dec.Decode(&d); err != nil {
			if errors.Is(err, io.EOF) {
				return docs
			}
			t.Fatalf("%s: %v", path, err)
		}
		if d != nil {
			docs = append(docs, d)
		}
	}
}

// TestFluxValuesMatchTheSchema checks that the Flux example's values pass the umbrella chart's
// values schema and name every family.
func TestFluxValuesMatchTheSchema(t *testing.T) {
	var values map[string]any
	for _, d := range gitopsDocs(t, "../examples/gitops/flux/infra-operator.yaml") {
		if d["kind"] == "HelmRelease" {
			values = d["spec"].(map[string]any)["values"].(map[string]any)
		}
	}
	if values == nil {
		t.Fatal("no HelmRelease values")
	}
	chart, err := charts.Load(charts.Umbrella)
	if err != nil {
		t.Fatal(err)
	}
	if err := chartutil.ValidateAgainstSchema(chart, values); err != nil {
		t.Errorf("the values fail the umbrella chart's schema: %v", err)
	}
	for _, f := range charts.Families() {
		if _, ok := values[f]; !ok {
			t.Errorf("the Flux example does not switch the %s family", f)
		}
	}
}

// TestApplicationSetListsEveryFamily checks that the per-family ApplicationSet offers every
// family chart.
func TestApplicationSetListsEveryFamily(t *testing.T) {
	docs := gitopsDocs(t, "../examples/gitops/argocd/applicationset-families.yaml")
	if len(docs) != 1 || docs[0]["kind"] != "ApplicationSet" {
		t.Fatalf("want one ApplicationSet, got %d documents", len(docs))
	}
	matrix := docs[0]["spec"].(map[string]any)["generators"].([]any)[0].(map[string]any)["matrix"].(map[string]any)
	list := matrix["generators"].([]any)[0].(map[string]any)["list"].(map[string]any)["elements"].([]any)
	var got []string
	for _, e := range list {
		got = append(got, e.(map[string]any)["family"].(string))
	}
	if !slices.Equal(got, charts.Families()) {
		t.Errorf("families %v, want %v", got, charts.Families())
	}
	if d := gitopsDocs(t, "../examples/gitops/argocd/applicationset-umbrella.yaml"); len(d) != 1 || d[0]["kind"] != "ApplicationSet" {
		t.Errorf("the umbrella example is not one ApplicationSet")
	}
}

// TestApplicationSetsKeepCRDs checks that Argo CD, which prunes what leaves the charts, never
// deletes a CRD through the example ApplicationSets: every CRD template of the charts they
// install carries the sync options that forbid pruning and deleting it, no sync option
// replaces objects (a CRD replaced is a CRD deleted), and generated Applications are deleted
// without deleting what they installed.
func TestApplicationSetsKeepCRDs(t *testing.T) {
	const keep = "\n    argocd.argoproj.io/sync-options: Prune=false,Delete=false\n"
	for _, file := range []string{"applicationset-families.yaml", "applicationset-umbrella.yaml"} {
		t.Run(file, func(t *testing.T) {
			docs := gitopsDocs(t, "../examples/gitops/argocd/"+file)
			if len(docs) != 1 || docs[0]["kind"] != "ApplicationSet" {
				t.Fatalf("want one ApplicationSet, got %d documents", len(docs))
			}
			spec := docs[0]["spec"].(map[string]any)
			policy, _ := spec["syncPolicy"].(map[string]any)
			if preserve, _ := policy["preserveResourcesOnDeletion"].(bool); !preserve {
				t.Error("spec.syncPolicy.preserveResourcesOnDeletion is not true: deleting an Application would delete what it installed")
			}
			app := spec["template"].(map[string]any)["spec"].(map[string]any)
			for _, o := range app["syncPolicy"].(map[string]any)["syncOptions"].([]any) {
				if o == "Replace=true" || o == "Force=true" {
					t.Errorf("sync option %s deletes and recreates objects, CRDs included", o)
				}
			}
			chartPath := app["source"].(map[string]any)["path"].(string)
			names := []string{strings.TrimPrefix(chartPath, "charts/")}
			if strings.Contains(chartPath, "{{") {
				names = charts.Families()
			}
			for _, name := range names {
				var crds int
				err := fs.WalkDir(charts.FS(), name, func(p string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() || path.Base(path.Dir(p)) != "crds" {
						return err
					}
					crds++
					b, err := fs.ReadFile(charts.FS(), p)
					if err != nil {
						return err
					}
					if !strings.Contains(string(b), keep) {
						t.Errorf("%s lacks argocd.argoproj.io/sync-options: Prune=false,Delete=false", p)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if crds == 0 {
					t.Errorf("the chart %s (from %s) has no CRD templates", name, chartPath)
				}
			}
		})
	}
}
