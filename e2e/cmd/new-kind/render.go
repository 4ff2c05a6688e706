package main

import (
	"bytes"
	"embed"
	"fmt"
	"go/format"
	"io"
	"path/filepath"
	"strings"
	"text/template"
)

// templates holds the templates of the files new-kind writes and of the steps it prints.
//
//go:embed templates/*.tmpl
var templates embed.FS

// parsed are the templates, parsed once.
var parsed = template.Must(template.ParseFS(templates, "templates/*.tmpl"))

// newFile is a file new-kind writes: the template it is made from and its path.
type newFile struct {
	template string
	path     string
}

// newFiles returns the files of the kind, by path, rendered (and gofmt-ed for Go files).
func (s spec) newFiles() (map[string][]byte, error) {
	files := []newFile{
		{"types.go.tmpl", s.typesPath()},
		{"kind.go.tmpl", filepath.Join(s.driverDir(), "kind.go")},
		{"observe.go.tmpl", filepath.Join(s.driverDir(), "observe.go")},
		{"create.go.tmpl", filepath.Join(s.driverDir(), "create.go")},
		{"delete.go.tmpl", filepath.Join(s.driverDir(), "delete.go")},
		{"example.yaml.tmpl", s.examplePath()},
		{"kind_test.go.tmpl", s.testPath()},
	}
	out := map[string][]byte{}
	for _, f := range files {
		var b bytes.Buffer
		if err := parsed.ExecuteTemplate(&b, f.template, s); err != nil {
			return nil, fmt.Errorf("render %s: %w", f.path, err)
		}
		content := b.Bytes()
		if strings.HasSuffix(f.path, ".go") {
			formatted, err := format.Source(content)
			if err != nil {
				return nil, fmt.Errorf("format %s: %w", f.path, err)
			}
			content = formatted
		}
		out[f.path] = content
	}
	return out, nil
}

// stepsData is what the steps template prints besides the spec.
type stepsData struct {
	spec
	// Written are the files written and changed, relative to the repository's root.
	Written []string
	// BenchAdded is true when an entry was added to the family's benchmark.
	BenchAdded bool
}

// printSteps prints the files written and the steps left to w.
func printSteps(w io.Writer, d stepsData) error {
	if err := parsed.ExecuteTemplate(w, "steps.txt.tmpl", d); err != nil {
		return fmt.Errorf("print the steps: %w", err)
	}
	return nil
}
