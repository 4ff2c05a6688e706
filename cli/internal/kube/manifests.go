package kube

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// FieldOwner is infractl's field manager for server-side apply.
const FieldOwner = "infractl"

// ReadManifests reads every object in the given YAML or JSON files, and in the .yaml, .yml and
// .json files of the given directories (sorted by name, not recursive), in order.
func ReadManifests(paths []string) ([]*unstructured.Unstructured, error) {
	files, err := ReadManifestFiles(paths)
	if err != nil {
		return nil, err
	}
	var objs []*unstructured.Unstructured
	for _, f := range files {
		objs = append(objs, f.Objects...)
	}
	return objs, nil
}

// ManifestFile is one manifest file and the objects it holds, in order.
type ManifestFile struct {
	// Path is the file's path as found from the paths given to ReadManifestFiles.
	Path string
	// Objects are the file's objects.
	Objects []*unstructured.Unstructured
}

// ReadManifestFiles reads the given YAML or JSON files, and the .yaml, .yml and .json files of
// the given directories (sorted by name, not recursive), in order, keeping each file's objects
// apart.
func ReadManifestFiles(paths []string) ([]ManifestFile, error) {
	var out []ManifestFile
	for _, p := range paths {
		files, err := manifestFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			objs, err := readFile(f)
			if err != nil {
				return nil, err
			}
			out = append(out, ManifestFile{Path: f, Objects: objs})
		}
	}
	return out, nil
}

// manifestFiles returns path itself, or the manifest files of the directory path.
func manifestFiles(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read manifests: %w", err)
	}
	if !fi.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("read manifests in %s: %w", path, err)
	}
	var files []string
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("no .yaml, .yml or .json files in %s", path)
	}
	return files, nil
}

// readFile decodes every document of a manifest file.
func readFile(path string) ([]*unstructured.Unstructured, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	var objs []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return objs, nil
			}
			return nil, fmt.Errorf("decode %s: %w", path, err)
		}
		if len(u.Object) == 0 {
			continue
		}
		if u.GetKind() == "" || u.GetAPIVersion() == "" || u.GetName() == "" {
			return nil, fmt.Errorf("%s: every object needs apiVersion, kind and metadata.name", path)
		}
		objs = append(objs, u)
	}
}

// Apply applies objs in order with server-side apply, putting objects without a namespace in
// namespace (cluster-scoped kinds keep none).
func Apply(ctx context.Context, c client.Client, objs []*unstructured.Unstructured, namespace string) error {
	for _, u := range objs {
		namespaced, err := c.IsObjectNamespaced(u)
		if err != nil {
			return fmt.Errorf("%s %s: unknown kind (are its CRDs installed?): %w", u.GetKind(), u.GetName(), err)
		}
		if namespaced && u.GetNamespace() == "" {
			u.SetNamespace(namespace)
		}
		if err := c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(FieldOwner), client.ForceOwnership); err != nil {
			return fmt.Errorf("apply %s %s: %w", u.GetKind(), key(u), err)
		}
	}
	return nil
}

// key names an object as namespace/name, or name for cluster-scoped objects.
func key(o client.Object) string {
	if o.GetNamespace() == "" {
		return o.GetName()
	}
	return o.GetNamespace() + "/" + o.GetName()
}
