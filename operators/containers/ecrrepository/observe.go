package ecrrepository

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	"github.com/runner-codes/infra-operator/shared/awserr"
	"github.com/runner-codes/infra-operator/shared/managed"
)

// State is what ECR said about a repository.
type State struct {
	// Repository is DescribeRepositories' answer.
	Repository types.Repository
	// LifecyclePolicy is the repository's lifecycle policy, "" when it has none.
	LifecyclePolicy string
	// RepositoryPolicy is the repository's access policy, "" when it has none.
	RepositoryPolicy string
	// Images is how many images the repository holds.
	Images int
}

// Observe reads the repository of the spec's name (DescribeRepositories,
// ListTagsForResource, GetLifecyclePolicy, GetRepositoryPolicy and ListImages: five calls for
// a repository of up to 1000 images), claims it when its ownership tags name this object, fills
// the status and plans the changes that bring it in line with the spec.
func (d *driver) Observe(ctx context.Context, r *v1alpha1.ECRRepository, req managed.Request) (managed.Observation[State], error) {
	name := r.Spec.RepositoryName
	out, err := d.api.DescribeRepositories(ctx, &ecr.DescribeRepositoriesInput{RepositoryNames: []string{name}})
	if awserr.IsNotFound(err) {
		return managed.Observation[State]{}, nil
	}
	if err != nil {
		return managed.Observation[State]{}, managed.Wrap(err, "describe repository %s", name)
	}
	if len(out.Repositories) == 0 {
		return managed.Observation[State]{}, nil
	}
	st := &State{Repository: out.Repositories[0]}
	tags, err := d.tags(ctx, aws.ToString(st.Repository.RepositoryArn))
	if err != nil {
		return managed.Observation[State]{}, err
	}
	if err := managed.Claim(r, "ECR repository", name, tags); err != nil {
		return managed.Observation[State]{}, err
	}
	if err := d.read(ctx, st); err != nil {
		return managed.Observation[State]{}, err
	}
	fillStatus(r, st)
	obs := managed.Observation[State]{Exists: true, Ready: true, State: st, Tags: tags}
	if req.Deleting {
		return obs, nil
	}
	obs.Conflict = encryptionConflict(r, st.Repository.EncryptionConfiguration)
	d.plan(&obs.Changes, r, st, tags, req.Tags)
	return obs, nil
}

// tags returns the tags of the repository with the given ARN.
func (d *driver) tags(ctx context.Context, arn string) (map[string]string, error) {
	out, err := d.api.ListTagsForResource(ctx, &ecr.ListTagsForResourceInput{ResourceArn: aws.String(arn)})
	if err != nil {
		return nil, managed.Wrap(err, "list tags of repository %s", arn)
	}
	return managed.TagMap(out.Tags, func(t types.Tag) (string, string) { return aws.ToString(t.Key), aws.ToString(t.Value) }), nil
}

// read reads the repository's policies and counts its images.
func (d *driver) read(ctx context.Context, st *State) error {
	name := st.Repository.RepositoryName
	lc, err := d.api.GetLifecyclePolicy(ctx, &ecr.GetLifecyclePolicyInput{RepositoryName: name})
	switch {
	case err == nil:
		st.LifecyclePolicy = aws.ToString(lc.LifecyclePolicyText)
	case awserr.Code(err) != "LifecyclePolicyNotFoundException":
		return managed.Wrap(err, "get lifecycle policy of repository %s", aws.ToString(name))
	}
	rp, err := d.api.GetRepositoryPolicy(ctx, &ecr.GetRepositoryPolicyInput{RepositoryName: name})
	switch {
	case err == nil:
		st.RepositoryPolicy = aws.ToString(rp.PolicyText)
	case awserr.Code(err) != "RepositoryPolicyNotFoundException":
		return managed.Wrap(err, "get policy of repository %s", aws.ToString(name))
	}
	images := ecr.NewListImagesPaginator(d.api, &ecr.ListImagesInput{RepositoryName: name, MaxResults: aws.Int32(1000)})
	digests := map[string]bool{}
	for images.HasMorePages() {
		page, err := images.NextPage(ctx)
		if err != nil {
			return managed.Wrap(err, "list images of repository %s", aws.ToString(name))
		}
		for _, id := range page.ImageIds {
			digests[aws.ToString(id.ImageDigest)] = true
		}
	}
	st.Images = len(digests)
	return nil
}

// fillStatus copies what ECR said about the repository into the status.
func fillStatus(r *v1alpha1.ECRRepository, st *State) {
	repo, s := st.Repository, &r.Status
	s.RepositoryName, s.RepositoryURI = aws.ToString(repo.RepositoryName), aws.ToString(repo.RepositoryUri)
	s.ARN, s.RegistryID = aws.ToString(repo.RepositoryArn), aws.ToString(repo.RegistryId)
	s.ImageCount = int32(st.Images)
	s.ImageTagMutability = string(repo.ImageTagMutability)
	s.ScanOnPush = repo.ImageScanningConfiguration != nil && repo.ImageScanningConfiguration.ScanOnPush
	s.EncryptionType, s.KMSKey = "", ""
	if e := repo.EncryptionConfiguration; e != nil {
		s.EncryptionType, s.KMSKey = string(e.EncryptionType), aws.ToString(e.KmsKey)
	}
}

// encryptionConflict returns a terminal error when the repository is not encrypted the way
// the spec says (a repository adopted by name, since the spec's encryption cannot change): ECR
// cannot change a repository's encryption.
func encryptionConflict(r *v1alpha1.ECRRepository, got *types.EncryptionConfiguration) error {
	want := wantedEncryption(r)
	gotType, gotKey := types.EncryptionTypeAes256, ""
	if got != nil {
		gotType, gotKey = got.EncryptionType, aws.ToString(got.KmsKey)
	}
	wantKey := aws.ToString(want.KmsKey)
	if want.EncryptionType == gotType && (wantKey == "" || isAlias(wantKey) || managed.SameKMSKey(wantKey, gotKey)) {
		return nil
	}
	return managed.Terminal(condition.ReasonInvalidSpec, "repository %s is encrypted with %s%s, not %s%s as the spec says, and ECR cannot change "+
		"a repository's encryption: give the repository's encryption in the spec, or another repositoryName", r.Spec.RepositoryName,
		gotType, keySuffix(gotKey), want.EncryptionType, keySuffix(wantKey))
}

// isAlias reports whether key names a KMS key by alias (alias/name or an alias ARN), which ECR
// reports as the key's ARN: such a key is not compared, as that would take a KMS call.
func isAlias(key string) bool {
	return strings.HasPrefix(key, "alias/") || strings.Contains(key, ":alias/")
}

// keySuffix names a KMS key in a message, or nothing.
func keySuffix(key string) string {
	if key == "" {
		return ""
	}
	return fmt.Sprintf(" (key %s)", key)
}
