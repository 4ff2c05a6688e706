// Command refdocs writes the field reference of every kind, generated from the CRDs, into the
// reference pages under docs/ (between their GENERATED markers). Run it from e2e/ with the
// repository's root: go run ./cmd/refdocs -root ..
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/runner-codes/infra-operator/e2e"
	"github.com/runner-codes/infra-operator/e2e/internal/refdocs"
)

func main() {
	root := flag.String("root", ".", "the repository's root directory")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "refdocs:", err)
		os.Exit(1)
	}
}

// run rewrites the generated blocks of the pages under root and names the pages it changed.
func run(root string) error {
	families, err := e2e.DocFamilies()
	if err != nil {
		return err
	}
	blocks, err := refdocs.Blocks(families)
	if err != nil {
		return err
	}
	changed, err := refdocs.Apply(root, blocks, true)
	if err != nil {
		return err
	}
	for _, page := range changed {
		fmt.Println("refdocs: wrote", page)
	}
	return nil
}
