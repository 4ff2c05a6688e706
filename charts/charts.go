// Package charts embeds the Helm charts of infra-operator (one per family and the umbrella
// chart), so that infractl installs exactly the charts of its own version, without a chart
// repository.
package charts

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
)

// Umbrella is the name of the chart that depends on every family chart.
const Umbrella = "infra-operator"

// files holds every chart directory; the all: prefix keeps files starting with _ or ., such as
// _helpers.tpl and .helmignore.
//
//go:embed all:networking all:compute all:data all:messaging all:edge all:security all:containers all:caching all:infra-operator
var files embed.FS

// families lists the family charts in the order of the design document.
var families = []string{"networking", "compute", "data", "messaging", "edge", "security", "containers", "caching"}

// FS returns the embedded charts: one top-level directory per chart.
func FS() fs.FS { return files }

// Families returns the names of the family charts.
func Families() []string { return slices.Clone(families) }

// Load returns the chart called name (a family or Umbrella) from the embedded files, with its
// dependencies.
func Load(name string) (*chart.Chart, error) {
	if name != Umbrella && !slices.Contains(families, name) {
		return nil, fmt.Errorf("load chart %q: no such chart (have %s and %s)", name, strings.Join(families, ", "), Umbrella)
	}
	var bufs []*loader.BufferedFile
	err := fs.WalkDir(files, name, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, p)
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		bufs = append(bufs, &loader.BufferedFile{Name: strings.TrimPrefix(p, name+"/"), Data: b})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load chart %q: %w", name, err)
	}
	c, err := loader.LoadFiles(bufs)
	if err != nil {
		return nil, fmt.Errorf("load chart %q: %w", name, err)
	}
	return c, nil
}
