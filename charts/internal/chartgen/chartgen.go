// Package chartgen generates the family charts of infra-operator from one skeleton, the
// generated CRDs and the generated RBAC of each family, and vendors them into the umbrella
// chart. `make charts` writes its output; a test fails when the files on disk differ from it.
package chartgen

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"text/template"
)

// Umbrella is the directory of the umbrella chart, relative to the charts directory.
const Umbrella = "infra-operator"

// skeleton is the family chart with [[ ]] placeholders; all: keeps _helpers.tpl and .helmignore.
//
//go:embed all:skeleton
var skeleton embed.FS

// family is what the skeleton needs to know about one family.
type family struct {
	// Name is the family's directory under operators/, and its chart's name.
	Name string
	// Kinds are the kinds of the family's CRDs, for the chart's description.
	Kinds []string
	// Rules are the RBAC rules of the family's generated ClusterRole, split by where the chart
	// grants them.
	Rules roleRules
	// crds are the family's CRD templates, keyed by file name.
	crds map[string][]byte
}

// Generate returns every generated file, keyed by its slash-separated path relative to the
// charts directory, for the given families of the repository at root.
func Generate(root string, names []string) (map[string][]byte, error) {
	shared, err := readCRDs(root, "shared/crds")
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, name := range names {
		f, err := loadFamily(root, name, shared)
		if err != nil {
			return nil, err
		}
		files, err := f.render()
		if err != nil {
			return nil, err
		}
		for p, b := range files {
			out[path.Join(name, p)] = b
			out[path.Join(Umbrella, "charts", name, p)] = b
		}
	}
	for _, c := range shared {
		b, err := c.template(Umbrella, "")
		if err != nil {
			return nil, err
		}
		out[path.Join(Umbrella, "templates", "crds", c.file)] = b
	}
	return out, nil
}

// Families returns the families of the repository at root: the directories under operators/
// that hold a go.mod, as the Makefile finds them.
func Families(root string) ([]string, error) {
	mods, err := filepath.Glob(filepath.Join(root, "operators", "*", "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("find families: %w", err)
	}
	if len(mods) == 0 {
		return nil, fmt.Errorf("find families: no operators/*/go.mod under %s", root)
	}
	names := make([]string, 0, len(mods))
	for _, m := range mods {
		names = append(names, filepath.Base(filepath.Dir(m)))
	}
	sort.Strings(names)
	return names, nil
}

// Owned returns the paths, relative to the charts directory, whose whole content Generate
// produces: a file there that Generate does not return is stale.
func Owned(families []string) []string {
	owned := append([]string{}, families...)
	return append(owned, path.Join(Umbrella, "charts"), path.Join(Umbrella, "templates", "crds"))
}

// loadFamily reads the family's generated CRDs and ClusterRole; shared are the CRDs every
// family installs.
func loadFamily(root, name string, shared []crd) (*family, error) {
	own, err := readCRDs(root, path.Join("operators", name, "crds"))
	if err != nil {
		return nil, err
	}
	f := &family{Name: name, crds: map[string][]byte{}}
	for _, c := range shared {
		b, err := c.template(name, ".Values.crds.awsProvider")
		if err != nil {
			return nil, err
		}
		f.crds[c.file] = b
	}
	for _, c := range own {
		b, err := c.template(name, "")
		if err != nil {
			return nil, err
		}
		f.crds[c.file] = b
		f.Kinds = append(f.Kinds, c.kind)
	}
	role := path.Join("operators", name, "config", "rbac", "role.yaml")
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(role)))
	if err != nil {
		return nil, fmt.Errorf("read the %s family's RBAC: %w", name, err)
	}
	if f.Rules, err = splitRules(b); err != nil {
		return nil, fmt.Errorf("split %s: %w", role, err)
	}
	return f, nil
}

// render fills the skeleton for f and adds its CRD templates.
func (f *family) render() (map[string][]byte, error) {
	out := map[string][]byte{}
	err := fs.WalkDir(skeleton, "skeleton", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := skeleton.ReadFile(p)
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		t, err := template.New(p).Delims("[[", "]]").Funcs(template.FuncMap{"join": strings.Join}).Parse(string(src))
		if err != nil {
			return fmt.Errorf("parse %s: %w", p, err)
		}
		var buf bytes.Buffer
		if err := t.Execute(&buf, f); err != nil {
			return fmt.Errorf("fill %s for %s: %w", p, f.Name, err)
		}
		out[strings.TrimPrefix(p, "skeleton/")] = buf.Bytes()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("render the %s chart: %w", f.Name, err)
	}
	for file, b := range f.crds {
		out[path.Join("templates", "crds", file)] = b
	}
	return out, nil
}
