package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// addBenchEntry adds the kind's example to the table of examples the family's
// BenchmarkSeedExamples ranges over: a copy of the table's last entry in which the example
// file, the kind's Go type (v1alpha1.<Kind>), the service's emulator name and any other string
// (the object's name) are the kind's, and a map (changes to the example) is nil. The families' tables differ in shape; copying one of
// their own entries keeps the shape. errNoBenchTable says the benchmark has no such table.
func (s spec) addBenchEntry(src []byte, fset *token.FileSet, f *ast.File) ([]textEdit, error) {
	table := benchTable(f)
	if table == nil {
		return nil, errNoBenchTable
	}
	last := table.Elts[len(table.Elts)-1]
	start := fset.Position(last.Pos()).Offset
	api := apiImportName(f, s.Module+"/api/v1alpha1")
	var subs []textEdit
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.KeyValueExpr:
			// A key names a field or a map key, which stays.
			ast.Inspect(x.Value, visit)
			return false
		case *ast.CompositeLit:
			if _, ok := x.Type.(*ast.MapType); ok {
				// A map of changes to the example (placeholders swapped) is the copied
				// entry's own.
				subs = append(subs, substitution(fset, start, x, "nil"))
				return false
			}
			if s.isServiceList(x) {
				subs = append(subs, substitution(fset, start, x, fmt.Sprintf("[]string{%q}", s.ServiceID)))
				return false
			}
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && id.Name == api {
				subs = append(subs, substitution(fset, start, x.Sel, s.Kind))
			}
		case *ast.BasicLit:
			if v, err := strconv.Unquote(x.Value); x.Kind == token.STRING && err == nil {
				subs = append(subs, substitution(fset, start, x, strconv.Quote(s.benchString(v))))
			}
		}
		return true
	}
	ast.Inspect(last, visit)
	entry := applyEdits(src[start:fset.Position(last.End()).Offset], subs)
	return []textEdit{appendToList(src, fset, last, table.Rbrace, string(entry))}, nil
}

// substitution is the replacement of n, in an entry starting at the file's offset start, by
// text.
func substitution(fset *token.FileSet, start int, n ast.Node, text string) textEdit {
	from, to := fset.Position(n.Pos()).Offset-start, fset.Position(n.End()).Offset-start
	return textEdit{offset: from, text: text, length: to - from}
}

// benchString returns what the string v of the copied entry becomes: the kind's example for an
// example file, the service's name for an emulated service's, the example's object name for
// anything else.
func (s spec) benchString(v string) string {
	switch {
	case strings.HasSuffix(v, ".yaml"):
		return s.Package + ".yaml"
	case s.ServiceIDs[v]:
		return s.ServiceID
	}
	return s.ExampleName
}

// isServiceList reports whether lit is a list of strings naming emulated services.
func (s spec) isServiceList(lit *ast.CompositeLit) bool {
	for _, e := range lit.Elts {
		b, ok := e.(*ast.BasicLit)
		if !ok {
			return false
		}
		if v, err := strconv.Unquote(b.Value); err != nil || !s.ServiceIDs[v] {
			return false
		}
	}
	return len(lit.Elts) > 0
}

// benchTable returns the non-empty composite literal BenchmarkSeedExamples ranges over, or nil.
func benchTable(f *ast.File) *ast.CompositeLit {
	var table *ast.CompositeLit
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "BenchmarkSeedExamples" || fn.Body == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if r, ok := n.(*ast.RangeStmt); ok && table == nil {
				if lit, ok := r.X.(*ast.CompositeLit); ok && len(lit.Elts) > 0 {
					table = lit
				}
			}
			return table == nil
		})
	}
	return table
}

// apiImportName returns the name file f uses for the package path, or "" when it does not
// import it.
func apiImportName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if strings.Trim(imp.Path.Value, `"`) != path {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return path[strings.LastIndex(path, "/")+1:]
	}
	return ""
}
