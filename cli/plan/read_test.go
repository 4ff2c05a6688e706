package plan

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRead checks that Read walks directories recursively for manifest files only, splits
// multi-document YAML, skips empty documents, reads JSON and expands Lists, in order.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.yaml", `---
apiVersion: aws-infra-operator.runner.codes/v1alpha1
kind: SQSQueue
metadata: {name: orders}
spec: {queueName: orders}
---
# only a comment
---
apiVersion: v1
kind: Secret
metadata: {name: db}
`)
	write("sub/b.yml", `apiVersion: v1
kind: List
items:
- {apiVersion: aws-infra-operator.runner.codes/v1alpha1, kind: SNSTopic, metadata: {name: events}}
`)
	write("sub/c.json", `{"apiVersion": "aws-infra-operator.runner.codes/v1alpha1", "kind": "AWSProvider", "metadata": {"name": "p"}}`)
	write("notes.txt", "not a manifest")
	write("sub/kustomization.md", "# no")

	objs, err := Read([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range objs {
		got = append(got, o.GetKind()+" "+o.GetName())
	}
	want := []string{"SQSQueue orders", "Secret db", "SNSTopic events", "AWSProvider p"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("objects -want +got:\n%s", diff)
	}

	// A file named on the command line is read whatever its extension.
	write("manifest.txt", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n")
	objs, err = Read([]string{filepath.Join(dir, "manifest.txt")})
	if err != nil || len(objs) != 1 || objs[0].GetName() != "cm" {
		t.Errorf("Read(file) = %v, %v; want the ConfigMap cm", objs, err)
	}
}

// TestReadErrors checks that a missing path, a document without kind and bad YAML are errors
// that name the file.
func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	noKind := filepath.Join(dir, "nokind.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(noKind, []byte("metadata: {name: x}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("kind: [unclosed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "missing"), noKind, bad} {
		if _, err := Read([]string{p}); err == nil {
			t.Errorf("Read(%s) succeeded, want an error", p)
		}
	}
}
