package emulator_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"
	"github.com/google/go-cmp/cmp"
)

// digestOf returns the sha256 digest of data as ECR writes it.
func digestOf(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// initiate opens a layer upload in repo and returns its id.
func initiate(t *testing.T, c *ecr.Client, repo string) *string {
	t.Helper()
	out, err := c.InitiateLayerUpload(context.Background(), &ecr.InitiateLayerUploadInput{RepositoryName: aws.String(repo)})
	if err != nil {
		t.Fatalf("initiate layer upload in %s: %v", repo, err)
	}
	return out.UploadId
}

// uploadPart sends data as the part of upload id that starts at byte first.
func uploadPart(c *ecr.Client, repo string, id *string, first int, data []byte) (*ecr.UploadLayerPartOutput, error) {
	return c.UploadLayerPart(context.Background(), &ecr.UploadLayerPartInput{RepositoryName: aws.String(repo), UploadId: id,
		PartFirstByte: aws.Int64(int64(first)), PartLastByte: aws.Int64(int64(first + len(data) - 1)), LayerPartBlob: data})
}

// complete ends upload id, giving digest as the layer's.
func complete(c *ecr.Client, repo string, id *string, digest string) (*ecr.CompleteLayerUploadOutput, error) {
	return c.CompleteLayerUpload(context.Background(), &ecr.CompleteLayerUploadInput{RepositoryName: aws.String(repo), UploadId: id, LayerDigests: []string{digest}})
}

// uploadBlob uploads data to repo as one layer part, as `docker push` does for a small layer or
// an image config, and returns its digest; a blob the repository has already is not uploaded
// again.
func uploadBlob(t *testing.T, c *ecr.Client, repo string, data []byte) string {
	t.Helper()
	digest := digestOf(data)
	id := initiate(t, c, repo)
	if _, err := uploadPart(c, repo, id, 0, data); err != nil {
		t.Fatalf("upload %s: %v", digest, err)
	}
	out, err := complete(c, repo, id, digest)
	if errorCode(err) == "LayerAlreadyExistsException" {
		return digest
	}
	if err != nil || aws.ToString(out.LayerDigest) != digest {
		t.Fatalf("complete %s: %+v, %v", digest, out, err)
	}
	return digest
}

// Manifest media types: an OCI image manifest's and a Docker image manifest's (schema 2).
const (
	ociType    = "application/vnd.oci.image.manifest.v1+json"
	dockerType = "application/vnd.docker.distribution.manifest.v2+json"
)

// imageManifest returns an image manifest of mediaType naming a config and layers by digest.
func imageManifest(mediaType, config string, layers ...string) string {
	var ls []string
	for _, l := range layers {
		ls = append(ls, fmt.Sprintf(`{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","size":1,"digest":"%s"}`, l))
	}
	return fmt.Sprintf(`{"schemaVersion":2,"mediaType":"%s","config":{"mediaType":"application/vnd.oci.image.config.v1+json","size":1,"digest":"%s"},"layers":[%s]}`,
		mediaType, config, strings.Join(ls, ","))
}

// TestECRPushImage pushes a small image through the API: its config and one layer uploaded,
// checked with BatchCheckLayerAvailability, and an OCI manifest naming them put and read back
// with BatchGetImage. Manifests (OCI and Docker schema 2) that name a blob the repository lacks,
// or one uploaded to another repository, are refused with LayersNotFoundException; a foreign
// layer, fetched from its URLs, need not be uploaded.
func TestECRPushImage(t *testing.T) {
	c, _ := ecrClient(t)
	ctx := context.Background()
	newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String("shop/api")})
	newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String("other")})
	config := uploadBlob(t, c, "shop/api", []byte(`{"architecture":"amd64","os":"linux","rootfs":{"type":"layers"}}`))
	layer := uploadBlob(t, c, "shop/api", []byte("a gzipped tar, as far as the registry cares"))
	elsewhere := uploadBlob(t, c, "other", []byte("a layer of another repository"))
	missing := digestOf([]byte("never uploaded"))

	check, err := c.BatchCheckLayerAvailability(ctx, &ecr.BatchCheckLayerAvailabilityInput{RepositoryName: aws.String("shop/api"),
		LayerDigests: []string{config, layer, missing, "not-a-digest"}})
	if err != nil {
		t.Fatal(err)
	}
	var available, failures []string
	for _, l := range check.Layers {
		available = append(available, aws.ToString(l.LayerDigest)+" "+string(l.LayerAvailability))
	}
	for _, f := range check.Failures {
		failures = append(failures, aws.ToString(f.LayerDigest)+" "+string(f.FailureCode))
	}
	if diff := cmp.Diff([]string{config + " AVAILABLE", layer + " AVAILABLE"}, available); diff != "" {
		t.Errorf("available layers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{missing + " MissingLayerDigest", "not-a-digest InvalidLayerDigest"}, failures); diff != "" {
		t.Errorf("layer failures (-want +got):\n%s", diff)
	}

	manifest := imageManifest(ociType, config, layer)
	put, err := c.PutImage(ctx, &ecr.PutImageInput{RepositoryName: aws.String("shop/api"), ImageManifest: aws.String(manifest), ImageTag: aws.String("v1")})
	if err != nil || aws.ToString(put.Image.ImageManifestMediaType) != ociType {
		t.Fatalf("put the image: %+v, %v", put, err)
	}
	got, err := c.BatchGetImage(ctx, &ecr.BatchGetImageInput{RepositoryName: aws.String("shop/api"),
		ImageIds: []types.ImageIdentifier{{ImageTag: aws.String("v1")}, {ImageTag: aws.String("v2")}}})
	if err != nil || len(got.Images) != 1 || len(got.Failures) != 1 {
		t.Fatalf("BatchGetImage: %+v, %v", got, err)
	}
	if img := got.Images[0]; aws.ToString(img.ImageManifest) != manifest || aws.ToString(img.ImageId.ImageDigest) != digestOf([]byte(manifest)) || aws.ToString(img.ImageId.ImageTag) != "v1" {
		t.Errorf("BatchGetImage answered %+v; want the manifest put, its digest and tag", img)
	}
	if got.Failures[0].FailureCode != types.ImageFailureCodeImageNotFound {
		t.Errorf("a tag with no image: %+v", got.Failures[0])
	}

	foreign := fmt.Sprintf(`{"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json","config":{"size":1,"digest":"%s"},"layers":[{"mediaType":"application/vnd.docker.image.rootfs.foreign.diff.tar.gzip","size":1,"digest":"%s","urls":["https://example.com/layer"]}]}`, config, missing)
	cases := map[string]struct {
		reason   string
		manifest string
		want     string
	}{
		"MissingLayer":       {"A Docker manifest's layers must be uploaded.", imageManifest(dockerType, config, layer, missing), "LayersNotFoundException"},
		"MissingConfig":      {"An OCI manifest's config must be uploaded.", imageManifest(ociType, missing, layer), "LayersNotFoundException"},
		"OtherRepository":    {"Layers are the repository's own.", imageManifest(ociType, config, elsewhere), "LayersNotFoundException"},
		"ForeignLayer":       {"A layer with URLs is not uploaded.", foreign, ""},
		"DockerWithUploaded": {"A Docker manifest naming uploaded blobs is accepted.", imageManifest(dockerType, config, layer), ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := c.PutImage(ctx, &ecr.PutImageInput{RepositoryName: aws.String("shop/api"), ImageManifest: aws.String(tc.manifest)})
			if diff := cmp.Diff(tc.want, errorCode(err)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestECRLayerUploadErrors checks what the layer upload calls refuse: parts that do not follow
// the bytes received or do not match their blob, unknown and finished uploads, empty uploads,
// a digest that is not the bytes', a layer the repository has, a part below 5 MiB before the
// last, and the oldest upload forgotten beyond 100 open ones.
func TestECRLayerUploadErrors(t *testing.T) {
	c, _ := ecrClient(t)
	repo := "errors"
	newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String(repo)})
	data := []byte("layer bytes")
	existing := uploadBlob(t, c, repo, []byte("already here"))
	cases := map[string]struct {
		reason string
		args   func(id *string) error
		want   string
	}{
		"Gap": {"The first part starts at byte 0.", func(id *string) error {
			_, err := uploadPart(c, repo, id, 5, data)
			return err
		}, "InvalidLayerPartException"},
		"Overlap": {"A part starts after the last byte received.", func(id *string) error {
			if _, err := uploadPart(c, repo, id, 0, data); err != nil {
				return err
			}
			_, err := uploadPart(c, repo, id, len(data)-1, data)
			return err
		}, "InvalidLayerPartException"},
		"WrongLastByte": {"The last byte ends the blob.", func(id *string) error {
			_, err := c.UploadLayerPart(context.Background(), &ecr.UploadLayerPartInput{RepositoryName: aws.String(repo), UploadId: id,
				PartFirstByte: aws.Int64(0), PartLastByte: aws.Int64(100), LayerPartBlob: data})
			return err
		}, "InvalidLayerPartException"},
		"UnknownUpload": {"An upload id must be InitiateLayerUpload's.", func(*string) error {
			_, err := uploadPart(c, repo, aws.String("b2b2b2b2-0000-0000-0000-000000000000"), 0, data)
			return err
		}, "UploadNotFoundException"},
		"OtherRepository": {"An upload belongs to its repository.", func(id *string) error {
			_, err := uploadPart(c, "shop/missing", id, 0, data)
			return err
		}, "RepositoryNotFoundException"},
		"Empty": {"An upload needs a part.", func(id *string) error {
			_, err := complete(c, repo, id, digestOf(nil))
			return err
		}, "EmptyUploadException"},
		"WrongDigest": {"The digest is the SHA-256 of the bytes.", func(id *string) error {
			if _, err := uploadPart(c, repo, id, 0, data); err != nil {
				return err
			}
			_, err := complete(c, repo, id, digestOf([]byte("other bytes")))
			return err
		}, "InvalidLayerException"},
		"Exists": {"A layer is uploaded once.", func(id *string) error {
			if _, err := uploadPart(c, repo, id, 0, []byte("already here")); err != nil {
				return err
			}
			_, err := complete(c, repo, id, existing)
			return err
		}, "LayerAlreadyExistsException"},
		"SmallPartAhead": {"Parts but the last are at least 5 MiB.", func(id *string) error {
			if _, err := uploadPart(c, repo, id, 0, data[:4]); err != nil {
				return err
			}
			if _, err := uploadPart(c, repo, id, 4, data[4:]); err != nil {
				return err
			}
			_, err := complete(c, repo, id, digestOf(data))
			return err
		}, "LayerPartTooSmallException"},
		"Finished": {"A completed upload is over.", func(id *string) error {
			if _, err := uploadPart(c, repo, id, 0, data); err != nil {
				return err
			}
			if _, err := complete(c, repo, id, digestOf(data)); err != nil {
				return err
			}
			_, err := uploadPart(c, repo, id, len(data), data)
			return err
		}, "UploadNotFoundException"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, errorCode(tc.args(initiate(t, c, repo)))); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}

	oldest, next := initiate(t, c, repo), initiate(t, c, repo)
	for range 99 {
		initiate(t, c, repo)
	}
	if _, err := uploadPart(c, repo, oldest, 0, data); errorCode(err) != "UploadNotFoundException" {
		t.Errorf("the oldest of 101 open uploads: %v; want UploadNotFoundException", err)
	}
	if _, err := uploadPart(c, repo, next, 0, data); err != nil {
		t.Errorf("the second oldest of 101 open uploads: %v; want it kept", err)
	}
}

// TestECRLayerUploadParts uploads a layer in two parts, the first of the 5 MiB minimum, and
// checks the bytes each part reports received and the digest over both.
func TestECRLayerUploadParts(t *testing.T) {
	c, _ := ecrClient(t)
	repo := "parts"
	newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String(repo)})
	first, last := bytes.Repeat([]byte{7}, 5<<20), []byte("tail")
	init, err := c.InitiateLayerUpload(context.Background(), &ecr.InitiateLayerUploadInput{RepositoryName: aws.String(repo)})
	if err != nil || aws.ToInt64(init.PartSize) < 5<<20 {
		t.Fatalf("InitiateLayerUpload: %+v, %v", init, err)
	}
	var received []int64
	for _, p := range []struct {
		from int
		data []byte
	}{{0, first}, {len(first), last}} {
		out, err := uploadPart(c, repo, init.UploadId, p.from, p.data)
		if err != nil {
			t.Fatal(err)
		}
		received = append(received, aws.ToInt64(out.LastByteReceived))
	}
	if diff := cmp.Diff([]int64{5<<20 - 1, 5<<20 + 3}, received); diff != "" {
		t.Errorf("lastByteReceived (-want +got):\n%s", diff)
	}
	whole := digestOf(append(append([]byte{}, first...), last...))
	out, err := complete(c, repo, init.UploadId, whole)
	if err != nil || aws.ToString(out.LayerDigest) != whole {
		t.Fatalf("complete: %+v, %v; want %s", out, err, whole)
	}
	check, err := c.BatchCheckLayerAvailability(context.Background(), &ecr.BatchCheckLayerAvailabilityInput{RepositoryName: aws.String(repo), LayerDigests: []string{whole}})
	if err != nil || len(check.Layers) != 1 || aws.ToInt64(check.Layers[0].LayerSize) != 5<<20+4 {
		t.Errorf("the layer's availability and size: %+v, %v", check, err)
	}
}
