// Package testenv starts a real control plane (kube-apiserver and etcd, built by
// hack/envtest-assets.sh) with the CRDs of the module under test, and an AWS endpoint served
// in-process, for integration tests of every infra-operator module.
package testenv

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/crds"
	"github.com/runner-codes/infra-operator/shared/sdkhttp"
)

// Options describe the control plane to start.
type Options struct {
	// CRDs are directories (fs.FS) of CRD manifests of the module under test. The shared
	// AWSProvider CRD is installed too, unless NoCRDs is set.
	CRDs []fs.FS
	// NoCRDs starts the control plane without any CRD, not even the shared AWSProvider CRD,
	// for tests of installers (such as the Helm charts) that bring their own; CRDs must then
	// be empty.
	NoCRDs bool
	// AddToScheme registers the module's kinds with the test client's scheme.
	AddToScheme []func(*runtime.Scheme) error
	// AWS serves the AWS endpoint; the emulator in module tests, a narrow stand-in in the
	// shared library's own tests. Nil means no endpoint.
	AWS http.Handler
}

// Env is a running control plane.
type Env struct {
	// Config reaches the API server as an administrator.
	Config *rest.Config
	// Client is an uncached client with the test scheme.
	Client client.Client
	// Scheme holds the built-in kinds, the shared API and the module's kinds.
	Scheme *runtime.Scheme
	// AWSEndpoint is the URL of the in-process AWS endpoint, when Options.AWS was set.
	AWSEndpoint string

	cp *ControlPlane
}

// Start starts a control plane for t and stops it when t ends, or, in a package whose TestMain
// calls Main, gives t the control plane the previous test used, cleaned (see planes). It fails
// t, with what to do, when the control plane binaries are not built.
func Start(t testing.TB, opts Options) *Env {
	t.Helper()
	assets, err := AssetsDir()
	if err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	for _, add := range append([]func(*runtime.Scheme) error{clientgoscheme.AddToScheme, v1alpha1.AddToScheme}, opts.AddToScheme...) {
		if err := add(scheme); err != nil {
			t.Fatalf("build scheme: %v", err)
		}
	}
	if opts.NoCRDs && len(opts.CRDs) > 0 {
		t.Fatal("testenv: Options.NoCRDs and Options.CRDs exclude each other")
	}
	var defs []*apiextensionsv1.CustomResourceDefinition
	if !opts.NoCRDs {
		shared, err := crds.Load(crds.FS())
		if err != nil {
			t.Fatal(err)
		}
		defs = shared
	}
	for _, fsys := range opts.CRDs {
		more, err := crds.Load(fsys)
		if err != nil {
			t.Fatal(err)
		}
		defs = append(defs, more...)
	}
	cp, err := startPlane(t, assets, defs, opts.NoCRDs)
	if err != nil {
		t.Fatal(err)
	}
	cfg := cp.Config
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatalf("client: %v", err)
	}
	e := &Env{Config: cfg, Client: c, Scheme: scheme, cp: cp}
	if opts.AWS != nil {
		srv := httptest.NewServer(opts.AWS)
		t.Cleanup(srv.Close)
		e.AWSEndpoint = srv.URL
	}
	return e
}

// AssetsDir returns the directory holding kube-apiserver, etcd and kubectl: KUBEBUILDER_ASSETS
// when set, otherwise the cache that BuildAssets (hack/envtest-assets.sh) fills.
func AssetsDir() (string, error) {
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		return dir, nil
	}
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	if !built(dir) {
		return "", fmt.Errorf("the test control plane is not built: run `make envtest` (hack/envtest-assets.sh) "+
			"or set KUBEBUILDER_ASSETS (looked in %s)", dir)
	}
	return dir, nil
}

// Namespace creates a namespace with a generated name and returns its name.
func (e *Env) Namespace(t testing.TB) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "test-"}}
	if err := e.Client.Create(context.Background(), ns); err != nil {
		t.Fatalf("create namespace: %v", err)
	}
	return ns.Name
}

// Provider creates, in namespace ns, a Secret holding the given static keys and an
// AWSProvider named name that uses them against the in-process AWS endpoint.
func (e *Env) Provider(t testing.TB, ns, name, accessKey, secretKey string) *v1alpha1.AWSProvider {
	t.Helper()
	ctx := context.Background()
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name + "-credentials"},
		StringData: map[string]string{"access-key-id": accessKey, "secret-access-key": secretKey},
	}
	if err := e.Client.Create(ctx, secret); err != nil {
		t.Fatalf("create Secret: %v", err)
	}
	p := &v1alpha1.AWSProvider{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: v1alpha1.AWSProviderSpec{
			Region:             "us-east-1",
			Endpoint:           e.AWSEndpoint,
			AccessKeyIDRef:     &v1alpha1.SecretKeySelector{Name: secret.Name, Key: "access-key-id"},
			SecretAccessKeyRef: &v1alpha1.SecretKeySelector{Name: secret.Name, Key: "secret-access-key"},
		},
	}
	if err := e.Client.Create(ctx, p); err != nil {
		t.Fatalf("create AWSProvider: %v", err)
	}
	return p
}

// AWSConfig returns an SDK configuration that reaches the in-process AWS endpoint in us-east-1
// with the given static keys, through the project's HTTP client (package sdkhttp).
func (e *Env) AWSConfig(accessKey, secretKey string) aws.Config {
	return aws.Config{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider(accessKey, secretKey, ""),
		BaseEndpoint: aws.String(e.AWSEndpoint),
		HTTPClient:   sdkhttp.Client(),
	}
}

// Kubeconfig writes a kubeconfig for a cluster administrator into a temporary file and returns
// its path, for running operator binaries against the control plane.
func (e *Env) Kubeconfig(t testing.TB) string {
	t.Helper()
	b, err := e.cp.Kubeconfig("operator")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatalf("write kubeconfig: %v", err)
	}
	return path
}
