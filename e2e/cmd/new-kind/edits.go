package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// repoModule is the prefix of the import paths of the repository's packages.
const repoModule = "github.com/runner-codes/infra-operator/"

// errNoBenchTable says that a family's benchmark has no BenchmarkSeedExamples table to add an
// entry to.
var errNoBenchTable = errors.New("no BenchmarkSeedExamples table")

// edits returns the family's files new-kind changes, by path, with their new content: the
// scheme registration, the declaration in family.go, the RBAC markers and, when the family's
// benchmark has a table of examples, an entry in it (benchAdded).
func (s spec) edits() (edited map[string][]byte, benchAdded bool, err error) {
	edited = map[string][]byte{}
	for _, e := range []struct {
		path string
		edit func(src []byte, fset *token.FileSet, f *ast.File) ([]textEdit, error)
	}{
		{filepath.Join(s.FamilyDir, "api", "v1alpha1", "groupversion_info.go"), s.registerType},
		{filepath.Join(s.FamilyDir, "family.go"), s.registerKind},
		{filepath.Join(s.FamilyDir, "rbac.go"), s.addRBAC},
		{s.benchPath(), s.addBenchEntry},
	} {
		content, err := editGo(e.path, e.edit)
		switch {
		case errors.Is(err, errNoBenchTable), errors.Is(err, os.ErrNotExist) && e.path == s.benchPath():
			continue
		case err != nil:
			return nil, false, err
		}
		edited[e.path] = content
		benchAdded = benchAdded || e.path == s.benchPath()
	}
	return edited, benchAdded, nil
}

// textEdit replaces length bytes at a byte offset of a file with text; a length of zero
// inserts text.
type textEdit struct {
	offset int
	text   string
	length int
}

// applyEdits returns src with edits applied; the edits must not overlap.
func applyEdits(src []byte, edits []textEdit) []byte {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(a, b textEdit) int { return b.offset - a.offset })
	out := slices.Clone(src)
	for _, e := range edits {
		out = slices.Replace(out, e.offset, e.offset+e.length, []byte(e.text)...)
	}
	return out
}

// editGo returns the Go file at path with the insertions edit finds applied, gofmt-ed.
func editGo(path string, edit func(src []byte, fset *token.FileSet, f *ast.File) ([]textEdit, error)) ([]byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	edits, err := edit(src, fset, f)
	if err != nil {
		return nil, fmt.Errorf("edit %s: %w", path, err)
	}
	formatted, err := format.Source(applyEdits(src, edits))
	if err != nil {
		return nil, fmt.Errorf("format %s after the edit: %w", path, err)
	}
	return formatted, nil
}

// appendToList returns the insertion of text as a new element after last, the last element of
// a list closed at closing: on a line of its own, indented as last, when the list closes on a
// line of its own, else after last on its line.
func appendToList(src []byte, fset *token.FileSet, last ast.Node, closing token.Pos, text string) textEdit {
	end, cl := fset.Position(last.End()), fset.Position(closing)
	if cl.Line == end.Line {
		return textEdit{offset: end.Offset, text: ", " + text}
	}
	start := fset.Position(last.Pos())
	line := src[start.Offset-(start.Column-1) : start.Offset]
	indent := line[:len(line)-len(strings.TrimLeft(string(line), " \t"))]
	return textEdit{offset: cl.Offset - (cl.Column - 1), text: string(indent) + text + ",\n"}
}

// registerType adds the kind's type and list type to the AddKnownTypes call of the family's
// scheme.
func (s spec) registerType(src []byte, fset *token.FileSet, f *ast.File) ([]textEdit, error) {
	var edits []textEdit
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "AddKnownTypes" {
			edits = append(edits, appendToList(src, fset, call.Args[len(call.Args)-1], call.Rparen, fmt.Sprintf("&%s{}, &%sList{}", s.Kind, s.Kind)))
		}
		return true
	})
	if len(edits) != 1 {
		return nil, fmt.Errorf("want one AddKnownTypes call, found %d", len(edits))
	}
	return edits, nil
}

// registerKind adds engine.For(<package>.Kind()) to the family's Kinds, and the driver
// package to family.go's imports.
func (s spec) registerKind(src []byte, fset *token.FileSet, f *ast.File) ([]textEdit, error) {
	var edits []textEdit
	declare := "engine.For(" + s.Package + ".Kind())"
	ast.Inspect(f, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		key, ok := kv.Key.(*ast.Ident)
		kinds, ok2 := kv.Value.(*ast.CompositeLit)
		if !ok || !ok2 || key.Name != "Kinds" {
			return true
		}
		if len(kinds.Elts) == 0 {
			edits = append(edits, textEdit{offset: fset.Position(kinds.Lbrace).Offset + 1, text: "\n" + declare + ",\n"})
		} else {
			edits = append(edits, appendToList(src, fset, kinds.Elts[len(kinds.Elts)-1], kinds.Rbrace, declare))
		}
		return false
	})
	if len(edits) != 1 {
		return nil, fmt.Errorf("want one Kinds list, found %d", len(edits))
	}
	var last *ast.ImportSpec
	for _, imp := range f.Imports {
		if strings.HasPrefix(strings.Trim(imp.Path.Value, `"`), repoModule) {
			last = imp
		}
	}
	if last == nil {
		return nil, fmt.Errorf("it imports none of the repository's packages to put %s/%s beside", s.Module, s.Package)
	}
	return append(edits, textEdit{offset: fset.Position(last.End()).Offset, text: fmt.Sprintf("\n\t%q", s.Module+"/"+s.Package)}), nil
}

// addRBAC adds the markers that let the family manage the kind's objects after the file's
// last RBAC marker.
func (s spec) addRBAC(src []byte, fset *token.FileSet, f *ast.File) ([]textEdit, error) {
	const marker = "// +kubebuilder:rbac:"
	var last *ast.Comment
	for _, group := range f.Comments {
		for _, c := range group.List {
			if strings.HasPrefix(c.Text, marker) {
				last = c
			}
		}
	}
	if last == nil {
		return nil, errors.New("it holds no RBAC marker to put the kind's beside")
	}
	var b strings.Builder
	for _, rule := range []string{"%s,verbs=get;list;watch;update;patch", "%s/status,verbs=get;update;patch", "%s/finalizers,verbs=update"} {
		b.WriteString("\n" + marker + "groups=aws-infra-operator.runner.codes,resources=" + fmt.Sprintf(rule, s.Plural))
	}
	return []textEdit{{offset: fset.Position(last.End()).Offset, text: b.String()}}, nil
}
