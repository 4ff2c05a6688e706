package charts

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/releaseutil"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/runner-codes/infra-operator/shared/testenv"
)

// Kinds the tests look for.
var (
	deploymentKind  = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	accountKind     = schema.GroupVersionKind{Version: "v1", Kind: "ServiceAccount"}
	clusterRoleKind = schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}
	roleKind        = schema.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role"}
	crdKind         = schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}
)

// awsProviderCRD is the name of the CRD every family needs.
const awsProviderCRD = "awsproviders.aws-infra-operator.runner.codes"

// manifest is a rendered release: its objects keyed by "Kind/name", or by
// "Kind/namespace/name" when they are in another namespace than the release's.
type manifest map[string]*unstructured.Unstructured

// render renders the embedded chart name with vals as `helm template` does, for the release
// "test" in the namespace of the install tests.
func render(name string, vals map[string]any) (manifest, error) {
	c, err := Load(name)
	if err != nil {
		return nil, err
	}
	i := action.NewInstall(&action.Configuration{Log: func(string, ...any) {}})
	i.ClientOnly, i.DryRun = true, true
	i.ReleaseName, i.Namespace = "test", namespace
	// Without a cluster Helm assumes Kubernetes v1.20; take the test control plane's version.
	if i.KubeVersion, err = chartutil.ParseKubeVersion("v1.37.1"); err != nil {
		return nil, err
	}
	rel, err := i.Run(c, vals)
	if err != nil {
		return nil, err
	}
	return parse(rel.Manifest)
}

// parse splits a release's manifest into objects.
func parse(text string) (manifest, error) {
	m := manifest{}
	for _, doc := range releaseutil.SplitManifests(text) {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(doc), &u.Object); err != nil {
			return nil, fmt.Errorf("decode a rendered object: %w\n%s", err, doc)
		}
		if len(u.Object) == 0 {
			continue
		}
		key := u.GetKind() + "/" + u.GetName()
		if ns := u.GetNamespace(); ns != "" && ns != namespace {
			key = u.GetKind() + "/" + ns + "/" + u.GetName()
		}
		if m[key] != nil {
			return nil, fmt.Errorf("%s is rendered twice", key)
		}
		m[key] = u
	}
	return m, nil
}

// mustRender renders like render, failing t on an error.
func mustRender(t *testing.T, name string, vals map[string]any) manifest {
	t.Helper()
	m, err := render(name, vals)
	if err != nil {
		t.Fatalf("render %s: %v", name, err)
	}
	return m
}

// get returns the object key ("Kind/name" or "Kind/namespace/name") of m, failing t when it
// is not rendered.
func (m manifest) get(t *testing.T, key string) *unstructured.Unstructured {
	t.Helper()
	u, ok := m[key]
	if !ok {
		t.Fatalf("%s is not rendered; have %v", key, m.keys())
	}
	return u
}

// keys returns the rendered objects' keys.
func (m manifest) keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// cluster is a control plane without CRDs that charts are installed into with the Helm SDK.
type cluster struct {
	env        *testenv.Env
	kubeconfig string
}

// startCluster starts a control plane with no CRD at all, since the charts bring them.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	env := testenv.Start(t, testenv.Options{NoCRDs: true})
	return &cluster{env: env, kubeconfig: env.Kubeconfig(t)}
}

// config returns a Helm action configuration for namespace ns, reaching the control plane
// through its kubeconfig and storing releases in Secrets, as the helm CLI does.
func (c *cluster) config(t *testing.T, ns string) *action.Configuration {
	t.Helper()
	flags := genericclioptions.NewConfigFlags(false)
	flags.KubeConfig, flags.Namespace = &c.kubeconfig, &ns
	cfg := &action.Configuration{}
	if err := cfg.Init(flags, ns, "secret", t.Logf); err != nil {
		t.Fatalf("helm configuration: %v", err)
	}
	return cfg
}

// install installs ch as the release name in namespace ns, creating ns, without waiting for
// the pods (the control plane has no kubelet).
func (c *cluster) install(t *testing.T, ch *chart.Chart, name, ns string, vals map[string]any) *release.Release {
	t.Helper()
	i := action.NewInstall(c.config(t, ns))
	i.ReleaseName, i.Namespace, i.CreateNamespace, i.Timeout = name, ns, true, time.Minute
	rel, err := i.Run(ch, vals)
	if err != nil {
		t.Fatalf("install %s as %s/%s: %v", ch.Name(), ns, name, err)
	}
	return rel
}

// upgrade upgrades the release name in namespace ns to ch with vals.
func (c *cluster) upgrade(t *testing.T, ch *chart.Chart, name, ns string, vals map[string]any) *release.Release {
	t.Helper()
	u := action.NewUpgrade(c.config(t, ns))
	u.Namespace, u.Timeout = ns, time.Minute
	rel, err := u.Run(name, ch, vals)
	if err != nil {
		t.Fatalf("upgrade %s/%s to %s: %v", ns, name, ch.Name(), err)
	}
	return rel
}

// uninstall uninstalls the release name in namespace ns.
func (c *cluster) uninstall(t *testing.T, name, ns string) *release.UninstallReleaseResponse {
	t.Helper()
	u := action.NewUninstall(c.config(t, ns))
	u.Timeout = time.Minute
	res, err := u.Run(name)
	if err != nil {
		t.Fatalf("uninstall %s/%s: %v", ns, name, err)
	}
	return res
}

// get returns the object of kind gvk called ns/name from the control plane, or nil when it
// does not exist.
func (c *cluster) get(t *testing.T, gvk schema.GroupVersionKind, ns, name string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	err := c.env.Client.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, u)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatalf("get %s %s/%s: %v", gvk.Kind, ns, name, err)
	}
	return u
}

// mustExist fails t unless every object (gvk, namespace, name) exists.
func (c *cluster) mustExist(t *testing.T, gvk schema.GroupVersionKind, ns string, names ...string) {
	t.Helper()
	for _, name := range names {
		if c.get(t, gvk, ns, name) == nil {
			t.Errorf("%s %s is missing", gvk.Kind, strings.TrimPrefix(ns+"/"+name, "/"))
		}
	}
}

// owner returns the release (namespace/name) that owns the CRD name, by Helm's annotations.
func (c *cluster) owner(t *testing.T, name string) string {
	t.Helper()
	crd := c.get(t, crdKind, "", name)
	if crd == nil {
		t.Fatalf("CRD %s is missing", name)
	}
	a := crd.GetAnnotations()
	return a["meta.helm.sh/release-namespace"] + "/" + a["meta.helm.sh/release-name"]
}
