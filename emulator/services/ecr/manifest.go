package ecr

import (
	"encoding/json"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// manifestBlobs returns the digests of the blobs an image manifest names that a push must have
// uploaded to the repository first: the config and layers of a Docker image manifest (schema 2)
// or an OCI image manifest, and the fsLayers of a schema 1 manifest. Layers with URLs (foreign
// and non-distributable layers) are fetched from those URLs, not uploaded; manifest lists and
// OCI indexes name images, not blobs, and give none.
func manifestBlobs(manifest string) []string {
	var doc struct {
		Config *struct {
			Digest string `json:"digest"`
		} `json:"config"`
		Layers []struct {
			Digest string   `json:"digest"`
			URLs   []string `json:"urls"`
		} `json:"layers"`
		FSLayers []struct {
			BlobSum string `json:"blobSum"`
		} `json:"fsLayers"`
	}
	if json.Unmarshal([]byte(manifest), &doc) != nil {
		return nil
	}
	var out []string
	if doc.Config != nil {
		out = append(out, doc.Config.Digest)
	}
	for _, l := range doc.Layers {
		if len(l.URLs) == 0 {
			out = append(out, l.Digest)
		}
	}
	for _, l := range doc.FSLayers {
		out = append(out, l.BlobSum)
	}
	return out
}

// checkLayers returns LayersNotFoundException, in AWS's words, when the repository lacks a blob
// the manifest names.
func (r *repository) checkLayers(manifest string) error {
	var missing []string
	for _, d := range manifestBlobs(manifest) {
		if _, ok := r.layers[d]; !ok {
			missing = append(missing, d)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return core.Errorf("LayersNotFoundException", "Layers with digests '%v' required for pushing image into repository with name '%s' in registry with id '%s' do not exist",
		missing, r.name, r.registryID)
}
