package ecr

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// batchGetImage answers the manifests of the images the identifiers name, each as it was put;
// an identifier that names no image is a failure, not an error. Manifests are not converted, so
// acceptedMediaTypes is not applied.
func (b *Backend) batchGetImage(call *core.Call, in *ecr.BatchGetImageInput) (*ecr.BatchGetImageOutput, error) {
	return batch(b, call, in.RegistryId, in.RepositoryName, "imageIds", len(in.ImageIds), func(r *repository) (*ecr.BatchGetImageOutput, error) {
		out := &ecr.BatchGetImageOutput{Images: []types.Image{}, Failures: []types.ImageFailure{}}
		for _, id := range in.ImageIds {
			if digest, failure := r.find(id); failure == nil {
				out.Images = append(out.Images, r.image(digest, id.ImageTag))
			} else {
				out.Failures = append(out.Failures, *failure)
			}
		}
		return out, nil
	})
}

// image returns the image with digest as PutImage and BatchGetImage answer it: its manifest,
// under tag when one is given.
func (r *repository) image(digest string, tag *string) types.Image {
	img := r.images[digest]
	return types.Image{RegistryId: aws.String(r.registryID), RepositoryName: aws.String(r.name),
		ImageId:       &types.ImageIdentifier{ImageDigest: aws.String(digest), ImageTag: tag},
		ImageManifest: aws.String(img.manifest), ImageManifestMediaType: aws.String(img.mediaType)}
}
