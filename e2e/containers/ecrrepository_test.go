package containers_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	secv1alpha1 "github.com/runner-codes/infra-operator/operators/security/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/api/condition"
	shared "github.com/runner-codes/infra-operator/shared/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/policy"
	"github.com/runner-codes/infra-operator/shared/testenv/kubetest"
)

// seedLifecycle is the lifecycle policy of the app-images seed example, as one line.
const seedLifecycle = `{"rules":[{"rulePriority":1,"description":"Keep last 10 images","selection":{"tagStatus":"any","countType":"imageCountMoreThan","countNumber":10},"action":{"type":"expire"}}]}`

// keepFive is another lifecycle policy: only the five newest images are kept.
const keepFive = `{"rules":[{"rulePriority":1,"description":"Keep last 5 images","selection":{"tagStatus":"any","countType":"imageCountMoreThan","countNumber":5},"action":{"type":"expire"}}]}`

// pullPolicy lets the account pull from the repository.
const pullPolicy = `{"Version":"2012-10-17","Statement":[{"Sid":"Pull","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::000000000000:root"},"Action":["ecr:BatchGetImage","ecr:GetDownloadUrlForLayer"]}]}`

// TestECRRepositorySeeds applies both seed examples verbatim and checks them in ECR, then
// changes the lifecycle-policy example's fields, reverts changes made behind the operator's
// back, deletes it while it holds an image (kept, RepositoryNotEmpty, until forceDelete), and
// deletes the Retain example (kept in ECR).
func TestECRRepositorySeeds(t *testing.T) {
	h := start(t)
	h.provider(t, "default", "production-aws")
	ctx := context.Background()
	h.apply(t, "ecrrepository-application-images.yaml", "default")
	h.apply(t, "ecrrepository-app-images.yaml", "default")

	retained := kubetest.WaitReady(t, h.c, &v1alpha1.ECRRepository{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "application-images"}})
	s := retained.Status
	if s.RepositoryName != "production/application" || s.RepositoryURI != "000000000000.dkr.ecr.us-east-1.amazonaws.com/production/application" ||
		s.ARN != "arn:aws:ecr:us-east-1:000000000000:repository/production/application" || s.RegistryID != "000000000000" ||
		s.ImageTagMutability != "IMMUTABLE" || !s.ScanOnPush || s.EncryptionType != "AES256" || s.ImageCount != 0 {
		t.Errorf("application-images status = %+v", s)
	}
	repo := h.repository(t, "production/application")
	if repo.ImageTagMutability != types.ImageTagMutabilityImmutable || !repo.ImageScanningConfiguration.ScanOnPush ||
		repo.EncryptionConfiguration.EncryptionType != types.EncryptionTypeAes256 {
		t.Errorf("production/application in ECR = %+v", repo)
	}
	if tags := h.repositoryTags(t, s.ARN); tags["Application"] != "main-app" || tags["Environment"] != "production" || tags[shared.TagOwnerUID] != string(retained.UID) {
		t.Errorf("production/application tags = %v", tags)
	}

	app := kubetest.WaitReady(t, h.c, &v1alpha1.ECRRepository{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "app-images"}})
	if got := h.lifecyclePolicy(t, "production/app"); !policy.Equivalent(got, seedLifecycle) {
		t.Errorf("production/app lifecycle policy = %s", got)
	}

	// Updates: scan on push off, immutable tags, a new lifecycle policy and a repository policy.
	h.patchSpec(t, app, `{"imageScanningConfiguration":{"scanOnPush":false},"imageTagMutability":"IMMUTABLE","lifecyclePolicy":`+quote(keepFive)+`,"repositoryPolicy":`+quote(pullPolicy)+`}`)
	app = kubetest.WaitReady(t, h.c, app)
	repo = h.repository(t, "production/app")
	if repo.ImageScanningConfiguration.ScanOnPush || repo.ImageTagMutability != types.ImageTagMutabilityImmutable {
		t.Errorf("after the update production/app = %+v", repo)
	}
	if got := h.lifecyclePolicy(t, "production/app"); !policy.Equivalent(got, keepFive) {
		t.Errorf("after the update the lifecycle policy = %s", got)
	}
	if got := h.repositoryPolicy(t, "production/app"); !policy.Equivalent(got, pullPolicy) {
		t.Errorf("after the update the repository policy = %s", got)
	}

	// Removing the policies removes them from ECR.
	h.patchSpec(t, app, `{"lifecyclePolicy":null,"repositoryPolicy":null,"imageTagMutability":"MUTABLE"}`)
	app = kubetest.WaitReady(t, h.c, app)
	if got := h.lifecyclePolicy(t, "production/app"); got != "" {
		t.Errorf("the removed lifecycle policy is still there: %s", got)
	}
	if got := h.repositoryPolicy(t, "production/app"); got != "" {
		t.Errorf("the removed repository policy is still there: %s", got)
	}
	h.patchSpec(t, app, `{"lifecyclePolicy":`+quote(seedLifecycle)+`}`)
	app = kubetest.WaitReady(t, h.c, app)

	// Drift made through the SDK is reverted.
	name := aws.String("production/app")
	if _, err := h.ecr.PutImageTagMutability(ctx, &ecr.PutImageTagMutabilityInput{RepositoryName: name, ImageTagMutability: types.ImageTagMutabilityImmutable}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ecr.PutLifecyclePolicy(ctx, &ecr.PutLifecyclePolicyInput{RepositoryName: name, LifecyclePolicyText: aws.String(keepFive)}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ecr.TagResource(ctx, &ecr.TagResourceInput{ResourceArn: aws.String(app.Status.ARN), Tags: []types.Tag{{Key: aws.String("Stray"), Value: aws.String("x")}}}); err != nil {
		t.Fatal(err)
	}
	kubetest.ResyncUntil(t, h.c, app, "the drift reverted", func() bool {
		r := h.repository(t, "production/app")
		_, stray := h.repositoryTags(t, app.Status.ARN)["Stray"]
		return r.ImageTagMutability == types.ImageTagMutabilityMutable && policy.Equivalent(h.lifecyclePolicy(t, "production/app"), seedLifecycle) && !stray
	})

	// Deletion with an image and no forceDelete keeps the repository and the finalizer.
	h.pushImage(t, "production/app", "v1")
	kubetest.ResyncUntil(t, h.c, app, "imageCount 1", func() bool {
		_ = h.c.Get(ctx, keyOf(app), app)
		return app.Status.ImageCount == 1
	})
	if err := h.c.Delete(ctx, app); err != nil {
		t.Fatal(err)
	}
	app = kubetest.WaitCondition(t, h.c, app, "Synced", "False", condition.ReasonRepositoryNotEmpty)
	if c := findCondition(app, "Synced"); !strings.Contains(c.Message, "spec.forceDelete: true") {
		t.Errorf("the condition does not say what to do: %q", c.Message)
	}
	if len(app.Finalizers) == 0 {
		t.Errorf("the finalizer of the repository holding an image is gone")
	}
	h.repository(t, "production/app")
	h.patchSpec(t, app, `{"forceDelete":true}`)
	kubetest.WaitGone(t, h.c, app)
	if h.repositoryExists(t, "production/app") {
		t.Errorf("forceDelete did not delete production/app")
	}

	// Retain keeps the repository.
	kubetest.Delete(t, h.c, retained)
	if !h.repositoryExists(t, "production/application") {
		t.Errorf("the Retain repository was deleted")
	}
}

// TestECRRepositoryKMSKeyRef encrypts a repository with a KMSKey of the security family named
// by kmsKeyRef: the repository waits for the key, then is created with its ARN.
func TestECRRepositoryKMSKeyRef(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	r := newRepository(ns, "sealed", "team/sealed")
	r.Spec.EncryptionConfiguration = &v1alpha1.ECREncryptionConfiguration{EncryptionType: "KMS", KMSKeyRef: &shared.Reference{Name: "images-key"}}
	kubetest.Create(t, h.c, r)
	kubetest.WaitCondition(t, h.c, r, "Ready", "False", condition.ReasonReferenceNotFound)
	key := &secv1alpha1.KMSKey{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "images-key"}}
	key.Spec.ProviderRef.Name = "aws"
	kubetest.Create(t, h.c, key)
	arn := kubetest.WaitReady(t, h.c, key).Status.ARN
	r = kubetest.WaitReady(t, h.c, r)
	enc := h.repository(t, "team/sealed").EncryptionConfiguration
	if enc.EncryptionType != types.EncryptionTypeKms || aws.ToString(enc.KmsKey) != arn || r.Status.KMSKey != arn || r.Status.EncryptionType != "KMS" {
		t.Errorf("team/sealed encryption = %+v, status %+v; want KMS with %s", enc, r.Status, arn)
	}
	kubetest.Delete(t, h.c, r)
	if h.repositoryExists(t, "team/sealed") {
		t.Errorf("the deleted repository team/sealed is still in ECR")
	}
}

// TestECRRepositoryInvalid checks that bad specs are refused at admission, that immutable
// fields cannot change, that a lifecycle policy that is not JSON is terminal with no ECR call,
// and that a repository of the same name owned by no object is not taken over.
func TestECRRepositoryInvalid(t *testing.T) {
	h := start(t)
	ns := h.env.Namespace(t)
	h.provider(t, ns, "aws")
	ctx := context.Background()

	kubetest.MustRefuse(t, h.c, newRepository(ns, "upper", "Team/App"), "spec.repositoryName")
	aes := newRepository(ns, "aes-key", "team/aes")
	aes.Spec.EncryptionConfiguration = &v1alpha1.ECREncryptionConfiguration{EncryptionType: "AES256", KMSKey: "alias/images"}
	kubetest.MustRefuse(t, h.c, aes, "kmsKey and kmsKeyRef need encryptionType KMS")

	h.emu.Calls.Reset()
	bad := newRepository(ns, "bad-lifecycle", "team/bad")
	bad.Spec.LifecyclePolicy = "rules: keep the last ten images, expire every other image after thirty days, whatever their tags are."
	kubetest.Create(t, h.c, bad)
	kubetest.WaitCondition(t, h.c, bad, "Stalled", "True", condition.ReasonInvalidSpec)
	if n := h.awsCalls("ECR"); n != 0 {
		t.Errorf("a lifecycle policy that is not JSON made %d ECR calls, want none", n)
	}

	good := newRepository(ns, "good", "team/good")
	kubetest.Create(t, h.c, good)
	good = kubetest.WaitReady(t, h.c, good)
	if err := h.c.Patch(ctx, good, rawSpec(`{"repositoryName":"team/other"}`)); err == nil || !strings.Contains(err.Error(), "repositoryName cannot change") {
		t.Errorf("a change of repositoryName: %v", err)
	}
	if err := h.c.Patch(ctx, good, rawSpec(`{"encryptionConfiguration":{"encryptionType":"KMS"}}`)); err == nil || !strings.Contains(err.Error(), "encryptionConfiguration cannot change") {
		t.Errorf("a change of encryptionConfiguration: %v", err)
	}

	// deletionPolicy Orphan keeps the repository without the ownership tags.
	h.patchSpec(t, good, `{"deletionPolicy":"Orphan"}`)
	good = kubetest.WaitReady(t, h.c, good)
	kubetest.Delete(t, h.c, good)
	if tags := h.repositoryTags(t, good.Status.ARN); tags[shared.TagOwnerUID] != "" {
		t.Errorf("the orphaned repository still carries ownership tags: %v", tags)
	}

	// A repository of the spec's name that no object owns is refused, not taken over.
	if _, err := h.ecr.CreateRepository(ctx, &ecr.CreateRepositoryInput{RepositoryName: aws.String("team/foreign")}); err != nil {
		t.Fatal(err)
	}
	foreign := newRepository(ns, "foreign", "team/foreign")
	foreign.Spec.DeletionPolicy = shared.DeletionPolicyDelete
	kubetest.Create(t, h.c, foreign)
	kubetest.WaitCondition(t, h.c, foreign, "Stalled", "True", condition.ReasonAlreadyExists)
	kubetest.Delete(t, h.c, foreign)
	if !h.repositoryExists(t, "team/foreign") {
		t.Errorf("the repository no object owned was deleted")
	}
}

// newRepository returns an ECRRepository of the provider aws in ns with deletionPolicy Delete.
func newRepository(ns, name, repository string) *v1alpha1.ECRRepository {
	r := &v1alpha1.ECRRepository{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	r.Spec.ProviderRef.Name = "aws"
	r.Spec.RepositoryName = repository
	r.Spec.DeletionPolicy = shared.DeletionPolicyDelete
	return r
}

// repository describes the repository name, failing the test when it does not exist.
func (h *harness) repository(t testing.TB, name string) types.Repository {
	t.Helper()
	out, err := h.ecr.DescribeRepositories(context.Background(), &ecr.DescribeRepositoriesInput{RepositoryNames: []string{name}})
	if err != nil || len(out.Repositories) != 1 {
		t.Fatalf("describe repository %s: %v", name, err)
	}
	return out.Repositories[0]
}

// pushImage pushes an image without layers to repository repo with tag, as a push through the
// ECR API does: its config uploaded first, then its manifest.
func (h *harness) pushImage(t testing.TB, repo, tag string) {
	t.Helper()
	ctx := context.Background()
	config := []byte(`{"architecture":"amd64","os":"linux"}`)
	sum := sha256.Sum256(config)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	up, err := h.ecr.InitiateLayerUpload(ctx, &ecr.InitiateLayerUploadInput{RepositoryName: aws.String(repo)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.ecr.UploadLayerPart(ctx, &ecr.UploadLayerPartInput{RepositoryName: aws.String(repo), UploadId: up.UploadId,
		PartFirstByte: aws.Int64(0), PartLastByte: aws.Int64(int64(len(config) - 1)), LayerPartBlob: config}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.ecr.CompleteLayerUpload(ctx, &ecr.CompleteLayerUploadInput{RepositoryName: aws.String(repo), UploadId: up.UploadId, LayerDigests: []string{digest}}); err != nil {
		t.Fatal(err)
	}
	manifest := fmt.Sprintf(`{"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json","config":{"mediaType":"application/vnd.docker.container.image.v1+json","size":%d,"digest":"%s"},"layers":[]}`, len(config), digest)
	if _, err := h.ecr.PutImage(ctx, &ecr.PutImageInput{RepositoryName: aws.String(repo), ImageManifest: aws.String(manifest), ImageTag: aws.String(tag)}); err != nil {
		t.Fatal(err)
	}
}

// repositoryExists reports whether ECR has the repository name.
func (h *harness) repositoryExists(t testing.TB, name string) bool {
	t.Helper()
	_, err := h.ecr.DescribeRepositories(context.Background(), &ecr.DescribeRepositoriesInput{RepositoryNames: []string{name}})
	var missing *types.RepositoryNotFoundException
	if errors.As(err, &missing) {
		return false
	}
	if err != nil {
		t.Fatalf("describe repository %s: %v", name, err)
	}
	return true
}

// repositoryTags returns the tags of the repository with the given ARN.
func (h *harness) repositoryTags(t testing.TB, arn string) map[string]string {
	t.Helper()
	out, err := h.ecr.ListTagsForResource(context.Background(), &ecr.ListTagsForResourceInput{ResourceArn: aws.String(arn)})
	if err != nil {
		t.Fatalf("list tags of %s: %v", arn, err)
	}
	tags := map[string]string{}
	for _, tag := range out.Tags {
		tags[aws.ToString(tag.Key)] = aws.ToString(tag.Value)
	}
	return tags
}

// lifecyclePolicy returns the lifecycle policy of repository name, "" when it has none.
func (h *harness) lifecyclePolicy(t testing.TB, name string) string {
	t.Helper()
	out, err := h.ecr.GetLifecyclePolicy(context.Background(), &ecr.GetLifecyclePolicyInput{RepositoryName: aws.String(name)})
	var missing *types.LifecyclePolicyNotFoundException
	if errors.As(err, &missing) {
		return ""
	}
	if err != nil {
		t.Fatalf("get lifecycle policy of %s: %v", name, err)
	}
	return aws.ToString(out.LifecyclePolicyText)
}

// repositoryPolicy returns the access policy of repository name, "" when it has none.
func (h *harness) repositoryPolicy(t testing.TB, name string) string {
	t.Helper()
	out, err := h.ecr.GetRepositoryPolicy(context.Background(), &ecr.GetRepositoryPolicyInput{RepositoryName: aws.String(name)})
	var missing *types.RepositoryPolicyNotFoundException
	if errors.As(err, &missing) {
		return ""
	}
	if err != nil {
		t.Fatalf("get policy of %s: %v", name, err)
	}
	return aws.ToString(out.PolicyText)
}

// quote returns s as a JSON string.
func quote(s string) string { return fmt.Sprintf("%q", s) }
