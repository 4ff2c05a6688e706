package testkind

import (
	"embed"
	"io/fs"
)

//go:embed crds/*.yaml
var crdFiles embed.FS

// CRDs returns the Widget CRD manifests.
func CRDs() fs.FS {
	sub, err := fs.Sub(crdFiles, "crds")
	if err != nil {
		panic(err) // The embedded directory is fixed at build time.
	}
	return sub
}
