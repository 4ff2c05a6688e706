package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
)

// exampleIndex is what a directory of examples makes.
type exampleIndex struct {
	// byKind holds the example files (base names) that make an object of each kind.
	byKind map[string][]string
	// byFile holds the kinds each example file (base name) makes.
	byFile map[string][]string
}

// readExamples reads the example files (*.yaml) of dir; a directory that does not exist holds
// none.
func readExamples(t *testing.T, dir string) exampleIndex {
	t.Helper()
	idx := exampleIndex{byKind: map[string][]string{}, byFile: map[string][]string{}}
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		for _, d := range gitopsDocs(t, file) {
			kind, _ := d["kind"].(string)
			apiVersion, _ := d["apiVersion"].(string)
			if !strings.HasPrefix(apiVersion, shared.Group+"/") || slices.Contains(idx.byFile[name], kind) {
				continue
			}
			idx.byFile[name] = append(idx.byFile[name], kind)
			idx.byKind[kind] = append(idx.byKind[kind], name)
		}
	}
	return idx
}
