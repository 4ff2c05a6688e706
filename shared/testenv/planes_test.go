package testenv

import (
	"context"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// widgetCRD returns a namespaced CRD of kind Widget in group g whose spec has one string field
// described by about.
func widgetCRD(g, about string) *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets." + g},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: g,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: "Widget", ListKind: "WidgetList", Plural: "widgets", Singular: "widget"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"size": {Type: "string", Description: about},
						}},
					},
				}},
			}},
		},
	}
}

// TestFit checks that a control plane handed to the next test holds exactly the CRDs that test
// asks for: one it lacks is installed, one it does not ask for is no longer served, and one it
// defines differently is replaced by its definition.
func TestFit(t *testing.T) {
	assets, err := AssetsDir()
	if err != nil {
		t.Fatal(err)
	}
	cp, err := StartControlPlane(assets, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cp.Stop(); err != nil {
			t.Error(err)
		}
	})
	cp.installed = map[string]*apiextensionsv1.CustomResourceDefinition{}
	dc, err := discovery.NewDiscoveryClientForConfig(cp.Config)
	if err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	if err := apiextensionsv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cp.Config, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	a, b := widgetCRD("a.example.com", "size"), widgetCRD("b.example.com", "size")

	if err := cp.fit([]*apiextensionsv1.CustomResourceDefinition{a, b}); err != nil {
		t.Fatal(err)
	}
	if !served(dc, a) || !served(dc, b) {
		t.Fatalf("after installing both: a served %v, b served %v", served(dc, a), served(dc, b))
	}

	if err := cp.fit([]*apiextensionsv1.CustomResourceDefinition{a}); err != nil {
		t.Fatal(err)
	}
	if served(dc, b) || cp.installed[b.Name] != nil {
		t.Errorf("b is still served (%v) or recorded as installed (%v)", served(dc, b), cp.installed[b.Name] != nil)
	}
	if err := c.Get(context.Background(), client.ObjectKey{Name: b.Name}, &apiextensionsv1.CustomResourceDefinition{}); !apierrors.IsNotFound(err) {
		t.Errorf("get the CRD %s: %v, want NotFound", b.Name, err)
	}
	if !served(dc, a) {
		t.Error("a is no longer served")
	}

	changed := widgetCRD("a.example.com", "how large the widget is")
	if err := cp.fit([]*apiextensionsv1.CustomResourceDefinition{changed}); err != nil {
		t.Fatal(err)
	}
	var got apiextensionsv1.CustomResourceDefinition
	if err := c.Get(context.Background(), client.ObjectKey{Name: a.Name}, &got); err != nil {
		t.Fatalf("get the changed CRD: %v", err)
	}
	if d := got.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["size"].Description; d != "how large the widget is" {
		t.Errorf("the served CRD describes size as %q, want the changed definition's", d)
	}
	if cp.installed[a.Name] != changed {
		t.Error("the changed definition is not recorded as installed")
	}
}
