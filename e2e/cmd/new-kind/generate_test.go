package main

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTree copies the minimal fake repository of testdata/root (a family "fake" with one kind,
// Widget) into a temporary directory and returns it.
func fakeTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "root"))); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestNewKindWritesTheKind runs the generator on the fake family and checks that it writes
// every file of the kind, gofmt-clean, registers it where the family's kinds are registered,
// adds a benchmark entry shaped as the family's others, and prints the steps left.
func TestNewKindWritesTheKind(t *testing.T) {
	root := fakeTree(t)
	var out bytes.Buffer
	if err := run(options{Root: root, Family: "fake", Kind: "Gadget", Service: "ec2"}, &out); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"operators/fake/api/v1alpha1/gadget_types.go": {"shared.ManagedSpec `json:\",inline\"`", "shared.ManagedStatus `json:\",inline\"`",
			"`json:\"id,omitempty\" output:\"\"`", "+kubebuilder:object:root=true", "+kubebuilder:subresource:status", "type GadgetList struct"},
		"operators/fake/gadget/kind.go":                    {"func Kind() managed.Kind[*v1alpha1.Gadget, State]", `"github.com/aws/aws-sdk-go-v2/service/ec2"`},
		"operators/fake/gadget/observe.go":                 {`notImplemented("Observe")`},
		"operators/fake/gadget/create.go":                  {`notImplemented("Create")`},
		"operators/fake/gadget/delete.go":                  {`notImplemented("Delete")`, `notImplemented("ReleaseOwnership")`},
		"e2e/fake/gadget_test.go":                          {"package fake_test", "func TestGadget(t *testing.T)", `t.Fatal("write this test`},
		"examples/fake/gadget.yaml":                        {"kind: Gadget", "name: production-aws"},
		"operators/fake/api/v1alpha1/groupversion_info.go": {"&Widget{}, &WidgetList{},\n\t\t\t&Gadget{}, &GadgetList{},\n"},
		"operators/fake/family.go": {"engine.For(widget.Kind()),\n\t\t\tengine.For(gadget.Kind()),\n",
			`"github.com/runner-codes/infra-operator/operators/fake/gadget"`},
		"operators/fake/rbac.go": {"resources=gadgets,verbs=get;list;watch;update;patch", "resources=gadgets/status,", "resources=gadgets/finalizers,"},
		"e2e/fake/bench_test.go": {`{"gadget.yaml", &v1alpha1.Gadget{ObjectMeta: seedMeta("example-gadget")}, []string{"EC2"}, nil},`},
	}
	for path, fragments := range want {
		b, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Errorf("%s was not written: %v", path, err)
			continue
		}
		for _, f := range fragments {
			if !strings.Contains(string(b), f) {
				t.Errorf("%s lacks %q:\n%s", path, f, b)
			}
		}
		if strings.HasSuffix(path, ".go") {
			formatted, err := format.Source(b)
			if err != nil || !bytes.Equal(formatted, b) {
				t.Errorf("%s is not gofmt-clean (%v)", path, err)
			}
		}
		if !strings.Contains(out.String(), path) {
			t.Errorf("the report does not name %s:\n%s", path, out.String())
		}
	}
	if strings.Contains(out.String(), "go get") {
		t.Errorf("the steps ask for the ec2 SDK module, which the family requires already:\n%s", out.String())
	}
	for _, step := range []string{"make generate charts", "emulator/services/ (EC2)", "- **Gadget**: `id`",
		"go test -run TestArgoCDHealthConfig . -update", "go test -run Conformance ."} {
		if !strings.Contains(out.String(), step) {
			t.Errorf("the steps lack %q:\n%s", step, out.String())
		}
	}
}

// TestNewKindRefuses checks that the generator refuses a kind the family has, bad names and a
// family that does not exist, and writes nothing then.
func TestNewKindRefuses(t *testing.T) {
	cases := map[string]struct {
		reason string
		opts   options
		want   string
	}{
		"ExistingKind": {reason: "A kind the family declares is refused.",
			opts: options{Family: "fake", Kind: "Widget", Service: "ec2"}, want: "has the kind Widget already"},
		"LowerCaseKind": {reason: "A kind's name is an exported Go name.",
			opts: options{Family: "fake", Kind: "gadget", Service: "ec2"}, want: "not an exported Go name"},
		"KeywordPackage": {reason: "A kind whose package name would be a keyword is refused.",
			opts: options{Family: "fake", Kind: "Func", Service: "ec2"}, want: "Go keyword"},
		"NoFamily": {reason: "The family must exist.",
			opts: options{Family: "nosuch", Kind: "Gadget", Service: "ec2"}, want: "the family nosuch"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := fakeTree(t)
			tc.opts.Root = root
			err := run(tc.opts, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%s\nerror %v, want one saying %q", tc.reason, err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(root, "operators", "fake", "gadget")); err == nil {
				t.Errorf("%s\nthe refused run wrote the driver package", tc.reason)
			}
		})
	}
}
