package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/runner-codes/infra-operator/cli"
	"io"
	"io/fs"
	"os"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/chartutil"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/runner-codes/infra-operator/charts"
	"github.com/runner-codes/infra-operator/shared/crds"
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

// fluxHelmRelease is the Flux example's HelmRelease of the operators.
const fluxHelmRelease = "../examples/gitops/flux/operators/helmrelease.yaml"

// fluxValues returns the values of the Flux example's HelmRelease.
func fluxValues(t *testing.T) map[string]any {
	t.Helper()
	for _, d := range gitopsDocs(t, fluxHelmRelease) {
		if d["kind"] == "HelmRelease" {
			return d["spec"].(map[string]any)["values"].(map[string]any)
		}
	}
	t.Fatalf("%s holds no HelmRelease", fluxHelmRelease)
	return nil
}

// TestFluxValuesMatchTheSchema checks that the Flux example's values pass the umbrella chart's
// values schema and name every family.
func TestFluxValuesMatchTheSchema(t *testing.T) {
	values := fluxValues(t)
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

// The infrastructure example's layout and the Argo CD annotation that orders it.
const (
	infrastructurePath = "examples/gitops/infrastructure"
	syncWaveAnnotation = "argocd.argoproj.io/sync-wave"
	kindGroup          = "aws-infra-operator.runner.codes"
)

// Kinds of objects, in the order the sync waves must put them in.
const (
	stageNamespace = iota
	stageSecret
	stageProvider
	stageManaged
)

// stageNames names the stages in failure messages.
var stageNames = []string{"Namespace", "Secret", "AWSProvider", "managed resource"}

// stageOf returns the stage an object of the example belongs in, and false for an object that
// is none of them.
func stageOf(obj *unstructured.Unstructured) (int, bool) {
	group := obj.GroupVersionKind().Group
	switch kind := obj.GetKind(); {
	case group == "" && kind == "Namespace":
		return stageNamespace, true
	case group == "" && kind == "Secret", kind == "SealedSecret", kind == "ExternalSecret":
		return stageSecret, true
	case group == kindGroup && (kind == "AWSProvider" || kind == "ClusterAWSProvider"):
		return stageProvider, true
	case group == kindGroup:
		return stageManaged, true
	}
	return 0, false
}

// buildKustomization builds the kustomization in dir of fsys, as Argo CD and Flux do.
func buildKustomization(t *testing.T, fsys filesys.FileSystem, dir string) []*unstructured.Unstructured {
	t.Helper()
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fsys, dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	var objs []*unstructured.Unstructured
	for _, r := range m.Resources() {
		b, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		obj := &unstructured.Unstructured{}
		if err := obj.UnmarshalJSON(b); err != nil {
			t.Fatalf("%s: %v", r.CurId(), err)
		}
		objs = append(objs, obj)
	}
	return objs
}

// waveOf returns obj's Argo CD sync wave: 0, Argo CD's default, without the annotation.
func waveOf(t *testing.T, obj *unstructured.Unstructured) int {
	t.Helper()
	w, ok := obj.GetAnnotations()[syncWaveAnnotation]
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(w)
	if err != nil {
		t.Fatalf("%s %s: sync wave %q is not a number", obj.GetKind(), obj.GetName(), w)
	}
	return n
}

// infrastructureWithExtras returns an in-memory copy of the infrastructure example, in
// /infrastructure, with the objects of extra (YAML) added to its kustomization's resources.
func infrastructureWithExtras(t *testing.T, extra string) filesys.FileSystem {
	t.Helper()
	fsys := filesys.MakeFsInMemory()
	entries, err := os.ReadDir("../" + infrastructurePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(path.Join("..", infrastructurePath, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "kustomization.yaml" {
			var k map[string]any
			if err := yaml.Unmarshal(b, &k); err != nil {
				t.Fatal(err)
			}
			k["resources"] = append(k["resources"].([]any), "extra.yaml")
			if b, err = yaml.Marshal(k); err != nil {
				t.Fatal(err)
			}
		}
		if err := fsys.WriteFile("/infrastructure/"+e.Name(), b); err != nil {
			t.Fatal(err)
		}
	}
	if err := fsys.WriteFile("/infrastructure/extra.yaml", []byte(extra)); err != nil {
		t.Fatal(err)
	}
	return fsys
}

// userSecrets are what a user adds to the infrastructure example: a Secret, the objects that
// make one from a secret store or an encrypted value, and a cluster-wide provider.
const userSecrets = `apiVersion: v1
kind: Secret
metadata:
  name: aws-credentials
stringData:
  access-key-id: AKIAEXAMPLE
---
apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata:
  name: db-password
spec:
  encryptedData:
    password: AgBy3i4OJSWK
---
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: api-key
spec:
  secretStoreRef:
    kind: ClusterSecretStore
    name: vault
  target:
    name: api-key
---
apiVersion: aws-infra-operator.runner.codes/v1alpha1
kind: ClusterAWSProvider
metadata:
  name: shared
spec:
  region: us-east-1
`

// TestGitOpsInfrastructureWaves checks that the infrastructure example's kustomization puts
// the Namespace, then every Secret (or what makes one), then every AWSProvider and
// ClusterAWSProvider in Argo CD sync waves before every managed resource, and every managed
// resource in one wave (their references order them), for the example as it is and with the
// Secrets a user adds.
func TestGitOpsInfrastructureWaves(t *testing.T) {
	cases := map[string]struct {
		fsys filesys.FileSystem
		dir  string
		want []int
	}{
		"as it is":          {fsys: filesys.MakeFsOnDisk(), dir: "../" + infrastructurePath, want: []int{stageNamespace, stageProvider, stageManaged}},
		"with user Secrets": {fsys: infrastructureWithExtras(t, userSecrets), dir: "/infrastructure", want: []int{stageNamespace, stageSecret, stageProvider, stageManaged}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			waves := map[int][]int{}
			for _, obj := range buildKustomization(t, tc.fsys, tc.dir) {
				stage, ok := stageOf(obj)
				if !ok {
					t.Errorf("%s %s belongs to no stage of the sync waves", obj.GetKind(), obj.GetName())
					continue
				}
				waves[stage] = append(waves[stage], waveOf(t, obj))
			}
			for _, stage := range tc.want {
				if len(waves[stage]) == 0 {
					t.Errorf("no %s in the build", stageNames[stage])
				}
			}
			for stage := stageNamespace; stage < stageManaged; stage++ {
				for later := stage + 1; later <= stageManaged; later++ {
					if len(waves[stage]) > 0 && len(waves[later]) > 0 && slices.Max(waves[stage]) >= slices.Min(waves[later]) {
						t.Errorf("%s objects reach wave %d, not before every %s (from wave %d)",
							stageNames[stage], slices.Max(waves[stage]), stageNames[later], slices.Min(waves[later]))
					}
				}
			}
			if managed := waves[stageManaged]; len(managed) > 0 && slices.Min(managed) != slices.Max(managed) {
				t.Errorf("managed resources span waves %d to %d; references order them, not waves", slices.Min(managed), slices.Max(managed))
			}
		})
	}
}

// TestGitOpsInfrastructureObjects checks the infrastructure example's managed resources and
// providers: each passes its CRD's schema (OpenAPI, CEL rules, no unknown field), names an
// AWSProvider of the example and objects of the example in its references, and belongs to a
// family the Flux example installs.
func TestGitOpsInfrastructureObjects(t *testing.T) {
	schemas, families := crdSchemas(t)
	values := fluxValues(t)
	objs := buildKustomization(t, filesys.MakeFsOnDisk(), "../"+infrastructurePath)
	names := map[string]bool{}
	providers := map[string]bool{}
	for _, obj := range objs {
		names[obj.GetName()] = true
		if obj.GetKind() == "AWSProvider" {
			providers[obj.GetName()] = true
		}
	}
	var managed int
	for _, obj := range objs {
		if obj.GroupVersionKind().Group != kindGroup {
			continue
		}
		id := obj.GetKind() + " " + obj.GetName()
		schema, ok := schemas[obj.GetKind()]
		if !ok {
			t.Errorf("%s: no operator serves the kind", id)
			continue
		}
		for _, problem := range validateAgainstCRD(obj.Object, schema) {
			t.Errorf("%s: %s", id, problem)
		}
		if stage, _ := stageOf(obj); stage != stageManaged {
			continue
		}
		managed++
		if p, _, _ := unstructured.NestedString(obj.Object, "spec", "providerRef", "name"); !providers[p] {
			t.Errorf("%s: providerRef names %q, not an AWSProvider of the example", id, p)
		}
		for _, ref := range referencedNames(obj.Object["spec"]) {
			if !names[ref] {
				t.Errorf("%s refers to %q, which the example does not hold", id, ref)
			}
		}
		family := families[obj.GetKind()]
		if on, _, _ := unstructured.NestedBool(values, family, "enabled"); !on {
			t.Errorf("%s: the Flux example's HelmRelease does not enable the %s family", id, family)
		}
	}
	if managed == 0 {
		t.Error("the example holds no managed resource")
	}
}

// referencedNames returns the names every reference field (a field named *Ref or *Refs) under
// v gives, the providerRef included.
func referencedNames(v any) []string {
	var names []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch {
			case strings.HasSuffix(k, "Ref"):
				if m, ok := e.(map[string]any); ok {
					if n, ok := m["name"].(string); ok {
						names = append(names, n)
					}
				}
			case strings.HasSuffix(k, "Refs"):
				for _, r := range asSlice(e) {
					if n, ok := r.(map[string]any)["name"].(string); ok {
						names = append(names, n)
					}
				}
			}
			names = append(names, referencedNames(e)...)
		}
	case []any:
		for _, e := range x {
			names = append(names, referencedNames(e)...)
		}
	}
	return names
}

// asSlice returns v as a list of objects, or nil when it is not one.
func asSlice(v any) []any {
	l, _ := v.([]any)
	return slices.DeleteFunc(slices.Clone(l), func(e any) bool {
		_, ok := e.(map[string]any)
		return !ok
	})
}

// crdSchemas returns the v1alpha1 schema of every kind the operators serve, and the family of
// every family kind.
func crdSchemas(t *testing.T) (map[string]*apiextensions.JSONSchemaProps, map[string]string) {
	t.Helper()
	defs, err := CRDs()
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*apiextensions.JSONSchemaProps{}
	for _, d := range defs {
		for _, v := range d.Spec.Versions {
			if v.Name != "v1alpha1" || v.Schema == nil {
				continue
			}
			var s apiextensions.JSONSchemaProps
			if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &s, nil); err != nil {
				t.Fatalf("convert the schema of %s: %v", d.Name, err)
			}
			schemas[d.Spec.Names.Kind] = &s
		}
	}
	kindFamilies := map[string]string{}
	for _, f := range cli.Families() {
		if f.CRDs == nil {
			continue
		}
		fdefs, err := crds.Load(f.CRDs)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range fdefs {
			kindFamilies[d.Spec.Names.Kind] = f.Name
		}
	}
	return schemas, kindFamilies
}

// validateAgainstCRD returns what the API server would refuse in obj, a custom resource of
// the kind whose schema is s: OpenAPI errors, broken CEL rules, and fields the schema does not
// know (which server-side apply refuses).
func validateAgainstCRD(obj map[string]any, s *apiextensions.JSONSchemaProps) []string {
	var problems []string
	validator, _, err := validation.NewSchemaValidator(s)
	if err != nil {
		return []string{fmt.Sprintf("schema: %v", err)}
	}
	for _, e := range validation.ValidateCustomResource(nil, obj, validator) {
		problems = append(problems, e.Error())
	}
	structural, err := structuralschema.NewStructural(s)
	if err != nil {
		return append(problems, fmt.Sprintf("structural schema: %v", err))
	}
	for _, p := range pruning.PruneWithOptions(runtime.DeepCopyJSON(obj), structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}) {
		problems = append(problems, "unknown field "+p)
	}
	if cv := cel.NewValidator(structural, true, celconfig.PerCallLimit); cv != nil {
		errs, _ := cv.Validate(context.Background(), nil, structural, obj, nil, celconfig.RuntimeCELCostBudget)
		for _, e := range errs {
			problems = append(problems, e.Error())
		}
	}
	return problems
}

// TestArgoCDInfrastructureApplicationSet checks the ApplicationSet that deploys the
// infrastructure: generated per cluster like the operators' ApplicationSets and from the same
// repository, kept when a cluster leaves, from a path of this repository that kustomize builds
// into the namespace it deploys to, with the sync options and retries a sync started before the
// operators' CRDs needs, and nothing that deletes and recreates objects.
func TestArgoCDInfrastructureApplicationSet(t *testing.T) {
	docs := gitopsDocs(t, "../examples/gitops/argocd/applicationset-infrastructure.yaml")
	if len(docs) != 1 || docs[0]["kind"] != "ApplicationSet" {
		t.Fatalf("want one ApplicationSet, got %d documents", len(docs))
	}
	spec := docs[0]["spec"].(map[string]any)
	if preserve, _, _ := unstructured.NestedBool(spec, "syncPolicy", "preserveResourcesOnDeletion"); !preserve {
		t.Error("spec.syncPolicy.preserveResourcesOnDeletion is not true: a cluster leaving the generator would lose its AWS resources")
	}
	if _, ok, _ := unstructured.NestedMap(spec["generators"].([]any)[0].(map[string]any), "clusters", "selector"); !ok {
		t.Error("the generator is not a cluster generator with a selector")
	}
	operators := gitopsDocs(t, "../examples/gitops/argocd/applicationset-families.yaml")[0]["spec"].(map[string]any)
	for _, field := range [][]string{{"template", "metadata", "labels"}, {"template", "spec", "source", "repoURL"}, {"template", "spec", "project"}} {
		want, _, _ := unstructured.NestedFieldCopy(operators, field...)
		got, _, _ := unstructured.NestedFieldCopy(spec, field...)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s is %v, the operators' ApplicationSet's %v", strings.Join(field, "."), got, want)
		}
	}
	app := spec["template"].(map[string]any)["spec"].(map[string]any)
	options, _, _ := unstructured.NestedStringSlice(app, "syncPolicy", "syncOptions")
	for _, o := range []string{"SkipDryRunOnMissingResource=true", "ServerSideApply=true"} {
		if !slices.Contains(options, o) {
			t.Errorf("sync option %s missing", o)
		}
	}
	for _, o := range options {
		if o == "Replace=true" || o == "Force=true" {
			t.Errorf("sync option %s deletes and recreates objects, and their AWS resources", o)
		}
	}
	if _, ok, _ := unstructured.NestedMap(app, "syncPolicy", "automated"); !ok {
		t.Error("the Application does not sync automatically")
	}
	retry, _, _ := unstructured.NestedMap(app, "syncPolicy", "retry")
	limit, _, _ := unstructured.NestedFloat64(retry, "limit")
	duration, _, _ := unstructured.NestedString(retry, "backoff", "duration")
	maxDuration, _, _ := unstructured.NestedString(retry, "backoff", "maxDuration")
	first, err1 := time.ParseDuration(duration)
	longest, err2 := time.ParseDuration(maxDuration)
	if limit < 1 || err1 != nil || err2 != nil || first <= 0 || longest < first {
		t.Errorf("retry %v: a sync started before the CRDs must be retried with a backoff", retry)
	}
	source, _, _ := unstructured.NestedString(app, "source", "path")
	m := regexp.MustCompile(`default "([^"]+)"`).FindStringSubmatch(source)
	if m == nil || m[1] != infrastructurePath {
		t.Fatalf("source.path %q does not default to %s", source, infrastructurePath)
	}
	var k struct{ Namespace string }
	b, err := os.ReadFile(path.Join("..", m[1], "kustomization.yaml"))
	if err != nil {
		t.Fatalf("the default path is not a kustomize directory of the repository: %v", err)
	}
	if err := yaml.Unmarshal(b, &k); err != nil {
		t.Fatal(err)
	}
	if ns, _, _ := unstructured.NestedString(app, "destination", "namespace"); ns != k.Namespace {
		t.Errorf("destination.namespace %q, but the kustomization puts its objects in %q", ns, k.Namespace)
	}
}

// TestFluxInfrastructureDependsOnOperators checks the Flux example's order: the Kustomization of
// the infrastructure depends on the Kustomization that applies the operators' HelmRelease,
// which waits for the HelmRelease to be Ready, and waits itself for every resource; every
// Kustomization reads an existing path of this repository from the example's GitRepository.
func TestFluxInfrastructureDependsOnOperators(t *testing.T) {
	docs := gitopsDocs(t, "../examples/gitops/flux/infra-operator.yaml")
	var source string
	kustomizations := map[string]map[string]any{}
	for _, d := range docs {
		name, _, _ := unstructured.NestedString(d, "metadata", "name")
		switch d["kind"] {
		case "GitRepository":
			source = name
		case "Kustomization":
			if d["apiVersion"] != "kustomize.toolkit.fluxcd.io/v1" {
				t.Errorf("Kustomization %s is %v, not kustomize.toolkit.fluxcd.io/v1", name, d["apiVersion"])
			}
			kustomizations[name] = d["spec"].(map[string]any)
		}
	}
	var operators, infrastructure string
	for name, spec := range kustomizations {
		if ref, _, _ := unstructured.NestedString(spec, "sourceRef", "name"); ref != source || source == "" {
			t.Errorf("Kustomization %s reads %q, not the example's GitRepository %q", name, ref, source)
		}
		dir := path.Clean(strings.TrimPrefix(spec["path"].(string), "./"))
		if dir == infrastructurePath {
			infrastructure = name
		}
		entries, err := os.ReadDir(path.Join("..", dir))
		if err != nil {
			t.Errorf("Kustomization %s: path %s is not a directory of the repository: %v", name, dir, err)
			continue
		}
		for _, e := range entries {
			for _, d := range gitopsDocs(t, path.Join("..", dir, e.Name())) {
				if d["kind"] != "HelmRelease" {
					continue
				}
				if d["apiVersion"] != "helm.toolkit.fluxcd.io/v2" {
					t.Errorf("the HelmRelease is %v, not helm.toolkit.fluxcd.io/v2", d["apiVersion"])
				}
				operators = name
				if !waitsFor(spec, d) {
					t.Errorf("Kustomization %s is Ready before the HelmRelease is: set wait: true or a health check of it", name)
				}
			}
		}
	}
	if operators == "" || infrastructure == "" {
		t.Fatalf("want a Kustomization applying the HelmRelease and one applying %s, got %q and %q", infrastructurePath, operators, infrastructure)
	}
	spec := kustomizations[infrastructure]
	var depends bool
	for _, d := range asSlice(spec["dependsOn"]) {
		depends = depends || d.(map[string]any)["name"] == operators
	}
	if !depends {
		t.Errorf("Kustomization %s does not depend on %s: it would be applied before the operators run", infrastructure, operators)
	}
	if wait, _, _ := unstructured.NestedBool(spec, "wait"); !wait {
		t.Errorf("Kustomization %s does not wait for its resources to be Ready", infrastructure)
	}
}

// waitsFor reports whether a Flux Kustomization's spec waits for obj, one of the objects it
// applies, to be Ready: wait: true, or a health check that names obj.
func waitsFor(spec, obj map[string]any) bool {
	if wait, _, _ := unstructured.NestedBool(spec, "wait"); wait {
		return true
	}
	name, _, _ := unstructured.NestedString(obj, "metadata", "name")
	for _, h := range asSlice(spec["healthChecks"]) {
		if h := h.(map[string]any); h["kind"] == obj["kind"] && h["name"] == name {
			return true
		}
	}
	return false
}

// TestArgoCDHealthOfReferences runs health.lua on resources waiting for what they refer to:
// Progressing while the target is missing or not Ready yet (the sync wave goes on waiting, the
// operator goes on by itself), Degraded with the reason when the target failed.
func TestArgoCDHealthOfReferences(t *testing.T) {
	script, err := os.ReadFile(healthScript)
	if err != nil {
		t.Fatal(err)
	}
	const waiting = `{"kind":"Subnet","metadata":{"generation":1},"status":{"conditions":[{"type":"Ready","status":"False","reason":"%s","message":"%s","observedGeneration":1},{"type":"Synced","status":"False","reason":"%[1]s","message":"%[2]s","observedGeneration":1}]}}`
	cases := []struct{ reason, message, want string }{
		{"ReferenceNotFound", "spec.vpcRef: VPC infrastructure/app does not exist", "Progressing"},
		{"ReferenceNotReady", "spec.vpcRef: VPC infrastructure/app is not Ready yet", "Progressing"},
		{"ReferenceFailed", "spec.vpcRef: VPC infrastructure/app failed (InvalidSpec): this object goes on once it is fixed", "Degraded"},
	}
	for _, tc := range cases {
		t.Run(tc.reason, func(t *testing.T) {
			status, message, err := runHealth(string(script), fmt.Sprintf(waiting, tc.reason, tc.message))
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.reason + ": " + tc.message; status != tc.want || message != want {
				t.Errorf("got %s %q, want %s %q", status, message, tc.want, want)
			}
		})
	}
}
