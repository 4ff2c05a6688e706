package ecr

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// image is one image of a repository: its manifest, stored under its digest.
type image struct {
	digest, manifest, mediaType string
	pushed                      time.Time
}

// defaultMediaType is the media type of a manifest that names none and is put without one.
const defaultMediaType = "application/vnd.docker.distribution.manifest.v2+json"

// digestPattern is AWS's pattern of an image digest.
var digestPattern = regexp.MustCompile(`^[a-zA-Z0-9-_+.]+:[a-fA-F0-9]+$`)

// immutable reports whether the repository refuses to move tag to another image: IMMUTABLE and
// MUTABLE_WITH_EXCLUSION make it immutable, IMMUTABLE_WITH_EXCLUSION and MUTABLE mutable, each
// _WITH_EXCLUSION setting turning the other way for the tags its wildcard filters match.
func (r *repository) immutable(tag string) bool {
	excluded := slices.ContainsFunc(r.exclusions, func(f types.ImageTagMutabilityExclusionFilter) bool {
		ok, _ := path.Match(aws.ToString(f.Filter), tag)
		return ok
	})
	switch r.mutability {
	case types.ImageTagMutabilityImmutable:
		return true
	case types.ImageTagMutabilityImmutableWithExclusion:
		return !excluded
	case types.ImageTagMutabilityMutableWithExclusion:
		return excluded
	}
	return false
}

// tagsOf returns the tags of the image with digest, sorted.
func (r *repository) tagsOf(digest string) []string {
	var tags []string
	for t, d := range r.tagged {
		if d == digest {
			tags = append(tags, t)
		}
	}
	slices.Sort(tags)
	return tags
}

// manifestMediaType returns the media type of a manifest: the one the request gives, which must
// agree with the manifest's own mediaType, else the manifest's, else defaultMediaType. The
// manifest must be a JSON object.
func manifestMediaType(manifest string, given *string) (string, error) {
	var doc struct {
		MediaType string `json:"mediaType"`
	}
	if err := json.Unmarshal([]byte(manifest), &doc); err != nil {
		return "", invalidParameter("imageManifest", "must be a JSON image manifest")
	}
	switch {
	case given != nil && doc.MediaType != "" && *given != doc.MediaType:
		return "", invalidParameter("imageManifestMediaType", "must match the mediaType of the image manifest")
	case given != nil:
		return *given, nil
	case doc.MediaType != "":
		return doc.MediaType, nil
	}
	return defaultMediaType, nil
}

// putImage stores an image manifest under its digest, and tags it when the request gives a tag;
// the repository must hold every blob the manifest names (LayersNotFoundException otherwise).
func (b *Backend) putImage(call *core.Call, in *ecr.PutImageInput) (*ecr.PutImageOutput, error) {
	manifest := aws.ToString(in.ImageManifest)
	if manifest == "" {
		return nil, invalidParameter("imageManifest", "must have length greater than or equal to 1")
	}
	mediaType, err := manifestMediaType(manifest, in.ImageManifestMediaType)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(manifest))
	digest := "sha256:" + hex.EncodeToString(sum[:])
	if in.ImageDigest != nil && *in.ImageDigest != digest {
		return nil, core.Errorf("ImageDigestDoesNotMatchException", "The image digest '%s' does not match the digest '%s' of the image manifest", *in.ImageDigest, digest)
	}
	tag := aws.ToString(in.ImageTag)
	if in.ImageTag != nil && (len(tag) < 1 || len(tag) > 300) {
		return nil, invalidParameter("imageTag", "must have length between 1 and 300")
	}
	return core.Locked(b.state, call, func(reg *registry) (*ecr.PutImageOutput, error) {
		r, err := lookup(reg, call, in.RegistryId, in.RepositoryName)
		if err != nil {
			return nil, err
		}
		if err := r.checkLayers(manifest); err != nil {
			return nil, err
		}
		_, exists := r.images[digest]
		current, tagged := r.tagged[tag]
		switch {
		case tag == "" && exists:
			return nil, core.Errorf("ImageAlreadyExistsException", "Image with digest '%s' already exists in the repository with name '%s' in registry with id '%s'", digest, r.name, r.registryID)
		case tag != "" && tagged && current == digest:
			return nil, core.Errorf("ImageAlreadyExistsException", "Image with digest '%s' and tag '%s' already exists in the repository with name '%s' in registry with id '%s'", digest, tag, r.name, r.registryID)
		case tag != "" && tagged && r.immutable(tag):
			return nil, core.Errorf("ImageTagAlreadyExistsException", "The image tag '%s' already exists in the '%s' repository and cannot be overwritten because the tag is immutable.", tag, r.name)
		}
		if !exists {
			r.images[digest] = &image{digest: digest, manifest: manifest, mediaType: mediaType, pushed: call.Now}
		}
		if tag != "" {
			r.tagged[tag] = digest
		}
		img := r.image(digest, in.ImageTag)
		return &ecr.PutImageOutput{Image: &img}, nil
	})
}

// imageIDs returns the identifiers ListImages answers for a repository's images with the tag
// status filter: one per tag of a tagged image, one without a tag per untagged image, by
// digest and then tag.
func (r *repository) imageIDs(status types.TagStatus) []types.ImageIdentifier {
	var ids []types.ImageIdentifier
	for _, digest := range core.SortedKeys(r.images) {
		tags := r.tagsOf(digest)
		if len(tags) == 0 && status != types.TagStatusTagged {
			ids = append(ids, types.ImageIdentifier{ImageDigest: aws.String(digest)})
		}
		if status == types.TagStatusUntagged {
			continue
		}
		for _, t := range tags {
			ids = append(ids, types.ImageIdentifier{ImageDigest: aws.String(digest), ImageTag: aws.String(t)})
		}
	}
	return ids
}

// listImages lists a repository's images by pages.
func (b *Backend) listImages(call *core.Call, in *ecr.ListImagesInput) (*ecr.ListImagesOutput, error) {
	size, err := pageSize(in.MaxResults)
	if err != nil {
		return nil, err
	}
	status := types.TagStatusAny
	if in.Filter != nil && in.Filter.TagStatus != "" {
		status = in.Filter.TagStatus
	}
	if !slices.Contains(status.Values(), status) {
		return nil, invalidParameter("filter.tagStatus", "must be one of "+strings.Join(enumStrings(status.Values()), ", "))
	}
	return core.Locked(b.state, call, func(reg *registry) (*ecr.ListImagesOutput, error) {
		r, err := lookup(reg, call, in.RegistryId, in.RepositoryName)
		if err != nil {
			return nil, err
		}
		page, next, err := paginate(r.imageIDs(status), in.NextToken, size)
		if err != nil {
			return nil, err
		}
		return &ecr.ListImagesOutput{ImageIds: append([]types.ImageIdentifier{}, page...), NextToken: next}, nil
	})
}

// imageFailure is one BatchDeleteImage failure.
func imageFailure(id types.ImageIdentifier, code types.ImageFailureCode, reason string) types.ImageFailure {
	return types.ImageFailure{ImageId: &id, FailureCode: code, FailureReason: aws.String(reason)}
}

// batchDeleteImage deletes images by digest, or removes tags, deleting an image once its last
// tag is gone; each identifier it cannot act on is a failure, not an error.
func (b *Backend) batchDeleteImage(call *core.Call, in *ecr.BatchDeleteImageInput) (*ecr.BatchDeleteImageOutput, error) {
	return batch(b, call, in.RegistryId, in.RepositoryName, "imageIds", len(in.ImageIds), func(r *repository) (*ecr.BatchDeleteImageOutput, error) {
		out := &ecr.BatchDeleteImageOutput{ImageIds: []types.ImageIdentifier{}, Failures: []types.ImageFailure{}}
		for _, id := range in.ImageIds {
			deleted, failure := r.deleteImage(id)
			if failure != nil {
				out.Failures = append(out.Failures, *failure)
			}
			out.ImageIds = append(out.ImageIds, deleted...)
		}
		slices.SortStableFunc(out.ImageIds, func(x, y types.ImageIdentifier) int {
			return cmp.Compare(aws.ToString(x.ImageDigest), aws.ToString(y.ImageDigest))
		})
		return out, nil
	})
}

// find returns the digest of the image an identifier names: by tag, the image the tag names,
// which must have the digest the identifier also gives; by digest alone, that image. It returns
// instead the failure BatchDeleteImage and BatchGetImage answer an identifier with that names
// no image.
func (r *repository) find(id types.ImageIdentifier) (string, *types.ImageFailure) {
	digest, tag := aws.ToString(id.ImageDigest), aws.ToString(id.ImageTag)
	fail := func(code types.ImageFailureCode, reason string) (string, *types.ImageFailure) {
		f := imageFailure(id, code, reason)
		return "", &f
	}
	switch {
	case id.ImageDigest == nil && id.ImageTag == nil:
		return fail(types.ImageFailureCodeMissingDigestAndTag, "Invalid request parameters: both tag and digest cannot be null")
	case id.ImageDigest != nil && !digestPattern.MatchString(digest):
		return fail(types.ImageFailureCodeInvalidImageDigest, "Invalid request parameters: image digest should satisfy the regex '[a-zA-Z0-9-_+.]+:[a-fA-F0-9]+'")
	case id.ImageTag != nil:
		current, ok := r.tagged[tag]
		if !ok {
			return fail(types.ImageFailureCodeImageNotFound, "Requested image not found")
		}
		if id.ImageDigest != nil && current != digest {
			return fail(types.ImageFailureCodeImageTagDoesNotMatchDigest, "Invalid request parameters: image tag does not match digest")
		}
		return current, nil
	}
	if _, ok := r.images[digest]; !ok {
		return fail(types.ImageFailureCodeImageNotFound, "Requested image not found")
	}
	return digest, nil
}

// deleteImage deletes what one identifier names: by tag, that tag (and its image once it has no
// other tag); by digest alone, the image and all its tags. It returns the identifiers deleted,
// or the failure.
func (r *repository) deleteImage(id types.ImageIdentifier) ([]types.ImageIdentifier, *types.ImageFailure) {
	digest, failure := r.find(id)
	if failure != nil {
		return nil, failure
	}
	if id.ImageTag != nil {
		delete(r.tagged, *id.ImageTag)
		if len(r.tagsOf(digest)) == 0 {
			delete(r.images, digest)
		}
		return []types.ImageIdentifier{{ImageDigest: aws.String(digest), ImageTag: id.ImageTag}}, nil
	}
	var deleted []types.ImageIdentifier
	for _, t := range r.tagsOf(digest) {
		delete(r.tagged, t)
		deleted = append(deleted, types.ImageIdentifier{ImageDigest: aws.String(digest), ImageTag: aws.String(t)})
	}
	if len(deleted) == 0 {
		deleted = []types.ImageIdentifier{{ImageDigest: aws.String(digest)}}
	}
	delete(r.images, digest)
	return deleted, nil
}
