package differential

import (
	"context"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/emulator"
)

// registry is one side's ECR client and the account of its registry (moto's is 123456789012).
type registry struct {
	ecr     *ecr.Client
	account string
}

// arn returns the ARN of the repository the steps follow in the side's registry.
func (c *registry) arn() *string {
	return aws.String("arn:aws:ecr:us-east-1:" + c.account + ":repository/diff/web")
}

// errorOutcome makes a step of a call whose answer only matters for its error.
func errorOutcome[C any](in func(c C) error) func(c C) outcome {
	return func(c C) outcome { return observe(in(c), nil) }
}

// Documents the ECR steps put (the image manifests are in ecr_layers_test.go).
const (
	ecrLifecycle = `{"rules":[{"rulePriority":1,"description":"expire untagged","selection":{"tagStatus":"untagged","countType":"sinceImagePushed","countUnit":"days","countNumber":14},"action":{"type":"expire"}}]}`
	ecrPolicy    = `{"Version":"2012-10-17","Statement":[{"Sid":"pull","Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":["ecr:BatchGetImage"]}]}`
)

// ecrSteps is the ECR sequence both sides run: repositories with their settings, policies,
// images and deletion, tags, the registry's replication, and the errors AWS documents.
func ecrSteps() []step[*registry] {
	ctx := context.Background()
	repo := aws.String("diff/web")
	describe := func(c *registry) outcome {
		out, err := c.ecr.DescribeRepositories(ctx, &ecr.DescribeRepositoriesInput{RepositoryNames: []string{*repo}})
		if err != nil {
			return observe(err, nil)
		}
		r := out.Repositories[0]
		return observe(nil, map[string]string{"uri": strings.TrimPrefix(aws.ToString(r.RepositoryUri), c.account),
			"arn": accountPart.ReplaceAllString(aws.ToString(r.RepositoryArn), ":<account>:"), "registry": strconv.FormatBool(aws.ToString(r.RegistryId) == c.account),
			"mutability": string(r.ImageTagMutability), "scan": strconv.FormatBool(r.ImageScanningConfiguration.ScanOnPush),
			"encryption": string(r.EncryptionConfiguration.EncryptionType)})
	}
	put := func(manifest, tag string) func(c *registry) outcome {
		return func(c *registry) outcome {
			out, err := c.ecr.PutImage(ctx, &ecr.PutImageInput{RepositoryName: repo, ImageManifest: aws.String(manifest), ImageTag: aws.String(tag)})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"digest": aws.ToString(out.Image.ImageId.ImageDigest), "tag": aws.ToString(out.Image.ImageId.ImageTag)})
		}
	}
	list := func(c *registry) outcome {
		out, err := c.ecr.ListImages(ctx, &ecr.ListImagesInput{RepositoryName: repo, Filter: &types.ListImagesFilter{TagStatus: types.TagStatusTagged}})
		if err != nil {
			return observe(err, nil)
		}
		var tags []string
		for _, id := range out.ImageIds {
			tags = append(tags, aws.ToString(id.ImageTag))
		}
		slices.Sort(tags)
		return observe(nil, map[string]string{"tags": strings.Join(tags, ",")})
	}
	return []step[*registry]{
		{"CreateRepository", errorOutcome(func(c *registry) error {
			_, err := c.ecr.CreateRepository(ctx, &ecr.CreateRepositoryInput{RepositoryName: repo,
				ImageScanningConfiguration: &types.ImageScanningConfiguration{ScanOnPush: true},
				Tags:                       []types.Tag{{Key: aws.String("team"), Value: aws.String("web")}}})
			return err
		})},
		{"CreateExisting", errorOutcome(func(c *registry) error {
			_, err := c.ecr.CreateRepository(ctx, &ecr.CreateRepositoryInput{RepositoryName: repo})
			return err
		})},
		{"CreateUpperCase", errorOutcome(func(c *registry) error {
			_, err := c.ecr.CreateRepository(ctx, &ecr.CreateRepositoryInput{RepositoryName: aws.String("Diff")})
			return err
		})},
		{"Describe", describe},
		{"DescribeMissing", errorOutcome(func(c *registry) error {
			_, err := c.ecr.DescribeRepositories(ctx, &ecr.DescribeRepositoriesInput{RepositoryNames: []string{"diff/missing"}})
			return err
		})},
		{"PutImageTagMutability", errorOutcome(func(c *registry) error {
			_, err := c.ecr.PutImageTagMutability(ctx, &ecr.PutImageTagMutabilityInput{RepositoryName: repo, ImageTagMutability: types.ImageTagMutabilityImmutable})
			return err
		})},
		{"PutImageScanningConfiguration", errorOutcome(func(c *registry) error {
			_, err := c.ecr.PutImageScanningConfiguration(ctx, &ecr.PutImageScanningConfigurationInput{RepositoryName: repo,
				ImageScanningConfiguration: &types.ImageScanningConfiguration{ScanOnPush: false}})
			return err
		})},
		{"DescribeChanged", describe},
		{"GetLifecycleMissing", errorOutcome(func(c *registry) error {
			_, err := c.ecr.GetLifecyclePolicy(ctx, &ecr.GetLifecyclePolicyInput{RepositoryName: repo})
			return err
		})},
		{"PutLifecyclePolicy", errorOutcome(func(c *registry) error {
			_, err := c.ecr.PutLifecyclePolicy(ctx, &ecr.PutLifecyclePolicyInput{RepositoryName: repo, LifecyclePolicyText: aws.String(ecrLifecycle)})
			return err
		})},
		{"PutLifecycleCountUnitWithCount", errorOutcome(func(c *registry) error {
			_, err := c.ecr.PutLifecyclePolicy(ctx, &ecr.PutLifecyclePolicyInput{RepositoryName: repo, LifecyclePolicyText: aws.String(
				strings.Replace(ecrLifecycle, "sinceImagePushed", "imageCountMoreThan", 1))})
			return err
		})},
		{"GetLifecyclePolicy", func(c *registry) outcome {
			out, err := c.ecr.GetLifecyclePolicy(ctx, &ecr.GetLifecyclePolicyInput{RepositoryName: repo})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"same": strconv.FormatBool(aws.ToString(out.LifecyclePolicyText) == ecrLifecycle)})
		}},
		{"DeleteLifecyclePolicy", errorOutcome(func(c *registry) error {
			_, err := c.ecr.DeleteLifecyclePolicy(ctx, &ecr.DeleteLifecyclePolicyInput{RepositoryName: repo})
			return err
		})},
		{"DeleteLifecycleAgain", errorOutcome(func(c *registry) error {
			_, err := c.ecr.DeleteLifecyclePolicy(ctx, &ecr.DeleteLifecyclePolicyInput{RepositoryName: repo})
			return err
		})},
		{"GetPolicyMissing", errorOutcome(func(c *registry) error {
			_, err := c.ecr.GetRepositoryPolicy(ctx, &ecr.GetRepositoryPolicyInput{RepositoryName: repo})
			return err
		})},
		{"SetRepositoryPolicy", errorOutcome(func(c *registry) error {
			_, err := c.ecr.SetRepositoryPolicy(ctx, &ecr.SetRepositoryPolicyInput{RepositoryName: repo, PolicyText: aws.String(ecrPolicy)})
			return err
		})},
		{"SetPolicyNotJSON", errorOutcome(func(c *registry) error {
			_, err := c.ecr.SetRepositoryPolicy(ctx, &ecr.SetRepositoryPolicyInput{RepositoryName: repo, PolicyText: aws.String("{")})
			return err
		})},
		{"GetRepositoryPolicy", func(c *registry) outcome {
			out, err := c.ecr.GetRepositoryPolicy(ctx, &ecr.GetRepositoryPolicyInput{RepositoryName: repo})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"same": strconv.FormatBool(aws.ToString(out.PolicyText) == ecrPolicy)})
		}},
		{"DeleteRepositoryPolicy", errorOutcome(func(c *registry) error {
			_, err := c.ecr.DeleteRepositoryPolicy(ctx, &ecr.DeleteRepositoryPolicyInput{RepositoryName: repo})
			return err
		})},
		{"UploadConfigOne", uploadStep(repo, configOne)},
		{"UploadConfigTwo", uploadStep(repo, configTwo)},
		{"CheckLayers", checkLayersStep(repo)},
		{"PutImage", put(manifestOne, "v1")},
		{"PutSameImageAndTag", put(manifestOne, "v1")},
		{"PutImmutableTagMoved", put(manifestTwo, "v1")},
		{"PutSecondImage", put(manifestTwo, "v2")},
		{"BatchGetImage", getImageStep(repo, "v2", manifestTwo)},
		{"ListImages", list},
		{"DeleteNotEmpty", errorOutcome(func(c *registry) error {
			_, err := c.ecr.DeleteRepository(ctx, &ecr.DeleteRepositoryInput{RepositoryName: repo})
			return err
		})},
		{"BatchDeleteImage", func(c *registry) outcome {
			out, err := c.ecr.BatchDeleteImage(ctx, &ecr.BatchDeleteImageInput{RepositoryName: repo,
				ImageIds: []types.ImageIdentifier{{ImageTag: aws.String("v1")}, {ImageTag: aws.String("missing")}}})
			if err != nil {
				return observe(err, nil)
			}
			var codes []string
			for _, f := range out.Failures {
				codes = append(codes, string(f.FailureCode))
			}
			return observe(nil, map[string]string{"deleted": strconv.Itoa(len(out.ImageIds)), "failures": strings.Join(codes, ",")})
		}},
		{"ListAfterDelete", list},
		{"PutMissingLayer", errorOutcome(func(c *registry) error {
			_, err := c.ecr.PutImage(ctx, &ecr.PutImageInput{RepositoryName: repo, ImageManifest: aws.String(manifestMissing)})
			return err
		})},
		{"TagResource", errorOutcome(func(c *registry) error {
			_, err := c.ecr.TagResource(ctx, &ecr.TagResourceInput{ResourceArn: c.arn(), Tags: []types.Tag{{Key: aws.String("env"), Value: aws.String("prod")}}})
			return err
		})},
		{"UntagResource", errorOutcome(func(c *registry) error {
			_, err := c.ecr.UntagResource(ctx, &ecr.UntagResourceInput{ResourceArn: c.arn(), TagKeys: []string{"team"}})
			return err
		})},
		{"ListTagsForResource", func(c *registry) outcome {
			out, err := c.ecr.ListTagsForResource(ctx, &ecr.ListTagsForResourceInput{ResourceArn: c.arn()})
			if err != nil {
				return observe(err, nil)
			}
			var keys []string
			for _, tag := range out.Tags {
				keys = append(keys, aws.ToString(tag.Key)+"="+aws.ToString(tag.Value))
			}
			slices.Sort(keys)
			return observe(nil, map[string]string{"tags": strings.Join(keys, ",")})
		}},
		{"PutReplicationConfiguration", errorOutcome(func(c *registry) error {
			_, err := c.ecr.PutReplicationConfiguration(ctx, &ecr.PutReplicationConfigurationInput{ReplicationConfiguration: &types.ReplicationConfiguration{
				Rules: []types.ReplicationRule{{Destinations: []types.ReplicationDestination{{Region: aws.String("eu-west-1"), RegistryId: aws.String(c.account)}}}}}})
			return err
		})},
		{"DescribeRegistry", func(c *registry) outcome {
			out, err := c.ecr.DescribeRegistry(ctx, &ecr.DescribeRegistryInput{})
			if err != nil {
				return observe(err, nil)
			}
			return observe(nil, map[string]string{"rules": strconv.Itoa(len(out.ReplicationConfiguration.Rules))})
		}},
		{"ForceDelete", errorOutcome(func(c *registry) error {
			_, err := c.ecr.DeleteRepository(ctx, &ecr.DeleteRepositoryInput{RepositoryName: repo, Force: true})
			return err
		})},
		{"DeleteAgain", errorOutcome(func(c *registry) error {
			_, err := c.ecr.DeleteRepository(ctx, &ecr.DeleteRepositoryInput{RepositoryName: repo})
			return err
		})},
	}
}

// TestECRAgainstMoto compares ECR with moto's.
func TestECRAgainstMoto(t *testing.T) {
	peerURL := motoPeer(t)
	emu := httptest.NewServer(emulator.New(emulator.Options{}))
	t.Cleanup(emu.Close)
	emuSide := &registry{ecr: ecr.NewFromConfig(sdkConfig(t, emu.URL)), account: emulator.DefaultAccount}
	peerSide := &registry{ecr: ecr.NewFromConfig(sdkConfig(t, peerURL)), account: "123456789012"}
	// moto digests every manifest as the SHA-256 of nothing (sha256:e3b0c442...); AWS's image
	// digest is the SHA-256 of the manifest's bytes, so distinct manifests have distinct digests.
	const digest = "moto gives every manifest the digest of an empty input; AWS digests the manifest's bytes"
	// moto 5.2.1 answers InitiateLayerUpload, UploadLayerPart and CompleteLayerUpload with
	// NotImplementedError, and PutImage does not look for the blobs a manifest names.
	const layerUpload = "moto 5.2.1 does not implement the layer upload calls; AWS uploads in contiguous parts and checks the SHA-256 of the bytes (CompleteLayerUpload)"
	compare(t, emuSide, peerSide, "moto "+motoVersion, ecrSteps(), map[string]string{
		"DescribeChanged": "moto keeps scanOnPush true after PutImageScanningConfiguration turns it off; AWS reports the new setting",
		"PutLifecycleCountUnitWithCount": "moto accepts countUnit with countType imageCountMoreThan; AWS allows countUnit only with sinceImagePushed " +
			"(Lifecycle policy properties) and answers InvalidParameterException",
		"GetLifecyclePolicy":   "moto re-encodes the policy's JSON; the emulator returns the text as it was put",
		"PutImage":             digest,
		"PutSecondImage":       digest,
		"PutImmutableTagMoved": "follows from the digest: moto sees the same image again (ImageAlreadyExistsException); for another manifest AWS refuses to move an immutable tag with ImageTagAlreadyExistsException",
		"UploadConfigOne":      layerUpload,
		"UploadConfigTwo":      layerUpload,
		"CheckLayers":          "moto 5.2.1 does not implement BatchCheckLayerAvailability; AWS answers AVAILABLE for an uploaded layer and MissingLayerDigest for another",
		"PutMissingLayer": "moto does not check the manifest's blobs; AWS refuses a manifest naming a layer the repository does not have " +
			"with LayersNotFoundException (PutImage, Errors)",
	})
}
