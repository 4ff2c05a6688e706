package emulator_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/google/go-cmp/cmp"

	"github.com/runner-codes/infra-operator/emulator"
)

// ecrClient starts an emulator and returns ECR and KMS clients of us-east-1.
func ecrClient(t *testing.T) (*ecr.Client, *kms.Client) {
	t.Helper()
	_, url := start(t, emulator.Options{})
	cfg := sdkConfig(t, url, "AKIDECR", 1)
	return ecr.NewFromConfig(cfg), kms.NewFromConfig(cfg)
}

// newRepository creates a repository, failing the test on an error.
func newRepository(t *testing.T, c *ecr.Client, in *ecr.CreateRepositoryInput) *types.Repository {
	t.Helper()
	out, err := c.CreateRepository(context.Background(), in)
	if err != nil {
		t.Fatalf("create repository %s: %v", aws.ToString(in.RepositoryName), err)
	}
	return out.Repository
}

// manifest uploads to repository repo a distinct image config for n, and returns an image
// manifest (schema 2) that names it, and the manifest's digest.
func manifest(t *testing.T, c *ecr.Client, repo string, n int) (string, string) {
	t.Helper()
	config := fmt.Sprintf(`{"architecture":"amd64","os":"linux","n":%d}`, n)
	digest := uploadBlob(t, c, repo, []byte(config))
	m := fmt.Sprintf(`{"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json","config":{"mediaType":"application/vnd.docker.container.image.v1+json","size":%d,"digest":"%s"},"layers":[]}`,
		len(config), digest)
	sum := sha256.Sum256([]byte(m))
	return m, "sha256:" + hex.EncodeToString(sum[:])
}

// lifecycleText is a valid lifecycle policy: untagged images expire after 14 days, and only 30
// images tagged release* are kept.
const lifecycleText = `{"rules":[{"rulePriority":1,"description":"drop untagged","selection":{"tagStatus":"untagged","countType":"sinceImagePushed","countUnit":"days","countNumber":14},"action":{"type":"expire"}},` +
	`{"rulePriority":2,"selection":{"tagStatus":"tagged","tagPrefixList":["release"],"countType":"imageCountMoreThan","countNumber":30},"action":{"type":"expire"}}]}`

// TestECRCreateAndDescribeRepository checks a repository made with every setting: its ARN, URI,
// registry, tag mutability, scan on push and KMS key ARN, the defaults of a plain one, and
// DescribeRepositories by name with a missing one.
func TestECRCreateAndDescribeRepository(t *testing.T) {
	c, k := ecrClient(t)
	ctx := context.Background()
	key, err := k.CreateKey(ctx, &kms.CreateKeyInput{})
	if err != nil {
		t.Fatal(err)
	}
	repo := newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String("team/web-app"),
		ImageTagMutability: types.ImageTagMutabilityImmutable, ImageScanningConfiguration: &types.ImageScanningConfiguration{ScanOnPush: true},
		EncryptionConfiguration: &types.EncryptionConfiguration{EncryptionType: types.EncryptionTypeKms, KmsKey: key.KeyMetadata.KeyId},
		Tags:                    []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}}})
	want := types.Repository{RepositoryName: aws.String("team/web-app"), RegistryId: aws.String(emulator.DefaultAccount),
		RepositoryArn:      aws.String("arn:aws:ecr:us-east-1:000000000000:repository/team/web-app"),
		RepositoryUri:      aws.String("000000000000.dkr.ecr.us-east-1.amazonaws.com/team/web-app"),
		ImageTagMutability: types.ImageTagMutabilityImmutable, ImageScanningConfiguration: &types.ImageScanningConfiguration{ScanOnPush: true},
		EncryptionConfiguration: &types.EncryptionConfiguration{EncryptionType: types.EncryptionTypeKms, KmsKey: key.KeyMetadata.Arn}}
	ignore := cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".CreatedAt" }, cmp.Ignore())
	if diff := cmp.Diff(want, *repo, ignore, cmp.AllowUnexported(types.Repository{}, types.ImageScanningConfiguration{}, types.EncryptionConfiguration{})); diff != "" {
		t.Errorf("created repository (-want +got):\n%s", diff)
	}
	if repo.CreatedAt == nil {
		t.Error("created repository has no createdAt")
	}
	plain := newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String("plain")})
	if plain.ImageTagMutability != types.ImageTagMutabilityMutable || plain.EncryptionConfiguration.EncryptionType != types.EncryptionTypeAes256 ||
		plain.ImageScanningConfiguration.ScanOnPush {
		t.Errorf("defaults: mutability %s, encryption %s, scan on push %v", plain.ImageTagMutability, plain.EncryptionConfiguration.EncryptionType, plain.ImageScanningConfiguration.ScanOnPush)
	}
	out, err := c.DescribeRepositories(ctx, &ecr.DescribeRepositoriesInput{RepositoryNames: []string{"team/web-app"}})
	if err != nil || len(out.Repositories) != 1 || aws.ToString(out.Repositories[0].RepositoryUri) != aws.ToString(want.RepositoryUri) {
		t.Fatalf("describe by name: %+v, %v", out, err)
	}
	_, err = c.DescribeRepositories(ctx, &ecr.DescribeRepositoriesInput{RepositoryNames: []string{"team/web-app", "nope"}})
	wantCode(t, "describe a missing repository", err, "RepositoryNotFoundException")
}

// TestECRCreateRepositoryValidation checks CreateRepository's refusals, each with AWS's error
// code, and that none of them creates a repository.
func TestECRCreateRepositoryValidation(t *testing.T) {
	c, k := ecrClient(t)
	ctx := context.Background()
	newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String("taken")})
	key, err := k.CreateKey(ctx, &kms.CreateKeyInput{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.DisableKey(ctx, &kms.DisableKeyInput{KeyId: key.KeyMetadata.KeyId}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   ecr.CreateRepositoryInput
		code string
	}{
		{"exists", ecr.CreateRepositoryInput{RepositoryName: aws.String("taken")}, "RepositoryAlreadyExistsException"},
		{"upper case", ecr.CreateRepositoryInput{RepositoryName: aws.String("Web")}, "InvalidParameterException"},
		{"too short", ecr.CreateRepositoryInput{RepositoryName: aws.String("a")}, "InvalidParameterException"},
		{"double slash", ecr.CreateRepositoryInput{RepositoryName: aws.String("team//web")}, "InvalidParameterException"},
		{"bad mutability", ecr.CreateRepositoryInput{RepositoryName: aws.String("web"), ImageTagMutability: "SOMETIMES"}, "InvalidParameterException"},
		{"exclusions without _WITH_EXCLUSION", ecr.CreateRepositoryInput{RepositoryName: aws.String("web"), ImageTagMutability: types.ImageTagMutabilityImmutable,
			ImageTagMutabilityExclusionFilters: []types.ImageTagMutabilityExclusionFilter{{Filter: aws.String("dev*"), FilterType: types.ImageTagMutabilityExclusionFilterTypeWildcard}}}, "InvalidParameterException"},
		{"_WITH_EXCLUSION without filters", ecr.CreateRepositoryInput{RepositoryName: aws.String("web"), ImageTagMutability: types.ImageTagMutabilityImmutableWithExclusion}, "InvalidParameterException"},
		{"key with AES256", ecr.CreateRepositoryInput{RepositoryName: aws.String("web"),
			EncryptionConfiguration: &types.EncryptionConfiguration{EncryptionType: types.EncryptionTypeAes256, KmsKey: key.KeyMetadata.KeyId}}, "InvalidParameterException"},
		{"missing key", ecr.CreateRepositoryInput{RepositoryName: aws.String("web"),
			EncryptionConfiguration: &types.EncryptionConfiguration{EncryptionType: types.EncryptionTypeKms, KmsKey: aws.String("alias/nope")}}, "KmsException"},
		{"disabled key", ecr.CreateRepositoryInput{RepositoryName: aws.String("web"),
			EncryptionConfiguration: &types.EncryptionConfiguration{EncryptionType: types.EncryptionTypeKms, KmsKey: key.KeyMetadata.KeyId}}, "KmsException"},
		{"reserved tag", ecr.CreateRepositoryInput{RepositoryName: aws.String("web"), Tags: []types.Tag{{Key: aws.String("aws:x"), Value: aws.String("y")}}}, "InvalidTagParameterException"},
		{"bad registry", ecr.CreateRepositoryInput{RepositoryName: aws.String("web"), RegistryId: aws.String("123")}, "InvalidParameterException"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.CreateRepository(ctx, &tc.in)
			wantCode(t, tc.name, err, tc.code)
		})
	}
	out, err := c.DescribeRepositories(ctx, &ecr.DescribeRepositoriesInput{})
	if err != nil || len(out.Repositories) != 1 {
		t.Fatalf("refused requests created repositories: %+v, %v", out, err)
	}
}

// TestECRDescribeRepositoriesPages pages through repositories with the SDK's paginator and checks
// the page size and token errors.
func TestECRDescribeRepositoriesPages(t *testing.T) {
	c, _ := ecrClient(t)
	ctx := context.Background()
	for i := range 5 {
		newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String(fmt.Sprintf("repo-%d", i))})
	}
	var names []string
	p := ecr.NewDescribeRepositoriesPaginator(c, &ecr.DescribeRepositoriesInput{MaxResults: aws.Int32(2)})
	pages := 0
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, r := range out.Repositories {
			names = append(names, aws.ToString(r.RepositoryName))
		}
	}
	if pages != 3 || strings.Join(names, ",") != "repo-0,repo-1,repo-2,repo-3,repo-4" {
		t.Errorf("%d pages of %v", pages, names)
	}
	_, err := c.DescribeRepositories(ctx, &ecr.DescribeRepositoriesInput{MaxResults: aws.Int32(1001)})
	wantCode(t, "maxResults 1001", err, "InvalidParameterException")
	_, err = c.DescribeRepositories(ctx, &ecr.DescribeRepositoriesInput{NextToken: aws.String("bogus")})
	wantCode(t, "bogus token", err, "InvalidParameterException")
}

// TestECRRepositorySettings changes tag mutability (with exclusion filters) and scan on push, and
// checks what DescribeRepositories reports.
func TestECRRepositorySettings(t *testing.T) {
	c, _ := ecrClient(t)
	ctx := context.Background()
	newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String("web")})
	mut, err := c.PutImageTagMutability(ctx, &ecr.PutImageTagMutabilityInput{RepositoryName: aws.String("web"),
		ImageTagMutability:                 types.ImageTagMutabilityImmutableWithExclusion,
		ImageTagMutabilityExclusionFilters: []types.ImageTagMutabilityExclusionFilter{{Filter: aws.String("latest*"), FilterType: types.ImageTagMutabilityExclusionFilterTypeWildcard}}})
	if err != nil || mut.ImageTagMutability != types.ImageTagMutabilityImmutableWithExclusion || aws.ToString(mut.RepositoryName) != "web" {
		t.Fatalf("put mutability: %+v, %v", mut, err)
	}
	scan, err := c.PutImageScanningConfiguration(ctx, &ecr.PutImageScanningConfigurationInput{RepositoryName: aws.String("web"),
		ImageScanningConfiguration: &types.ImageScanningConfiguration{ScanOnPush: true}})
	if err != nil || !scan.ImageScanningConfiguration.ScanOnPush {
		t.Fatalf("put scanning: %+v, %v", scan, err)
	}
	out, err := c.DescribeRepositories(ctx, &ecr.DescribeRepositoriesInput{RepositoryNames: []string{"web"}})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Repositories[0]
	if r.ImageTagMutability != types.ImageTagMutabilityImmutableWithExclusion || len(r.ImageTagMutabilityExclusionFilters) != 1 || !r.ImageScanningConfiguration.ScanOnPush {
		t.Errorf("described after changes: %+v", r)
	}
	_, err = c.PutImageTagMutability(ctx, &ecr.PutImageTagMutabilityInput{RepositoryName: aws.String("nope"), ImageTagMutability: types.ImageTagMutabilityMutable})
	wantCode(t, "mutability of a missing repository", err, "RepositoryNotFoundException")
}

// TestECRLifecyclePolicy puts, gets and deletes a lifecycle policy, and checks that policies
// breaking AWS's lifecycle grammar are refused.
func TestECRLifecyclePolicy(t *testing.T) {
	c, _ := ecrClient(t)
	ctx := context.Background()
	newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String("web")})
	_, err := c.GetLifecyclePolicy(ctx, &ecr.GetLifecyclePolicyInput{RepositoryName: aws.String("web")})
	wantCode(t, "get before put", err, "LifecyclePolicyNotFoundException")
	put, err := c.PutLifecyclePolicy(ctx, &ecr.PutLifecyclePolicyInput{RepositoryName: aws.String("web"), LifecyclePolicyText: aws.String(lifecycleText)})
	if err != nil || aws.ToString(put.LifecyclePolicyText) != lifecycleText || aws.ToString(put.RegistryId) != emulator.DefaultAccount {
		t.Fatalf("put: %+v, %v", put, err)
	}
	got, err := c.GetLifecyclePolicy(ctx, &ecr.GetLifecyclePolicyInput{RepositoryName: aws.String("web")})
	if err != nil || aws.ToString(got.LifecyclePolicyText) != lifecycleText {
		t.Fatalf("get: %+v, %v", got, err)
	}
	rule := func(priority int, selection string) string {
		return fmt.Sprintf(`{"rulePriority":%d,"description":"a rule to check the policy grammar","selection":%s,"action":{"type":"expire"}}`, priority, selection)
	}
	untagged := `{"tagStatus":"untagged","countType":"imageCountMoreThan","countNumber":5}`
	for name, text := range map[string]string{
		"not JSON":                  strings.Repeat("x", 120),
		"no rules":                  `{"rules":[]}` + strings.Repeat(" ", 100),
		"duplicate priority":        `{"rules":[` + rule(1, untagged) + "," + rule(1, untagged) + `]}`,
		"tagged without a list":     `{"rules":[` + rule(1, `{"tagStatus":"tagged","countType":"imageCountMoreThan","countNumber":5}`) + `]}`,
		"countUnit with count":      `{"rules":[` + rule(1, `{"tagStatus":"untagged","countType":"imageCountMoreThan","countUnit":"days","countNumber":5}`) + `]}`,
		"since pushed without unit": `{"rules":[` + rule(1, `{"tagStatus":"untagged","countType":"sinceImagePushed","countNumber":5}`) + `]}`,
		"zero count":                `{"rules":[` + rule(1, `{"tagStatus":"untagged","countType":"imageCountMoreThan","countNumber":0}`) + `]}`,
		"any not last":              `{"rules":[` + rule(1, `{"tagStatus":"any","countType":"imageCountMoreThan","countNumber":5}`) + "," + rule(2, untagged) + `]}`,
		"unknown action":            `{"rules":[` + strings.Replace(rule(1, untagged), "expire", "archive", 1) + `]}`,
	} {
		_, err := c.PutLifecyclePolicy(ctx, &ecr.PutLifecyclePolicyInput{RepositoryName: aws.String("web"), LifecyclePolicyText: aws.String(text)})
		wantCode(t, name, err, "InvalidParameterException")
	}
	del, err := c.DeleteLifecyclePolicy(ctx, &ecr.DeleteLifecyclePolicyInput{RepositoryName: aws.String("web")})
	if err != nil || aws.ToString(del.LifecyclePolicyText) != lifecycleText {
		t.Fatalf("delete: %+v, %v", del, err)
	}
	_, err = c.DeleteLifecyclePolicy(ctx, &ecr.DeleteLifecyclePolicyInput{RepositoryName: aws.String("web")})
	wantCode(t, "delete again", err, "LifecyclePolicyNotFoundException")
}

// TestECRRepositoryPolicy sets, gets and deletes a repository policy, and checks that documents
// that are not resource policies are refused.
func TestECRRepositoryPolicy(t *testing.T) {
	c, _ := ecrClient(t)
	ctx := context.Background()
	newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String("web")})
	_, err := c.GetRepositoryPolicy(ctx, &ecr.GetRepositoryPolicyInput{RepositoryName: aws.String("web")})
	wantCode(t, "get before set", err, "RepositoryPolicyNotFoundException")
	policy := `{"Version":"2012-10-17","Statement":[{"Sid":"pull","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":["ecr:BatchGetImage","ecr:GetDownloadUrlForLayer"]}]}`
	set, err := c.SetRepositoryPolicy(ctx, &ecr.SetRepositoryPolicyInput{RepositoryName: aws.String("web"), PolicyText: aws.String(policy)})
	if err != nil || aws.ToString(set.PolicyText) != policy {
		t.Fatalf("set: %+v, %v", set, err)
	}
	got, err := c.GetRepositoryPolicy(ctx, &ecr.GetRepositoryPolicyInput{RepositoryName: aws.String("web")})
	if err != nil || aws.ToString(got.PolicyText) != policy {
		t.Fatalf("get: %+v, %v", got, err)
	}
	for name, text := range map[string]string{
		"not JSON":         "{",
		"no principal":     `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"ecr:*"}]}`,
		"lower-case allow": `{"Version":"2012-10-17","Statement":{"Effect":"allow","Principal":"*","Action":"ecr:*"}}`,
	} {
		_, err := c.SetRepositoryPolicy(ctx, &ecr.SetRepositoryPolicyInput{RepositoryName: aws.String("web"), PolicyText: aws.String(text)})
		wantCode(t, name, err, "InvalidParameterException")
	}
	del, err := c.DeleteRepositoryPolicy(ctx, &ecr.DeleteRepositoryPolicyInput{RepositoryName: aws.String("web")})
	if err != nil || aws.ToString(del.PolicyText) != policy {
		t.Fatalf("delete: %+v, %v", del, err)
	}
	_, err = c.DeleteRepositoryPolicy(ctx, &ecr.DeleteRepositoryPolicyInput{RepositoryName: aws.String("web")})
	wantCode(t, "delete again", err, "RepositoryPolicyNotFoundException")
}

// TestECRImagesAndForceDelete pushes manifests by tag, moves tags on a mutable repository and is
// refused on an immutable one, lists and deletes images, and deletes the repository only when
// forced.
func TestECRImagesAndForceDelete(t *testing.T) {
	c, _ := ecrClient(t)
	ctx := context.Background()
	newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String("web")})
	m1, d1 := manifest(t, c, "web", 1)
	m2, d2 := manifest(t, c, "web", 2)
	put := func(m, tag string) error {
		in := &ecr.PutImageInput{RepositoryName: aws.String("web"), ImageManifest: aws.String(m)}
		if tag != "" {
			in.ImageTag = aws.String(tag)
		}
		_, err := c.PutImage(ctx, in)
		return err
	}
	out, err := c.PutImage(ctx, &ecr.PutImageInput{RepositoryName: aws.String("web"), ImageManifest: aws.String(m1), ImageTag: aws.String("v1")})
	if err != nil || aws.ToString(out.Image.ImageId.ImageDigest) != d1 || aws.ToString(out.Image.ImageManifestMediaType) != "application/vnd.docker.distribution.manifest.v2+json" {
		t.Fatalf("put v1: %+v, %v", out, err)
	}
	wantCode(t, "same image and tag", put(m1, "v1"), "ImageAlreadyExistsException")
	if err := put(m1, "latest"); err != nil {
		t.Fatalf("second tag: %v", err)
	}
	if err := put(m2, "latest"); err != nil {
		t.Fatalf("move latest on a mutable repository: %v", err)
	}
	_, err = c.PutImage(ctx, &ecr.PutImageInput{RepositoryName: aws.String("web"), ImageManifest: aws.String(m2), ImageDigest: aws.String(d1)})
	wantCode(t, "digest of another manifest", err, "ImageDigestDoesNotMatchException")
	list := func(status types.TagStatus) []string {
		t.Helper()
		out, err := c.ListImages(ctx, &ecr.ListImagesInput{RepositoryName: aws.String("web"), Filter: &types.ListImagesFilter{TagStatus: status}})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, id := range out.ImageIds {
			ids = append(ids, aws.ToString(id.ImageDigest)[7:11]+":"+aws.ToString(id.ImageTag))
		}
		return ids
	}
	short := func(d string) string { return d[7:11] }
	if got, want := strings.Join(list(types.TagStatusAny), " "), strings.Join(slices.Sorted(slices.Values([]string{short(d1) + ":v1", short(d2) + ":latest"})), " "); got != want {
		t.Errorf("images %q, want %q", got, want)
	}
	if _, err := c.PutImageTagMutability(ctx, &ecr.PutImageTagMutabilityInput{RepositoryName: aws.String("web"), ImageTagMutability: types.ImageTagMutabilityImmutable}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "move a tag on an immutable repository", put(m1, "latest"), "ImageTagAlreadyExistsException")
	if err := put(m1, "v1-again"); err != nil {
		t.Fatalf("new tag on an immutable repository: %v", err)
	}
	_, err = c.DeleteRepository(ctx, &ecr.DeleteRepositoryInput{RepositoryName: aws.String("web")})
	wantCode(t, "delete with images", err, "RepositoryNotEmptyException")
	del, err := c.BatchDeleteImage(ctx, &ecr.BatchDeleteImageInput{RepositoryName: aws.String("web"), ImageIds: []types.ImageIdentifier{
		{ImageTag: aws.String("v1")}, {ImageTag: aws.String("nope")}, {ImageDigest: aws.String(d2), ImageTag: aws.String("v1-again")}, {}}})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, f := range del.Failures {
		codes = append(codes, string(f.FailureCode))
	}
	if len(del.ImageIds) != 1 || strings.Join(codes, ",") != "ImageNotFound,ImageTagDoesNotMatchDigest,MissingDigestAndTag" {
		t.Errorf("batch delete: deleted %d, failures %v", len(del.ImageIds), codes)
	}
	if got := list(types.TagStatusTagged); len(got) != 2 {
		t.Errorf("after removing v1, tagged images %v", got)
	}
	if _, err := c.BatchDeleteImage(ctx, &ecr.BatchDeleteImageInput{RepositoryName: aws.String("web"), ImageIds: []types.ImageIdentifier{{ImageDigest: aws.String(d2)}}}); err != nil {
		t.Fatal(err)
	}
	if got := list(types.TagStatusAny); len(got) != 1 {
		t.Errorf("after deleting %s by digest, images %v", short(d2), got)
	}
	if err := put(m2, ""); err != nil {
		t.Fatalf("untagged image: %v", err)
	}
	if got := list(types.TagStatusUntagged); len(got) != 1 || got[0] != short(d2)+":" {
		t.Errorf("untagged images %v", got)
	}
	gone, err := c.DeleteRepository(ctx, &ecr.DeleteRepositoryInput{RepositoryName: aws.String("web"), Force: true})
	if err != nil || aws.ToString(gone.Repository.RepositoryName) != "web" {
		t.Fatalf("force delete: %+v, %v", gone, err)
	}
	_, err = c.DeleteRepository(ctx, &ecr.DeleteRepositoryInput{RepositoryName: aws.String("web")})
	wantCode(t, "delete again", err, "RepositoryNotFoundException")
}

// TestECRTags tags and untags a repository by ARN and checks the tag limit and the errors for a
// bad or unknown ARN.
func TestECRTags(t *testing.T) {
	c, _ := ecrClient(t)
	ctx := context.Background()
	repo := newRepository(t, c, &ecr.CreateRepositoryInput{RepositoryName: aws.String("web"), Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}}})
	if _, err := c.TagResource(ctx, &ecr.TagResourceInput{ResourceArn: repo.RepositoryArn, Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UntagResource(ctx, &ecr.UntagResourceInput{ResourceArn: repo.RepositoryArn, TagKeys: []string{"team"}}); err != nil {
		t.Fatal(err)
	}
	out, err := c.ListTagsForResource(ctx, &ecr.ListTagsForResourceInput{ResourceArn: repo.RepositoryArn})
	if err != nil || len(out.Tags) != 1 || aws.ToString(out.Tags[0].Key) != "env" {
		t.Fatalf("tags: %+v, %v", out, err)
	}
	many := make([]types.Tag, 50)
	for i := range many {
		many[i] = types.Tag{Key: aws.String(fmt.Sprintf("k%d", i)), Value: aws.String("v")}
	}
	_, err = c.TagResource(ctx, &ecr.TagResourceInput{ResourceArn: repo.RepositoryArn, Tags: many})
	wantCode(t, "51 tags", err, "TooManyTagsException")
	_, err = c.ListTagsForResource(ctx, &ecr.ListTagsForResourceInput{ResourceArn: aws.String("not-an-arn")})
	wantCode(t, "bad ARN", err, "InvalidParameterException")
	_, err = c.ListTagsForResource(ctx, &ecr.ListTagsForResourceInput{ResourceArn: aws.String("arn:aws:ecr:us-east-1:000000000000:repository/nope")})
	wantCode(t, "missing repository", err, "RepositoryNotFoundException")
}

// TestECRReplicationConfiguration puts the registry's replication configuration, reads it back
// with DescribeRegistry, and checks that replicating to the source registry is refused.
func TestECRReplicationConfiguration(t *testing.T) {
	c, _ := ecrClient(t)
	ctx := context.Background()
	reg, err := c.DescribeRegistry(ctx, &ecr.DescribeRegistryInput{})
	if err != nil || aws.ToString(reg.RegistryId) != emulator.DefaultAccount || len(reg.ReplicationConfiguration.Rules) != 0 {
		t.Fatalf("describe registry: %+v, %v", reg, err)
	}
	rules := []types.ReplicationRule{{Destinations: []types.ReplicationDestination{{Region: aws.String("eu-west-1"), RegistryId: aws.String(emulator.DefaultAccount)}},
		RepositoryFilters: []types.RepositoryFilter{{Filter: aws.String("team"), FilterType: types.RepositoryFilterTypePrefixMatch}}}}
	put, err := c.PutReplicationConfiguration(ctx, &ecr.PutReplicationConfigurationInput{ReplicationConfiguration: &types.ReplicationConfiguration{Rules: rules}})
	if err != nil || len(put.ReplicationConfiguration.Rules) != 1 {
		t.Fatalf("put replication: %+v, %v", put, err)
	}
	reg, err = c.DescribeRegistry(ctx, &ecr.DescribeRegistryInput{})
	if err != nil || aws.ToString(reg.ReplicationConfiguration.Rules[0].Destinations[0].Region) != "eu-west-1" {
		t.Fatalf("describe after put: %+v, %v", reg, err)
	}
	_, err = c.PutReplicationConfiguration(ctx, &ecr.PutReplicationConfigurationInput{ReplicationConfiguration: &types.ReplicationConfiguration{Rules: []types.ReplicationRule{
		{Destinations: []types.ReplicationDestination{{Region: aws.String("us-east-1"), RegistryId: aws.String(emulator.DefaultAccount)}}}}}})
	wantCode(t, "replicate to itself", err, "InvalidParameterException")
}
