package plan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Read returns the objects of the manifests at paths, in order: a file is read whatever its
// name, a directory is walked recursively (in lexical order) for *.yaml, *.yml and *.json files.
// A file may hold several YAML documents; empty documents are skipped, and a kind List
// (kubectl's) gives its items.
func Read(paths []string) ([]*unstructured.Unstructured, error) {
	var objs []*unstructured.Unstructured
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("read the manifests: %w", err)
		}
		if !info.IsDir() {
			more, err := readFile(p)
			if err != nil {
				return nil, err
			}
			objs = append(objs, more...)
			continue
		}
		err = filepath.WalkDir(p, func(file string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !isManifest(file) {
				return err
			}
			more, err := readFile(file)
			objs = append(objs, more...)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("read the manifests of %s: %w", p, err)
		}
	}
	return objs, nil
}

// isManifest tells whether a file found in a directory holds manifests, by its extension.
func isManifest(file string) bool {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// readFile returns the objects of the documents of one file.
func readFile(file string) ([]*unstructured.Unstructured, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read the manifests: %w", err)
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var objs []*unstructured.Unstructured
	for doc := 1; ; doc++ {
		var m map[string]any
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", file, doc, err)
		}
		if len(m) == 0 {
			continue
		}
		u := &unstructured.Unstructured{Object: m}
		if u.GetKind() == "" || u.GetAPIVersion() == "" {
			return nil, fmt.Errorf("%s: document %d has no apiVersion or kind", file, doc)
		}
		if !u.IsList() {
			objs = append(objs, u)
			continue
		}
		err = u.EachListItem(func(o runtime.Object) error {
			objs = append(objs, o.(*unstructured.Unstructured))
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", file, doc, err)
		}
	}
}
