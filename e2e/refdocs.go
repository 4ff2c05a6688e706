package e2e

import (
	"fmt"
	"github.com/runner-codes/infra-operator/cli"

	"github.com/runner-codes/infra-operator/e2e/internal/refdocs"
	"github.com/runner-codes/infra-operator/shared/crds"
)

// RefDocsCommand is the command that rewrites the generated parts of the reference pages.
const RefDocsCommand = "cd e2e && go run ./cmd/refdocs -root .."

// DocFamilies returns every family with its kinds' CRDs, as its reference page documents them.
func DocFamilies() ([]refdocs.Family, error) {
	var out []refdocs.Family
	for _, f := range cli.Families() {
		if f.CRDs == nil {
			continue
		}
		defs, err := crds.Load(f.CRDs)
		if err != nil {
			return nil, fmt.Errorf("load the %s family's CRDs: %w", f.Name, err)
		}
		out = append(out, refdocs.Family{Name: f.Name, CRDs: defs})
	}
	return out, nil
}
