package e2e

import (
	"strings"
	"testing"

	"github.com/runner-codes/infra-operator/e2e/internal/refdocs"
)

// TestRefDocsCurrent checks that the field reference in every reference page is the one the
// CRDs give, and names the command that rewrites it.
func TestRefDocsCurrent(t *testing.T) {
	families, err := DocFamilies()
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := refdocs.Blocks(families)
	if err != nil {
		t.Fatal(err)
	}
	stale, err := refdocs.Apply("..", blocks, false)
	if err != nil {
		t.Fatalf("%v\nadd the markers, then run: %s", err, RefDocsCommand)
	}
	if len(stale) > 0 {
		t.Errorf("the field reference is stale in %s; run: %s", strings.Join(stale, ", "), RefDocsCommand)
	}
}
