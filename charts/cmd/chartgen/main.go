// Command chartgen writes the generated parts of the Helm charts (`make charts`): the family
// charts from the skeleton, their CRD and RBAC templates, and the umbrella chart's vendored
// subcharts and AWSProvider CRD template.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/runner-codes/infra-operator/charts/internal/chartgen"
)

func main() {
	root := flag.String("root", "..", "the repository's root")
	dir := flag.String("dir", ".", "the charts directory")
	flag.Parse()
	if err := run(*root, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "chartgen:", err)
		os.Exit(1)
	}
}

// run generates the charts of the repository at root into dir.
func run(root, dir string) error {
	families, err := chartgen.Families(root)
	if err != nil {
		return err
	}
	files, err := chartgen.Generate(root, families)
	if err != nil {
		return err
	}
	return chartgen.Write(dir, families, files)
}
