package differential

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"
)

// Image configs the ECR steps upload, and the manifests (schema 2) that name them: two distinct
// images, and one whose layer was never uploaded.
var (
	configOne       = []byte(`{"architecture":"amd64","os":"linux","n":1}`)
	configTwo       = []byte(`{"architecture":"amd64","os":"linux","n":2}`)
	neverUploaded   = blobDigest([]byte("never uploaded"))
	manifestOne     = schema2Manifest(blobDigest(configOne))
	manifestTwo     = schema2Manifest(blobDigest(configTwo))
	manifestMissing = schema2Manifest(blobDigest(configOne), neverUploaded)
)

// blobDigest returns the sha256 digest of a blob as ECR writes it.
func blobDigest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// schema2Manifest returns a Docker image manifest (schema 2) naming a config and layers.
func schema2Manifest(config string, layers ...string) string {
	var ls []string
	for _, l := range layers {
		ls = append(ls, fmt.Sprintf(`{"mediaType":"application/vnd.docker.image.rootfs.diff.tar.gzip","size":1,"digest":"%s"}`, l))
	}
	return fmt.Sprintf(`{"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json","config":{"mediaType":"application/vnd.docker.container.image.v1+json","size":1,"digest":"%s"},"layers":[%s]}`,
		config, strings.Join(ls, ","))
}

// uploadStep uploads data to repository repo as one layer part and compares the digest
// CompleteLayerUpload answers.
func uploadStep(repo *string, data []byte) func(c *registry) outcome {
	return func(c *registry) outcome {
		ctx := context.Background()
		up, err := c.ecr.InitiateLayerUpload(ctx, &ecr.InitiateLayerUploadInput{RepositoryName: repo})
		if err != nil {
			return observe(err, nil)
		}
		if _, err := c.ecr.UploadLayerPart(ctx, &ecr.UploadLayerPartInput{RepositoryName: repo, UploadId: up.UploadId, PartFirstByte: aws.Int64(0),
			PartLastByte: aws.Int64(int64(len(data) - 1)), LayerPartBlob: data}); err != nil {
			return observe(err, nil)
		}
		out, err := c.ecr.CompleteLayerUpload(ctx, &ecr.CompleteLayerUploadInput{RepositoryName: repo, UploadId: up.UploadId, LayerDigests: []string{blobDigest(data)}})
		if err != nil {
			return observe(err, nil)
		}
		return observe(nil, map[string]string{"digest": aws.ToString(out.LayerDigest)})
	}
}

// checkLayersStep asks BatchCheckLayerAvailability about an uploaded config and a layer never
// uploaded.
func checkLayersStep(repo *string) func(c *registry) outcome {
	return func(c *registry) outcome {
		out, err := c.ecr.BatchCheckLayerAvailability(context.Background(), &ecr.BatchCheckLayerAvailabilityInput{RepositoryName: repo,
			LayerDigests: []string{blobDigest(configOne), neverUploaded}})
		if err != nil {
			return observe(err, nil)
		}
		var failures []string
		for _, f := range out.Failures {
			failures = append(failures, string(f.FailureCode))
		}
		return observe(nil, map[string]string{"available": strconv.Itoa(len(out.Layers)), "failures": strings.Join(failures, ",")})
	}
}

// getImageStep reads back with BatchGetImage the image a tag names, and a tag with no image.
func getImageStep(repo *string, tag, manifest string) func(c *registry) outcome {
	return func(c *registry) outcome {
		out, err := c.ecr.BatchGetImage(context.Background(), &ecr.BatchGetImageInput{RepositoryName: repo,
			ImageIds: []types.ImageIdentifier{{ImageTag: aws.String(tag)}, {ImageTag: aws.String("missing")}}})
		if err != nil {
			return observe(err, nil)
		}
		same := len(out.Images) == 1 && aws.ToString(out.Images[0].ImageManifest) == manifest
		var failures []string
		for _, f := range out.Failures {
			failures = append(failures, string(f.FailureCode))
		}
		return observe(nil, map[string]string{"same": strconv.FormatBool(same), "failures": strings.Join(failures, ",")})
	}
}
