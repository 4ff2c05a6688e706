package operator

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"

	"github.com/runner-codes/infra-operator/shared/managed"
)

// TestBoundaryFlags checks the flags of the ownership boundary: by default every namespace may
// adopt resources without ownership tags and none may take over, observe or write into
// another namespace's resources; each flag sets its list.
func TestBoundaryFlags(t *testing.T) {
	cases := map[string]struct {
		reason string
		args   []string
		want   *managed.Boundary
	}{
		"Defaults": {
			reason: "With no flag, adoption is open and takeover and foreign writes are closed.",
			want:   &managed.Boundary{AdoptionNamespaces: []string{"*"}},
		},
		"LockedDown": {
			reason: "An empty --adoption-namespaces closes adoption too.",
			args:   []string{"--adoption-namespaces="},
			want:   &managed.Boundary{AdoptionNamespaces: []string{}},
		},
		"Opened": {
			reason: "Each flag takes a list of namespaces.",
			args:   []string{"--adoption-namespaces=platform", "--takeover-namespaces=platform,migration", "--foreign-write-namespaces=*"},
			want: &managed.Boundary{AdoptionNamespaces: []string{"platform"}, TakeoverNamespaces: []string{"platform", "migration"},
				ForeignWriteNamespaces: []string{"*"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := parseFlags(t, tc.args)
			if diff := cmp.Diff(tc.want, o.Boundary()); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// parseFlags returns the default options with args parsed into them.
func parseFlags(t *testing.T, args []string) Options {
	t.Helper()
	o := DefaultOptions()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	o.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return o
}
