package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/runner-codes/infra-operator/shared/testenv"
)

// infractl runs one infractl command line and returns its output and error.
func infractl(args ...string) (string, error) {
	cmd := NewRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

// TestInstallUninstall installs two families with `infractl install` into a real control
// plane, upgrades them by installing again, refuses invalid values with the schema's word, and
// uninstalls one, keeping its CRDs.
func TestInstallUninstall(t *testing.T) {
	env := testenv.Start(t, testenv.Options{NoCRDs: true, AddToScheme: []func(*runtime.Scheme) error{apiextensionsv1.AddToScheme}})
	kubeconfig := env.Kubeconfig(t)
	ctx := context.Background()

	out, err := infractl("install", "--kubeconfig", kubeconfig, "--families", "data,networking")
	if err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	for _, want := range []string{"installed infra-operator-data", "installed infra-operator-networking"} {
		if !strings.Contains(out, want) {
			t.Errorf("install output lacks %q:\n%s", want, out)
		}
	}
	for _, name := range []string{"infra-operator-data", "infra-operator-networking"} {
		if err := env.Client.Get(ctx, types.NamespacedName{Namespace: "infra-operator", Name: name}, &appsv1.Deployment{}); err != nil {
			t.Errorf("Deployment %s: %v", name, err)
		}
	}
	for _, crd := range []string{"s3buckets.aws-infra-operator.runner.codes", "awsproviders.aws-infra-operator.runner.codes"} {
		if err := env.Client.Get(ctx, types.NamespacedName{Name: crd}, &apiextensionsv1.CustomResourceDefinition{}); err != nil {
			t.Errorf("CRD %s: %v", crd, err)
		}
	}

	values := filepath.Join(t.TempDir(), "values.yaml")
	if err := os.WriteFile(values, []byte("replicaCount: 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err = infractl("install", "--kubeconfig", kubeconfig, "--families", "data", "--values", values)
	if err != nil || !strings.Contains(out, "upgraded infra-operator-data") {
		t.Fatalf("a second install should upgrade: %v\n%s", err, out)
	}
	dep := &appsv1.Deployment{}
	if err := env.Client.Get(ctx, types.NamespacedName{Namespace: "infra-operator", Name: "infra-operator-data"}, dep); err != nil || *dep.Spec.Replicas != 2 {
		t.Errorf("the upgrade did not apply replicaCount 2: %v", err)
	}

	if err := os.WriteFile(values, []byte("log:\n  level: loud\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := infractl("install", "--kubeconfig", kubeconfig, "--families", "data", "--values", values); err == nil || !strings.Contains(err.Error(), "schema") {
		t.Errorf("invalid values should be refused by the schema: %v\n%s", err, out)
	}

	out, err = infractl("uninstall", "--kubeconfig", kubeconfig, "--families", "data")
	if err != nil || !strings.Contains(out, "uninstalled infra-operator-data") {
		t.Fatalf("uninstall: %v\n%s", err, out)
	}
	if err := env.Client.Get(ctx, types.NamespacedName{Name: "s3buckets.aws-infra-operator.runner.codes"}, &apiextensionsv1.CustomResourceDefinition{}); err != nil {
		t.Errorf("uninstall removed the S3Bucket CRD: %v", err)
	}
	if _, err := infractl("uninstall", "--kubeconfig", kubeconfig, "--families", "data"); err == nil {
		t.Errorf("uninstalling a release that is gone should say so")
	}
}

// TestErrorsPeopleCanActOn checks the messages for a missing kubeconfig, an unreachable
// cluster and an unknown family.
func TestErrorsPeopleCanActOn(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("KUBECONFIG", filepath.Join(dir, "missing"))
	t.Setenv("HOME", dir)
	unreachable := filepath.Join(dir, "unreachable")
	if err := os.WriteFile(unreachable, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"no kubeconfig":      {[]string{"status"}, "no kubeconfig"},
		"missing file":       {[]string{"status", "--kubeconfig", filepath.Join(dir, "nope")}, "cannot read the kubeconfig"},
		"unreachable":        {[]string{"status", "--kubeconfig", unreachable}, "is unreachable"},
		"unknown family":     {[]string{"install", "--families", "storage"}, `unknown family "storage"`},
		"unknown subcommand": {[]string{"instal"}, "unknown command"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := infractl(tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want an error holding %q, got %v", tc.want, err)
			}
			if err != nil && strings.Contains(err.Error(), "goroutine") {
				t.Errorf("a stack trace: %v", err)
			}
		})
	}
}
