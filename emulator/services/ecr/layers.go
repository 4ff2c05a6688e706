package ecr

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// ECR's layer quotas (Amazon ECR service quotas): parts of 5 to 10 MiB (the last may be
// smaller), at most 4,200 parts and 52,000 MiB a layer.
const (
	partSize     = 10 << 20
	minPartSize  = 5 << 20
	maxParts     = 4200
	maxLayerSize = 52000 << 20
)

// The emulator's own bounds on what a repository keeps: layers are never kept, only their
// digests and sizes, at most maxLayers of them; an upload keeps a running SHA-256 of its bytes,
// and a repository keeps at most maxUploads uploads open, forgetting the oldest beyond them (its
// id then answers UploadNotFoundException, as an expired upload does on AWS).
const (
	maxLayers  = 10000
	maxUploads = 100
)

// upload is a layer upload in progress: the bytes received so far, as their count and running
// SHA-256, the number of parts, and whether a part other than the last was below minPartSize.
type upload struct {
	seq            int // the repository's uploads opened before this one
	received       int64
	sum            hash.Hash
	parts          int
	lastPart       int
	smallPartAhead bool
}

// initiateLayerUpload opens a layer upload in a repository.
func (b *Backend) initiateLayerUpload(call *core.Call, in *ecr.InitiateLayerUploadInput) (*ecr.InitiateLayerUploadOutput, error) {
	return withRepository(b, call, in.RegistryId, in.RepositoryName, func(r *repository) (*ecr.InitiateLayerUploadOutput, error) {
		if len(r.uploads) >= maxUploads {
			oldest := slices.MinFunc(core.SortedKeys(r.uploads), func(a, b string) int { return r.uploads[a].seq - r.uploads[b].seq })
			delete(r.uploads, oldest)
		}
		id := core.NewUUID()
		r.uploads[id] = &upload{seq: r.uploadSeq, sum: sha256.New()}
		r.uploadSeq++
		return &ecr.InitiateLayerUploadOutput{UploadId: aws.String(id), PartSize: aws.Int64(partSize)}, nil
	})
}

// upload returns the repository's upload with id, or UploadNotFoundException.
func (r *repository) upload(id *string) (*upload, error) {
	u, ok := r.uploads[aws.ToString(id)]
	if !ok {
		return nil, core.Errorf("UploadNotFoundException", "Upload with id '%s' is not found in the repository with name '%s' in registry with id '%s'", aws.ToString(id), r.name, r.registryID)
	}
	return u, nil
}

// uploadLayerPart adds a part to an upload: its first byte must follow the last byte received
// and its last byte end the blob it carries (InvalidLayerPartException otherwise, as for a part
// above partSize), within ECR's limits on parts and layer size (LimitExceededException).
func (b *Backend) uploadLayerPart(call *core.Call, in *ecr.UploadLayerPartInput) (*ecr.UploadLayerPartOutput, error) {
	return withRepository(b, call, in.RegistryId, in.RepositoryName, func(r *repository) (*ecr.UploadLayerPartOutput, error) {
		u, err := r.upload(in.UploadId)
		if err != nil {
			return nil, err
		}
		first, last, n := aws.ToInt64(in.PartFirstByte), aws.ToInt64(in.PartLastByte), int64(len(in.LayerPartBlob))
		switch {
		case n == 0 || n > partSize || first != u.received || last != first+n-1:
			return nil, core.Errorf("InvalidLayerPartException", "The part [%d-%d] of %d bytes does not follow the last valid byte received, %d, or its size is not valid", first, last, n, u.received-1)
		case u.parts >= maxParts || u.received+n > maxLayerSize:
			return nil, core.Errorf("LimitExceededException", "The layer upload '%s' would exceed %d parts or %d bytes", aws.ToString(in.UploadId), maxParts, int64(maxLayerSize))
		}
		u.smallPartAhead = u.smallPartAhead || (u.parts > 0 && u.lastPart < minPartSize)
		u.sum.Write(in.LayerPartBlob)
		u.received += n
		u.parts++
		u.lastPart = int(n)
		return &ecr.UploadLayerPartOutput{RegistryId: aws.String(r.registryID), RepositoryName: aws.String(r.name), UploadId: in.UploadId,
			LastByteReceived: aws.Int64(u.received - 1)}, nil
	})
}

// completeLayerUpload ends an upload: the SHA-256 of the bytes received must be among the
// digests the request gives (InvalidLayerException otherwise), and becomes a layer of the
// repository unless it already is one (LayerAlreadyExistsException). An upload without parts
// is EmptyUploadException, one with a part below 5 MiB before its last
// LayerPartTooSmallException. The upload is over whatever the answer, but for an empty one.
func (b *Backend) completeLayerUpload(call *core.Call, in *ecr.CompleteLayerUploadInput) (*ecr.CompleteLayerUploadOutput, error) {
	return batch(b, call, in.RegistryId, in.RepositoryName, "layerDigests", len(in.LayerDigests), func(r *repository) (*ecr.CompleteLayerUploadOutput, error) {
		u, err := r.upload(in.UploadId)
		if err != nil {
			return nil, err
		}
		id := aws.ToString(in.UploadId)
		if u.parts == 0 {
			return nil, core.Errorf("EmptyUploadException", "The upload with id '%s' does not contain any layer parts", id)
		}
		delete(r.uploads, id)
		digest := "sha256:" + hex.EncodeToString(u.sum.Sum(nil))
		switch _, exists := r.layers[digest]; {
		case u.smallPartAhead:
			return nil, core.Errorf("LayerPartTooSmallException", "Layer parts must be at least %d bytes in size, but for the last one", minPartSize)
		case !slices.Contains(in.LayerDigests, digest):
			return nil, core.Errorf("InvalidLayerException", "The layer digest calculation performed by Amazon ECR, %s, does not match the digests specified", digest)
		case exists:
			return nil, core.Errorf("LayerAlreadyExistsException", "The layer with digest '%s' already exists in the repository with name '%s' in registry with id '%s'", digest, r.name, r.registryID)
		case len(r.layers) >= maxLayers:
			return nil, core.Errorf("LimitExceededException", "The repository with name '%s' already holds %d layers", r.name, maxLayers)
		}
		r.layers[digest] = u.received
		return &ecr.CompleteLayerUploadOutput{RegistryId: aws.String(r.registryID), RepositoryName: aws.String(r.name), UploadId: in.UploadId,
			LayerDigest: aws.String(digest)}, nil
	})
}

// batchCheckLayerAvailability tells, for each digest, whether the repository has the layer:
// AVAILABLE with its size, or a failure (InvalidLayerDigest for a digest not of AWS's form,
// MissingLayerDigest for a layer it does not have).
func (b *Backend) batchCheckLayerAvailability(call *core.Call, in *ecr.BatchCheckLayerAvailabilityInput) (*ecr.BatchCheckLayerAvailabilityOutput, error) {
	return batch(b, call, in.RegistryId, in.RepositoryName, "layerDigests", len(in.LayerDigests), func(r *repository) (*ecr.BatchCheckLayerAvailabilityOutput, error) {
		out := &ecr.BatchCheckLayerAvailabilityOutput{Layers: []types.Layer{}, Failures: []types.LayerFailure{}}
		for _, d := range in.LayerDigests {
			size, ok := r.layers[d]
			switch {
			case !digestPattern.MatchString(d):
				out.Failures = append(out.Failures, types.LayerFailure{LayerDigest: aws.String(d), FailureCode: types.LayerFailureCodeInvalidLayerDigest,
					FailureReason: aws.String("Invalid layer digest")})
			case !ok:
				out.Failures = append(out.Failures, types.LayerFailure{LayerDigest: aws.String(d), FailureCode: types.LayerFailureCodeMissingLayerDigest,
					FailureReason: aws.String("Could not find a layer with the given digest")})
			default:
				out.Layers = append(out.Layers, types.Layer{LayerDigest: aws.String(d), LayerAvailability: types.LayerAvailabilityAvailable, LayerSize: aws.Int64(size)})
			}
		}
		return out, nil
	})
}
