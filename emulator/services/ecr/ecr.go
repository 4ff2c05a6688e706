// Package ecr emulates Amazon Elastic Container Registry over its JSON protocol (awsJson1_1,
// target prefix AmazonEC2ContainerRegistry_V20150921): private repositories in the caller's
// registry (one per account and Region), with AWS's name rules, image tag mutability (MUTABLE,
// IMMUTABLE, and the _WITH_EXCLUSION forms with their wildcard filters), scan on push,
// encryption (AES256, or KMS and KMS_DSSE with a key checked against the emulated KMS),
// repository policies, lifecycle policies checked against AWS's lifecycle policy grammar, tags,
// and the registry's replication configuration (DescribeRegistry,
// PutReplicationConfiguration).
//
// Images are pushed through the API as the Docker client's ECR credential helpers and the ECR
// proxy do: layers (and image configs) are uploaded in contiguous parts (InitiateLayerUpload,
// UploadLayerPart, CompleteLayerUpload, which checks the SHA-256 of the bytes received against
// the digest given), BatchCheckLayerAvailability tells which a repository has, and PutImage
// stores a manifest under its sha256 digest and an optional tag once every blob it names is in
// the repository (LayersNotFoundException otherwise), with AWS's rules for tags that already
// exist (ImageAlreadyExistsException for the same image and tag,
// ImageTagAlreadyExistsException on an immutable tag). Layer bytes are not kept, only their
// digests and sizes (see layers.go for the bounds). BatchGetImage, ListImages and
// BatchDeleteImage read and delete images, and DeleteRepository refuses a repository that holds
// images unless forced (RepositoryNotEmptyException). The Docker registry HTTP API is not
// served, so GetDownloadUrlForLayer is not emulated; nothing is scanned, replicated or expired
// (lifecycle policies are stored, never evaluated), and pull-through caches, registry policies,
// creation templates and signing are not emulated.
package ecr

import (
	"fmt"
	"regexp"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/emulator/internal/core"
)

// maxBody is the largest request ECR accepts: an UploadLayerPart of partSize bytes, base64 in
// its JSON body, with room to spare.
const maxBody = 16 << 20

// Backend holds the registry of every account and region.
type Backend struct {
	keys  core.Keys
	state *core.Backend[*registry]
	tags  *core.Tags // by repository ARN
}

// registry is one account's private registry in one region: its repositories by name and its
// replication configuration.
type registry struct {
	repos       map[string]*repository
	replication []types.ReplicationRule
}

// New returns an empty ECR backend whose KMS encryption keys are checked against keys.
func New(keys core.Keys) *Backend {
	return &Backend{keys: keys, tags: core.NewTags(tagRules),
		state: core.NewBackend(func(core.Scope) *registry { return &registry{repos: map[string]*repository{}} })}
}

// Service describes ECR to the router.
func (b *Backend) Service() *core.Service {
	s := core.JSONService("ecr", "ECR", "AmazonEC2ContainerRegistry_V20150921")
	s.MaxBody = maxBody
	return s.Declare(0, b.dump, b.operations(), b.tagOperations())
}

// invalidParameter is ECR's InvalidParameterException for a parameter that breaks a constraint,
// in AWS's words.
func invalidParameter(param, constraint string) error {
	return core.Errorf("InvalidParameterException", "Invalid parameter at '%s' failed to satisfy constraint: '%s'", param, constraint)
}

// registryID is the pattern of a registry ID: an account ID.
var registryID = regexp.MustCompile(`^[0-9]{12}$`)

// checkRegistry returns the error for a RegistryId that is not an account ID. A well-formed
// registry of another account is looked up as if it had no repositories: the emulator keeps no
// cross-account permissions.
func checkRegistry(id *string) error {
	if id != nil && !registryID.MatchString(*id) {
		return invalidParameter("registryId", "must satisfy regular expression '[0-9]{12}'")
	}
	return nil
}

// repositoryNotFound is AWS's answer to a repository the registry does not have.
func repositoryNotFound(name, registryID string) error {
	return core.Errorf("RepositoryNotFoundException", "The repository with name '%s' does not exist in the registry with id '%s'", name, registryID)
}

// lookup returns the repository a request names in reg, the call's registry (or the one its
// RegistryId names). The caller holds the backend's mutex.
func lookup(reg *registry, call *core.Call, registryID, name *string) (*repository, error) {
	if err := checkRegistry(registryID); err != nil {
		return nil, err
	}
	if err := checkName(aws.ToString(name)); err != nil {
		return nil, err
	}
	owner := call.Account
	if registryID != nil {
		owner = *registryID
	}
	r, ok := reg.repos[aws.ToString(name)]
	if !ok || owner != call.Account {
		return nil, repositoryNotFound(aws.ToString(name), owner)
	}
	return r, nil
}

// withRepository runs f, holding the backend's lock, on the repository a request names, or
// answers lookup's error.
func withRepository[O any](b *Backend, call *core.Call, registryID, name *string, f func(r *repository) (*O, error)) (*O, error) {
	return core.Locked(b.state, call, func(reg *registry) (*O, error) {
		r, err := lookup(reg, call, registryID, name)
		if err != nil {
			return nil, err
		}
		return f(r)
	})
}

// batch runs f as withRepository does for a batch request whose list param has n items, which
// must be 1 to 100 (InvalidParameterException otherwise).
func batch[O any](b *Backend, call *core.Call, registryID, name *string, param string, n int, f func(r *repository) (*O, error)) (*O, error) {
	if n < 1 || n > 100 {
		return nil, invalidParameter(param, "must have length between 1 and 100")
	}
	return withRepository(b, call, registryID, name, f)
}

// dump returns every repository, for debugging.
func (b *Backend) dump() any {
	out := map[string]any{}
	for scope, reg := range b.state.All() {
		for name, r := range reg.repos {
			out[fmt.Sprintf("%s/%s/%s", scope.Account, scope.Region, name)] = map[string]any{
				"repository": r.describe(), "images": len(r.images), "tags": b.tags.Map(r.arn),
				"lifecyclePolicy": r.lifecyclePolicy, "policy": r.policy,
			}
		}
	}
	return out
}
