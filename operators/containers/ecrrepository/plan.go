package ecrrepository

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/aws-sdk-go-v2/service/ecr/types"

	"github.com/runner-codes/infra-operator/operators/containers/api/v1alpha1"
	"github.com/runner-codes/infra-operator/shared/managed"
	"github.com/runner-codes/infra-operator/shared/policy"
)

// plan adds to p the calls that bring the repository's tag mutability, scan on push, policies
// and tags in line with the spec. Policies are compared by meaning with policy.Equivalent,
// which reads a lifecycle policy as any JSON object: key order, spacing and a missing
// "Version" make no difference.
func (d *driver) plan(p *managed.Plan, r *v1alpha1.ECRRepository, st *State, observed, desired map[string]string) {
	name := st.Repository.RepositoryName
	if want := mutability(r); st.Repository.ImageTagMutability != want {
		p.AddValue("imageTagMutability", st.Repository.ImageTagMutability, want, func(ctx context.Context) error {
			_, err := d.api.PutImageTagMutability(ctx, &ecr.PutImageTagMutabilityInput{RepositoryName: name, ImageTagMutability: want})
			return managed.Wrap(err, "set the image tag mutability of repository %s", aws.ToString(name))
		})
	}
	if want := scanning(r); st.Repository.ImageScanningConfiguration == nil || st.Repository.ImageScanningConfiguration.ScanOnPush != want.ScanOnPush {
		current := st.Repository.ImageScanningConfiguration != nil && st.Repository.ImageScanningConfiguration.ScanOnPush
		p.AddValue("imageScanningConfiguration", current, want.ScanOnPush, func(ctx context.Context) error {
			_, err := d.api.PutImageScanningConfiguration(ctx, &ecr.PutImageScanningConfigurationInput{RepositoryName: name, ImageScanningConfiguration: want})
			return managed.Wrap(err, "set scan on push of repository %s", aws.ToString(name))
		})
	}
	if want := r.Spec.LifecyclePolicy; !policy.Equivalent(want, st.LifecyclePolicy) {
		p.Add("lifecyclePolicy", func(ctx context.Context) error { return d.putLifecyclePolicy(ctx, name, want) })
	}
	if want := r.Spec.RepositoryPolicy; !policy.Equivalent(want, st.RepositoryPolicy) {
		p.Add("repositoryPolicy", func(ctx context.Context) error { return d.putRepositoryPolicy(ctx, name, want) })
	}
	arn := st.Repository.RepositoryArn
	p.AddTags(desired, observed, managed.TagCalls(func(ctx context.Context, set map[string]string) error {
		_, err := d.api.TagResource(ctx, &ecr.TagResourceInput{ResourceArn: arn, Tags: tagList(set)})
		return managed.Wrap(err, "tag repository %s", aws.ToString(name))
	}, func(ctx context.Context, remove []string) error {
		_, err := d.api.UntagResource(ctx, &ecr.UntagResourceInput{ResourceArn: arn, TagKeys: remove})
		return managed.Wrap(err, "untag repository %s", aws.ToString(name))
	}))
}

// putLifecyclePolicy sets the repository's lifecycle policy, or deletes it for "".
func (d *driver) putLifecyclePolicy(ctx context.Context, name *string, doc string) error {
	if doc == "" {
		_, err := d.api.DeleteLifecyclePolicy(ctx, &ecr.DeleteLifecyclePolicyInput{RepositoryName: name})
		return managed.Wrap(err, "delete the lifecycle policy of repository %s", aws.ToString(name))
	}
	_, err := d.api.PutLifecyclePolicy(ctx, &ecr.PutLifecyclePolicyInput{RepositoryName: name, LifecyclePolicyText: aws.String(doc)})
	return managed.Wrap(err, "put the lifecycle policy of repository %s", aws.ToString(name))
}

// putRepositoryPolicy sets the repository's access policy, or deletes it for "".
func (d *driver) putRepositoryPolicy(ctx context.Context, name *string, doc string) error {
	if doc == "" {
		_, err := d.api.DeleteRepositoryPolicy(ctx, &ecr.DeleteRepositoryPolicyInput{RepositoryName: name})
		return managed.Wrap(err, "delete the policy of repository %s", aws.ToString(name))
	}
	_, err := d.api.SetRepositoryPolicy(ctx, &ecr.SetRepositoryPolicyInput{RepositoryName: name, PolicyText: aws.String(doc)})
	return managed.Wrap(err, "set the policy of repository %s", aws.ToString(name))
}

// mutability returns the image tag mutability the spec asks for.
func mutability(r *v1alpha1.ECRRepository) types.ImageTagMutability {
	if r.Spec.ImageTagMutability == "" {
		return types.ImageTagMutabilityMutable
	}
	return types.ImageTagMutability(r.Spec.ImageTagMutability)
}

// scanning returns the image scanning configuration the spec asks for.
func scanning(r *v1alpha1.ECRRepository) *types.ImageScanningConfiguration {
	c := r.Spec.ImageScanningConfiguration
	return &types.ImageScanningConfiguration{ScanOnPush: c != nil && c.ScanOnPush}
}

// wantedEncryption returns the encryption the spec asks for: AES256 when it gives none.
func wantedEncryption(r *v1alpha1.ECRRepository) types.EncryptionConfiguration {
	e := r.Spec.EncryptionConfiguration
	if e == nil || e.EncryptionType == "" {
		return types.EncryptionConfiguration{EncryptionType: types.EncryptionTypeAes256}
	}
	out := types.EncryptionConfiguration{EncryptionType: types.EncryptionType(e.EncryptionType)}
	if e.KMSKey != "" {
		out.KmsKey = aws.String(e.KMSKey)
	}
	return out
}

// tagList returns tags as ECR takes them.
func tagList(tags map[string]string) []types.Tag {
	return managed.TagList(tags, func(k, v string) types.Tag { return types.Tag{Key: aws.String(k), Value: aws.String(v)} })
}
