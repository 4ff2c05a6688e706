package cli

import (
	"strings"
	"testing"
)

// TestPlanFlags checks that plan refuses bad flags before reaching for a cluster.
func TestPlanFlags(t *testing.T) {
	cases := map[string]struct {
		args []string
		want string
	}{
		"UnknownFormat": {args: []string{"plan", "-f", ".", "-o", "yaml"}, want: "unknown output format"},
		"NoManifests":   {args: []string{"plan"}, want: "no manifests"},
		"MissingFile":   {args: []string{"plan", "-f", "does-not-exist.yaml"}, want: "does-not-exist.yaml"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cmd := NewRootCommand()
			cmd.SetArgs(tc.args)
			err := cmd.Execute()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("infractl %s: error %v, want one that says %q", strings.Join(tc.args, " "), err, tc.want)
			}
		})
	}
}
