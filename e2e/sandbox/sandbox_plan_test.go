package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/runner-codes/infra-operator/cli"
	"github.com/runner-codes/infra-operator/cli/plan"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// planSandbox runs `infractl plan --prune` on every namespace of the sandbox with the
// manifests of the objects as they stand (apiVersion, kind, name, labels, annotations and
// spec, read back from the cluster) and checks that the operators answer NoChange for every
// one of them, and Delete for none: what was applied is what the plan finds. It logs how long
// planning every example took.
func planSandbox(t *testing.T, kubeconfig string, objects []string) {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{}
	planned := 0
	for _, row := range objects {
		f := strings.Fields(row)
		if !plan.Managed(f[1]) {
			continue
		}
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(shared.GroupVersion.WithKind(f[1]))
		if err := c.Get(context.Background(), client.ObjectKey{Namespace: f[0], Name: f[2]}, u); err != nil {
			t.Fatal(err)
		}
		if dirs[f[0]] == "" {
			dirs[f[0]] = t.TempDir()
		}
		writeManifest(t, filepath.Join(dirs[f[0]], fmt.Sprintf("%s-%s.json", f[1], f[2])), u)
		planned++
	}
	start := time.Now()
	for ns, dir := range dirs {
		cmd := cli.NewRootCommand()
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetArgs([]string{"plan", "-f", dir, "-n", ns, "--prune", "-o", "json", "--kubeconfig", kubeconfig})
		if err := cmd.Execute(); err != nil {
			t.Errorf("infractl plan -n %s: %v\n%s", ns, err, out.String())
			continue
		}
		var r plan.Report
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("infractl plan -n %s -o json: %v\n%s", ns, err, out.String())
		}
		for _, o := range r.Objects {
			if o.Action != plan.NoChange {
				t.Errorf("infractl plan -n %s: %s %s would %s: %s", ns, o.Kind, o.Name, o.Action, o.Message)
			}
		}
	}
	t.Logf("infractl plan of the sandbox's %d example objects in %d namespaces: %v", planned, len(dirs), time.Since(start).Round(time.Millisecond))
}

// writeManifest writes u to path as the manifest it was applied from would read.
func writeManifest(t *testing.T, path string, u *unstructured.Unstructured) {
	t.Helper()
	annotations := u.GetAnnotations()
	for k := range annotations {
		if strings.HasPrefix(k, shared.Group+"/") || strings.HasPrefix(k, "kubectl.kubernetes.io/") {
			delete(annotations, k)
		}
	}
	m := map[string]any{"apiVersion": u.GetAPIVersion(), "kind": u.GetKind(), "spec": u.Object["spec"],
		"metadata": map[string]any{"name": u.GetName(), "namespace": u.GetNamespace(), "labels": u.GetLabels(), "annotations": annotations}}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
