// Package crds embeds the CustomResourceDefinitions of the shared API (AWSProvider), so that
// test control planes, the sandbox and the charts install the same manifests.
package crds

import (
	"embed"
	"fmt"
	"io/fs"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

//go:embed *.yaml
var files embed.FS

// FS returns the embedded CRD manifests.
func FS() fs.FS { return files }

// Load returns every CustomResourceDefinition in fsys's top-level .yaml files.
func Load(fsys fs.FS) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, fmt.Errorf("list CRD manifests: %w", err)
	}
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(names))
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict(b, crd); err != nil {
			return nil, fmt.Errorf("decode %s: %w", name, err)
		}
		out = append(out, crd)
	}
	return out, nil
}
