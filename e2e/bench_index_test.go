package e2e

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// benchmarkedKinds returns the kinds the benchmarks of the family name (the bench*_test.go
// files of e2e/<family>/, in the repository at root) measure: the kinds whose Go type they name
// (v1alpha1.ElasticIP) and the kinds the example files they name ("elasticip.yaml") make.
func benchmarkedKinds(root, name string, examples exampleIndex) (map[string]bool, error) {
	files, err := filepath.Glob(filepath.Join(root, "e2e", name, "bench*_test.go"))
	if err != nil {
		return nil, fmt.Errorf("find the %s family's benchmarks: %w", name, err)
	}
	api := repoModule + "operators/" + name + "/api/v1alpha1"
	kinds := map[string]bool{}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", file, err)
		}
		imports := importNames(f)
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && imports[id.Name] == api {
					kinds[x.Sel.Name] = true
				}
			case *ast.BasicLit:
				if s, err := strconv.Unquote(x.Value); x.Kind == token.STRING && err == nil && strings.HasSuffix(s, ".yaml") {
					for _, kind := range examples.byFile[filepath.Base(s)] {
						kinds[kind] = true
					}
				}
			}
			return true
		})
	}
	return kinds, nil
}
